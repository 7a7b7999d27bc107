#!/usr/bin/env python3
"""Screenshots of the exam dialog answering a real worklist: dcmtk's wlmscpfs on loopback (one
item for today, a Chinese name), the shipped configuration with that server as the first DICOM
node, and the real console under Xvfb (xcb) asking it, in English and in Chinese:
OUT_DIR/exam_worklist.png and OUT_DIR/exam_worklist_zh_CN.png. The server is stopped by its PID.
Run by take_screenshots.sh. Usage: take_exam_screenshots.py ROOT OUT_DIR"""
import datetime
import json
import os
import pathlib
import subprocess
import sys
import tempfile

root, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
sys.path.insert(0, str(root / "tests" / "support"))
from dicom_peers import Wlmscpfs, free_port  # noqa: E402

with tempfile.TemporaryDirectory() as work:
    server = Wlmscpfs(work, free_port(), date=datetime.date.today().strftime("%Y%m%d"))
    try:
        config = json.loads((root / "resources" / "config" / "sonolink.json").read_text())
        config["dicom"]["nodes"].insert(0, {"name": "hospital-worklist", "ae_title": server.aet, "host": "127.0.0.1", "port": server.port})
        path = pathlib.Path(work) / "sonolink.json"
        path.write_text(json.dumps(config))
        for language, suffix in (("en", ""), ("zh_CN", "_zh_CN")):
            subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1280x900x24", str(root / "build" / "default" / "app" / "sonolink"),
                            "--config", str(path), "--screenshot", os.path.join(work, "main.png"),
                            "--screenshot-exam", str(out / f"exam_worklist{suffix}.png"), "--quit-after", "10", "--language", language],
                           cwd=work, env=dict(os.environ, QT_QPA_PLATFORM="xcb"), check=True, timeout=120,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    finally:
        server.stop()
print(f"saved {out}/exam_worklist.png, {out}/exam_worklist_zh_CN.png")
