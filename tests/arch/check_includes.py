#!/usr/bin/env python3
"""Checks SonoLink's dependency rules on #include lines (docs/architecture.md, "Rules").

Usage: check_includes.py SOURCE_ROOT
Prints one line per violation (file:line: rule: the include) and exits 1 if there is any,
0 otherwise. The target graph enforces the same rules at link time; this check names the
offending line before a build even starts, and catches what the linker cannot (a header-only
include of Qt in core, say).
"""
import pathlib
import re
import sys

SOURCE_SUFFIXES = {".h", ".hpp", ".hh", ".cpp", ".cc", ".cxx", ".cu", ".cuh", ".inl"}
CUDA_MODULE = "core/beamform/cuda/"
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
QT = re.compile(r'^(Q[A-Z]\w*|Qt[A-Z]\w*/.*|Qt[A-Z]\w*|qwt.*)(\.h)?$')
CUDA = re.compile(r'^(cuda(_runtime(_api)?|_fp16|_bf16|\.h|_profiler_api|Profiler)?.*|cufft.*|curand.*|'
                  r'cublas.*|cusparse.*|cuComplex\.h|nvrtc\.h|device_launch_parameters\.h|'
                  r'thrust/.*|cub/.*|cuda/.*)$')
QWT = re.compile(r'^qwt[_\w]*\.h$')
GUI_FORBIDDEN = re.compile(r'^sonolink/(transport|beamform|dicom|pipeline|selftest|config)/')
TRANSPORT_ALLOWED = re.compile(r'^sonolink/(util|transport)/')


def rules_for(rel: str):
    """Yields (rule name, predicate on include text) that apply to a file at rel."""
    if rel.startswith(("core/", "transport/")):
        yield "no Qt in the engine (core, transport)", lambda inc: bool(QT.match(inc))
    if not rel.startswith(CUDA_MODULE):
        yield f"CUDA headers only in {CUDA_MODULE}", lambda inc: bool(CUDA.match(inc))
    if rel.startswith("transport/"):
        yield "transport includes only sonolink/util and sonolink/transport", \
            lambda inc: inc.startswith("sonolink/") and not TRANSPORT_ALLOWED.match(inc)
    if rel.startswith("core/"):
        yield "core never includes gui", lambda inc: inc.startswith("sonolink/gui/")
    if rel.startswith("gui/"):
        yield "gui reaches the engine only through its facade", lambda inc: bool(GUI_FORBIDDEN.match(inc))
    if rel.startswith("gui/") and not rel.startswith("gui/plot/"):
        yield "Qwt only in gui/plot", lambda inc: bool(QWT.match(inc))


def check(root: pathlib.Path):
    violations, checked = [], 0
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if not path.is_file() or path.suffix not in SOURCE_SUFFIXES or rel.startswith(("build/", ".git/")):
            continue
        if path.suffix in (".cu", ".cuh") and not rel.startswith(CUDA_MODULE):
            violations.append(f"{rel}:1: CUDA sources only in {CUDA_MODULE}: {path.name}")
        rules = list(rules_for(rel))
        checked += 1
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), start=1):
            match = INCLUDE.match(line)
            if not match:
                continue
            include = match.group(2).strip()
            for name, broken in rules:
                if broken(include):
                    violations.append(f"{rel}:{number}: {name}: #include {match.group(1)}{include}"
                                      f"{'>' if match.group(1) == '<' else chr(34)}")
    return violations, checked


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    root = pathlib.Path(argv[1]).resolve()
    if not root.is_dir():
        print(f"check_includes: {root} is not a directory", file=sys.stderr)
        return 2
    violations, checked = check(root)
    for violation in violations:
        print(violation)
    print(f"check_includes: {checked} files checked, {len(violations)} violation(s)")
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
