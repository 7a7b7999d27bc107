#!/usr/bin/env python3
"""The console's exam against a real worklist: dcmtk's wlmscpfs on loopback (one item, a
Chinese name in UTF-8) and a node on a closed loopback port, named in a SonoLink configuration;
runs tst_exam's theConsolePicksFromARealWorklist with SONOLINK_TEST_CONFIG, offscreen, and stops
the server by its PID. Usage: exam_worklist_test.py TST_EXAM_BINARY"""
import os
import pathlib
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "support"))
from dicom_peers import Wlmscpfs, free_port, sonolink_config  # noqa: E402

BINARY = sys.argv.pop(1) if len(sys.argv) > 1 else os.environ.get("TST_EXAM", "")


class ExamWorklistTest(unittest.TestCase):
    def test_the_console_picks_from_a_real_worklist(self):
        with tempfile.TemporaryDirectory() as work:
            server = Wlmscpfs(work, free_port(), date="20261130")
            try:
                config = sonolink_config(os.path.join(work, "sonolink.json"),
                                         [{"name": "worklist", "ae_title": server.aet, "port": server.port},
                                          {"name": "nobody", "ae_title": "NOBODY", "port": free_port()}],
                                         queue_dir=os.path.join(work, "queue"), dimse_timeout_s=5)
                env = dict(os.environ, SONOLINK_TEST_CONFIG=config, QT_QPA_PLATFORM="offscreen")
                run = subprocess.run([BINARY, "theConsolePicksFromARealWorklist"], cwd=work, env=env,
                                     capture_output=True, text=True, timeout=120)
            finally:
                server.stop()
            self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
            self.assertIn("PASS   : TestExam::theConsolePicksFromARealWorklist()", run.stdout)


if __name__ == "__main__":
    unittest.main()
