#!/usr/bin/env python3
"""The console's export and PACS queue against a real PACS: dcmtk's storescp on loopback
("pacs") and a closed loopback port ("down"), named in a SonoLink configuration; runs
tst_pacs_queue offscreen, then reads what storescp received with pydicom: one US Multi-frame
object of the exam's patient, Chinese name included. Stops storescp by its PID.
Usage: pacs_queue_test.py TST_PACS_QUEUE_BINARY"""
import glob
import os
import pathlib
import subprocess
import sys
import tempfile
import unittest

import pydicom

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "support"))
from dicom_peers import US_MULTIFRAME, Storescp, free_port, sonolink_config  # noqa: E402

BINARY = sys.argv.pop(1) if len(sys.argv) > 1 else os.environ.get("TST_PACS_QUEUE", "")


class PacsQueueTest(unittest.TestCase):
    def test_exports_are_queued_followed_retried_and_withdrawn(self):
        with tempfile.TemporaryDirectory() as work:
            pacs = Storescp(work, free_port())
            exports = os.path.join(work, "exports")
            os.makedirs(exports)
            try:
                config = sonolink_config(os.path.join(work, "sonolink.json"),
                                         [{"name": "pacs", "ae_title": "STORESCP", "port": pacs.port},
                                          {"name": "down", "ae_title": "DOWN", "port": free_port()}],
                                         queue_dir=os.path.join(work, "queue"), dimse_timeout_s=5, retry_initial_s=1)
                env = dict(os.environ, SONOLINK_TEST_CONFIG=config, EXPORT_DIR=exports, QT_QPA_PLATFORM="offscreen")
                run = subprocess.run([BINARY], cwd=work, env=env, capture_output=True, text=True, timeout=150)
            finally:
                pacs.stop()
            self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
            self.assertIn("PASS   : TestPacsQueue::exportsAreQueuedFollowedRetriedAndWithdrawn()", run.stdout)
            self.assertIn("PASS   : TestPacsQueue::settingsTestsANodeWithACEcho()", run.stdout)
            received = glob.glob(os.path.join(pacs.inbox, "*"))
            self.assertEqual(len(received), 1, received)
            ds = pydicom.dcmread(received[0])
            self.assertEqual(ds.SOPClassUID, US_MULTIFRAME)
            self.assertEqual(ds.PatientID, "Q0001")
            self.assertEqual(str(ds.PatientName), "Queue^Test=李^娜")
            self.assertGreaterEqual(int(ds.NumberOfFrames), 5)


if __name__ == "__main__":
    unittest.main()
