#!/usr/bin/env python3
"""The format check: every C++ and CUDA source of the project (core, transport, app, gui, tests;
the fuzz corpora aside) is as clang-format-14 lays it out with the project's .clang-format (160
columns, the team's layout). It first proves it can fail: a misformatted snippet must be
reported. Fix a finding with `clang-format-14 -i FILE` (installer/debian-packages.txt installs
it). Usage: check_format.py ROOT [CLANG_FORMAT]. Run by CTest (arch.format)."""
import pathlib
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

FOLDERS = ("core", "transport", "app", "gui", "tests")
SUFFIXES = (".cpp", ".h", ".cu", ".cuh")


def sources(root):
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix in SUFFIXES and "corpus" not in path.parts and path.is_file():
                yield path


def misformatted(clang_format, path, root):
    run = subprocess.run([clang_format, "--dry-run", "--Werror", f"--style=file:{root / '.clang-format'}", str(path)],
                         capture_output=True, text=True)
    return run.returncode != 0, run.stderr


def main():
    root = pathlib.Path(sys.argv[1]).resolve()
    clang_format = sys.argv[2] if len(sys.argv) > 2 else "clang-format-14"
    if not shutil.which(clang_format):
        sys.exit(f"{clang_format} is not installed: installer/install-deps.sh installs it (apt-get install clang-format-14)")
    with tempfile.TemporaryDirectory() as scratch:  # the very check the sources get, on a misformatted snippet
        probe = pathlib.Path(scratch) / "probe.cpp"
        probe.write_text("int  main( ){return 0;}\n")
        failed, _ = misformatted(clang_format, probe, root)
        if not failed:
            sys.exit("the check cannot fail: clang-format passed a misformatted snippet")
    files = list(sources(root))
    with ThreadPoolExecutor() as pool:
        results = list(pool.map(lambda p: (p, *misformatted(clang_format, p, root)), files))
    bad = [(p, err) for p, failed, err in results if failed]
    for path, err in bad[:20]:
        print(err.strip()[:2000])
    for path, _ in bad:
        print(f"not formatted: {path.relative_to(root)} (clang-format-14 -i {path.relative_to(root)})")
    print(f"check_format: {len(files)} files, {len(bad)} not as clang-format lays them out")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
