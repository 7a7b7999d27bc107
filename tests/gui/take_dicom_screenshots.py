#!/usr/bin/env python3
"""Screenshots of the console's DICOM screens against real peers on loopback, in English and
Chinese, under Xvfb (xcb): the exam dialog answering dcmtk's wlmscpfs (one item for today, a
Chinese name): OUT_DIR/exam_worklist{,_zh_CN}.png, then its patient page filled from that
item (the body part from the order): OUT_DIR/exam_patient{,_zh_CN}.png; and the main window with its PACS queue
after a cine export to dcmtk's storescp: OUT_DIR/pacs_queue{,_zh_CN}.png. The shipped
configuration with the peer as the first DICOM node; the peers are stopped by their PIDs.
Run by take_screenshots.sh. Usage: take_dicom_screenshots.py ROOT OUT_DIR"""
import datetime
import json
import os
import pathlib
import subprocess
import sys
import tempfile

root, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
sys.path.insert(0, str(root / "tests" / "support"))
from dicom_peers import Storescp, Wlmscpfs, free_port  # noqa: E402
import shipped_config  # noqa: E402


def run_console(work, first_node, shots):
    """The console on the shipped configuration with first_node before its own nodes; shots:
    (option, name) pairs, each saved as OUT_DIR/name{,_zh_CN}.png."""
    config = shipped_config.load(root / "resources" / "config" / "sonolink.json")
    config["dicom"]["nodes"].insert(0, {"host": "127.0.0.1", **first_node})
    config["recording"] = {"directory": os.path.join(work, "exports")}
    path = pathlib.Path(work) / "sonolink.json"
    path.write_text(json.dumps(config))
    for language, suffix in (("en", ""), ("zh_CN", "_zh_CN")):
        options = [arg for option, name in shots for arg in (option, str(out / f"{name}{suffix}.png"))]
        subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1280x900x24", str(root / "build" / "default" / "app" / "sonolink"),
                        "--config", str(path), "--screenshot", os.path.join(work, "main.png"), *options,
                        "--quit-after", "12", "--language", language],
                       cwd=work, env=dict(os.environ, QT_QPA_PLATFORM="xcb"), check=True, timeout=120,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


with tempfile.TemporaryDirectory() as work:
    worklist = Wlmscpfs(work, free_port(), date=datetime.date.today().strftime("%Y%m%d"))
    try:
        run_console(work, {"name": "hospital-worklist", "ae_title": worklist.aet, "port": worklist.port},
                    [("--screenshot-exam", "exam_worklist"), ("--screenshot-exam-patient", "exam_patient")])
    finally:
        worklist.stop()
    pacs = Storescp(work, free_port())
    try:
        run_console(work, {"name": "hospital-pacs", "ae_title": "STORESCP", "port": pacs.port},
                    [("--screenshot-queue", "pacs_queue"), ("--screenshot-settings", "settings")])
    finally:
        pacs.stop()
print(f"saved {out}/exam_worklist{{,_zh_CN}}.png, {out}/pacs_queue{{,_zh_CN}}.png, {out}/settings{{,_zh_CN}}.png")
