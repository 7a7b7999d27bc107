#!/usr/bin/env python3
"""The size norms of SonoLink's product code (core, transport, app, gui; tests aside): a function
within 60 lines, a file within 500. Where a longer one reads better, a one-line reason says so:

    // long: <why>      on one of the three lines above a function's signature
    // size: <why>      in a file's first ten lines

What is over the norms today and not yet shortened is listed in tests/arch/size_backlog.txt
(one line each: the file, then the function's signature as printed, or "(file)"): listed, it is
reported but passes; a new one fails, and so does a listed one that is within the norms now
(take it off the list). The list only shrinks.

Functions are found by their braces (comments and literals set aside): a block at namespace or
class scope whose head is a parameter list is a function, from its signature's first line to
its closing brace. A heuristic, not a compiler: it proves itself on tests/arch/size_fixture.cpp
first (two findings there, one excused), or fails.
Usage: check_sizes.py ROOT [-v] [--backlog] (--backlog prints today's list). Run by CTest (arch.sizes)."""
import pathlib
import re
import subprocess
import sys

FUNCTION_LINES = 60
FILE_LINES = 500
FOLDERS = ("core", "transport", "app", "gui")
SUFFIXES = (".cpp", ".h", ".cu", ".cuh")
CONTROL = re.compile(r"^(if|for|while|switch|catch|else|do|try|return)\b")
SCOPE_WORD = re.compile(r"\b(namespace|class|struct|union|enum)\b")
INITIALISERS = re.compile(r"^(.*\))\s*:\s*[\w:]+\s*[({].*$")  # a constructor's ") : a_(x), b_{y}"
FUNCTION_TAIL = re.compile(r"\)\s*(const|noexcept(\([^)]*\))?|override|final|mutable|&|&&|->\s*[\w:<>,\s*&]+|\s)*$")


def is_function_head(flat):
    """A function's signature: a parameter list, then only qualifiers (or a constructor's
    initialisers); not a control statement, not a variable initialised by a call or lambda."""
    if not flat or CONTROL.match(flat):
        return False
    m = INITIALISERS.match(flat)
    signature = m.group(1) if m else flat
    return "(" in signature and "=" not in signature.split("(")[0] and bool(FUNCTION_TAIL.search(signature))


def digit_separator(text, i):
    """Whether the ' at i separates digits of a number (1'000'000), not opens a char literal (u8'a')."""
    start = i
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] in "'."):
        start -= 1
    return start < i and text[start].isdigit() and i + 1 < len(text) and text[i + 1].isalnum()


def blank_out(text):
    """Comments and string/char literals replaced by spaces, line breaks kept."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i)); i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j])); i = j
        elif text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            if not m:
                out.append(c); i += 1; continue
            end = text.find(")" + m.group(1) + '"', i)
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append('""' + re.sub(r"[^\n]", " ", text[i + 2:j])); i = j
        elif c == "'" and digit_separator(text, i):
            out.append(c); i += 1
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (j - i - 1) + (c if j < n else "")); i = j + 1
        else:
            out.append(c); i += 1
    return "".join(out)


def functions(text):
    """(first line, last line, signature) of each function body, 1-based."""
    code = blank_out(text)
    found, stack, head_start = [], [], 0  # stack: (kind, start line, signature)
    line = 1
    for i, c in enumerate(code):
        if c == "\n":
            line += 1
        elif c in ";}{":
            if c == "{":
                raw = code[head_start:i]
                kept = [l for l in raw.split("\n") if not l.strip().startswith("#")]  # preprocessor lines are no head
                head = "\n".join(kept).strip()
                flat = " ".join(head.split())
                outer = stack[-1][0] if stack else "scope"
                kind = "block"
                if outer == "scope" and is_function_head(flat):
                    kind = "function"
                elif outer == "scope" and (SCOPE_WORD.search(flat) or flat.startswith("extern")):
                    kind = "scope"
                first = line - head.count("\n") if head else line
                stack.append((kind, first, flat[:80].rstrip()))
            elif c == "}" and stack:
                kind, first, signature = stack.pop()
                if kind == "function":
                    found.append((first, line, signature))
            head_start = i + 1
    return found


def excused(lines, first, marker):
    return any(marker in lines[k] for k in range(max(0, first - 4), first - 1))


def check_file(path, rel, verbose):
    text = path.read_text(encoding="utf-8", errors="replace")
    lines = text.split("\n")
    problems = []
    count = len(lines) - (1 if text.endswith("\n") else 0)
    if count > FILE_LINES and not any("// size:" in l for l in lines[:10]):
        problems.append((f"{rel} | (file)", f"{rel}: {count} lines (at most {FILE_LINES}, or a `// size: <why>` line in its first ten)"))
    for first, last, signature in functions(text):
        length = last - first + 1
        if length > FUNCTION_LINES:
            if excused(lines, first, "// long:"):
                if verbose:
                    print(f"excused: {rel}:{first}: {length} lines: {signature}")
                continue
            problems.append((f"{rel} | {signature}", f"{rel}:{first}: a function of {length} lines (at most {FUNCTION_LINES}, or a `// long: <why>` line above it): {signature}"))
    return problems


def self_test(root):
    fixture = root / "tests" / "arch" / "size_fixture.cpp"
    found = check_file(fixture, "fixture", False)
    if len(found) != 1 or "a function of 62 lines" not in found[0][1]:
        sys.exit(f"check_sizes: the checker is broken: on {fixture} it found {found}, not one function of 62 lines")


def main():
    root = pathlib.Path(sys.argv[1]).resolve()
    verbose = "-v" in sys.argv
    self_test(root)
    tracked = subprocess.run(["git", "ls-files", *FOLDERS], cwd=root, capture_output=True, text=True, check=True).stdout.split()
    problems = []
    for rel in tracked:
        if rel.endswith(SUFFIXES) and (root / rel).is_file():
            problems += check_file(root / rel, rel, verbose)
    if "--backlog" in sys.argv:
        print("\n".join(sorted(key for key, _ in problems)))
        return 0
    backlog_file = root / "tests" / "arch" / "size_backlog.txt"
    backlog = {l.strip() for l in backlog_file.read_text().splitlines() if l.strip() and not l.startswith("#")}
    found = {key for key, _ in problems}
    new = [message for key, message in problems if key not in backlog]
    done = sorted(backlog - found)
    for message in new:
        print(f"over the norms: {message}")
    for key in done:
        print(f"within the norms now, take it off {backlog_file.name}: {key}")
    print(f"check_sizes: {len(new)} new over the norms, {len(done)} listed but done, {len(found & backlog)} still in the backlog")
    return 1 if new or done else 0


if __name__ == "__main__":
    sys.exit(main())
