#!/usr/bin/env python3
"""Clang's thread-safety analysis (-Wthread-safety) over the libraries whose locks carry its
annotations (sonolink/util/thread_annotations.h): the engine, its API, the DICOM library (the
PACS queue and its forwarder) and the archive (its queue). GCC builds the product; this check
compiles the same sources with clang, syntax only, with each target's own flags taken from the
build's compile_commands.json, and fails on any thread-safety warning (a member GUARDED_BY a
mutex touched without it, a REQUIRES not met). Other clang warnings are not its business.

First it proves it can fail: tests/arch/thread_safety_fixture.cpp, a guarded member read
without its lock, must be reported, or the check itself is broken.
Usage: check_thread_safety.py BUILD_DIR [CLANG]. Run by CTest (arch.thread_safety)."""
import json
import os
import pathlib
import re
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

ROOT = pathlib.Path(__file__).resolve().parents[2]
TARGETS = ("sonolink_engine", "sonolink_engine_api", "sonolink_dicom", "sonolink_archive", "sonolink_util")
CHECK = ["-fsyntax-only", "-Wthread-safety", "-Werror=thread-safety", "-Wno-unknown-warning-option"]


def clang_command(entry, clang, source):
    """The target's compile command, run by clang on `source`, syntax only, thread-safety errors."""
    words = shlex.split(entry["command"])
    kept, skip = [clang], False
    for word in words[1:]:
        if skip:
            skip = False
            continue
        if word in ("-o", "-c"):
            skip = True
            continue
        if word == "-Werror" or word.startswith("-W") and not word.startswith("-Wno-"):
            continue  # gcc's warning set; only the analysis is asked for
        kept.append(word)
    return kept + CHECK + [str(source)]


def run(command):
    proc = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    return proc.returncode, proc.stderr


def main():
    build = pathlib.Path(sys.argv[1])
    clang = sys.argv[2] if len(sys.argv) > 2 else "clang++-16"
    entries = json.load(open(build / "compile_commands.json"))
    mine = [e for e in entries if re.search(r"CMakeFiles/(%s)\.dir/" % "|".join(TARGETS), e["file"])]
    found = {re.search(r"CMakeFiles/([^/]+)\.dir/", e["file"]).group(1) for e in mine}
    missing = sorted(set(TARGETS) - found)
    if missing:
        sys.exit(f"no compile command for {', '.join(missing)} in {build}/compile_commands.json: configure the build first")
    engine = next(e for e in mine if "sonolink_util.dir" in e["file"])
    fixture = ROOT / "tests" / "arch" / "thread_safety_fixture.cpp"
    code, err = run(clang_command(engine, clang, fixture))
    if code == 0 or "requires holding mutex" not in err:
        sys.exit(f"the check cannot fail: clang did not report the fixture's unguarded read ({fixture}):\n{err}")
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = list(pool.map(lambda e: (e["file"], *run(clang_command(e, clang, e["file"]))), mine))
    failed = [(f, err) for f, code, err in results if code != 0]
    for f, err in failed:
        print(f"{f}:\n{err}")
    print(f"{len(results)} translation units of {', '.join(TARGETS)}: {len(failed)} with thread-safety errors")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
