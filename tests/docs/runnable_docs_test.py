#!/usr/bin/env python3
"""Every shell block in README.md and docs/ marked runnable (a fence that opens with
```sh runnable) runs as written, on the built tree, so that no documented command rots:

  - each block is one bash script (set -euo pipefail), 180 s at most, run from a scratch folder
    that holds the tree's build/, resources/, installer/ and tests/ (links to them), so that what
    it writes lands there and the commands read as they do from a checkout's root;
  - sonolink, sonolink-cli and sonolink-fe-sim are on PATH (build/default/app), as installed;
  - the test peers the docs name: dcmtk's storescp as the shipped configuration's PACS node
    (AE ORTHANC on 127.0.0.1:4242, started here and stopped by its PID); HOME is the scratch
    folder; no display.

A block fails the test with its file and line, its output and its exit status. Run by CTest
(docs.runnable) with the build folder: runnable_docs_test.py BUILD_DIR [-v]."""
import os
import pathlib
import re
import socket
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
FENCE = re.compile(r"^```sh runnable\s*$")
PACS_PORT = 4242


def blocks():
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        lines = doc.read_text(encoding="utf-8").splitlines()
        i = 0
        while i < len(lines):
            if FENCE.match(lines[i]):
                start = i + 1
                j = start
                while j < len(lines) and not lines[j].startswith("```"):
                    j += 1
                yield doc.relative_to(ROOT), start + 1, "\n".join(lines[start:j])
                i = j
            i += 1


def port_free(port):
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) != 0


def main():
    build = pathlib.Path(sys.argv[1]).resolve()
    verbose = "-v" in sys.argv[2:]  # each block's output, passed or not
    found = list(blocks())
    if not found:
        print("FAIL: no runnable block in README.md or docs/")
        return 1
    with tempfile.TemporaryDirectory(prefix="sonolink-docs-") as scratch:
        work = pathlib.Path(scratch)
        (work / "build").mkdir()
        (work / "build" / "default").symlink_to(build)
        for name in ("resources", "installer", "tests", "docs"):
            (work / name).symlink_to(ROOT / name)
        inbox = work / "pacs-inbox"
        inbox.mkdir()
        pacs = None
        if port_free(PACS_PORT):
            pacs = subprocess.Popen(["storescp", "-aet", "ORTHANC", "-od", str(inbox), str(PACS_PORT)],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for _ in range(100):
                if not port_free(PACS_PORT):
                    break
                time.sleep(0.05)
        env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SONOLINK_CONFIG")}
        env.update(PATH=f"{build / 'app'}:{env.get('PATH', '/usr/bin:/bin')}", HOME=str(work))
        failed = 0
        try:
            for doc, line, script in found:
                started = time.monotonic()
                proc = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=work, env=env, capture_output=True,
                                      text=True, timeout=180)
                took = time.monotonic() - started
                if proc.returncode != 0:
                    failed += 1
                    print(f"FAIL {doc}:{line} (exit {proc.returncode}, {took:.1f} s)\n--- block\n{script}\n--- output")
                    print((proc.stdout + proc.stderr)[-4000:])
                else:
                    print(f"ok   {doc}:{line} ({took:.1f} s)")
                    if verbose:
                        print((proc.stdout + proc.stderr)[-4000:])
        finally:
            if pacs:
                pacs.terminate()
                pacs.wait(timeout=10)
        print(f"{len(found) - failed} of {len(found)} runnable blocks passed")
        return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
