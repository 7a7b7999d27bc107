#!/usr/bin/env python3
"""The console's export and PACS queue against a real PACS: dcmtk's storescp on loopback
("pacs") and a closed loopback port ("down"), named in a SonoLink configuration; runs
tst_pacs_queue offscreen, then reads what storescp received with pydicom: one US Multi-frame
object of the exam's patient, Chinese name included, and one US Image of the frozen picture
with its caliper burnt in (RGB, Burned In Annotation YES, the caliper's colour where it was
drawn, calibrated as the cine), and its measurement report (a Comprehensive SR: the caliper's
length, its line in the image's pixels, selected from that image), the measurement also in the
CSV beside the exported file. Stops storescp by its PID.
Usage: pacs_queue_test.py TST_PACS_QUEUE_BINARY"""
import glob
import os
import pathlib
import subprocess
import sys
import tempfile
import unittest

import pydicom

SUPPORT = pathlib.Path(__file__).resolve().parents[1] / "support"
sys.path.insert(0, str(SUPPORT))
COMPREHENSIVE_SR = "1.2.840.10008.5.1.4.1.1.88.33"
from dicom_peers import US_IMAGE, US_MULTIFRAME, Storescp, free_port, sonolink_config  # noqa: E402

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
            received = [pydicom.dcmread(f) for f in glob.glob(os.path.join(pacs.inbox, "*"))]
            self.assertEqual(len(received), 3, [ds.SOPClassUID for ds in received])
            by_class = {ds.SOPClassUID: ds for ds in received}
            self.assertEqual(set(by_class), {US_MULTIFRAME, US_IMAGE, COMPREHENSIVE_SR})
            ds = by_class[US_MULTIFRAME]
            self.assertEqual(ds.PatientID, "Q0001")
            self.assertEqual(str(ds.PatientName), "Queue^Test=李^娜")
            self.assertGreaterEqual(int(ds.NumberOfFrames), 5)
            image = by_class[US_IMAGE]
            self.assertEqual(image.PatientID, "Q0001")
            self.assertEqual(image.StudyInstanceUID, ds.StudyInstanceUID, "one study")
            self.assertEqual(image.PhotometricInterpretation, "RGB")
            self.assertEqual(image.BurnedInAnnotation, "YES")
            pixels = image.pixel_array.astype(int)
            coloured = (abs(pixels[..., 0] - pixels[..., 2]) > 60).sum()  # grey has R == B; the caliper does not
            self.assertGreater(coloured, 50, "the caliper is drawn into the pixels")
            region, cine_region = image.SequenceOfUltrasoundRegions[0], ds.SequenceOfUltrasoundRegions[0]
            self.assertAlmostEqual(float(region.PhysicalDeltaX), float(cine_region.PhysicalDeltaX), places=9)
            self.assertAlmostEqual(float(region.PhysicalDeltaX), float(region.PhysicalDeltaY), places=9)
            self.check_report(by_class[COMPREHENSIVE_SR].filename, image)
            csv = glob.glob(os.path.join(exports, "image_*.dcm.measurements.csv"))
            self.assertEqual(len(csv), 1, os.listdir(exports))
            with open(csv[0], encoding="utf-8") as f:
                lines = f.read().splitlines()
            self.assertEqual(lines[1].split(",")[:2], ["D1", "distance"])
            self.assertAlmostEqual(float(lines[1].split(",")[2]), 10.0, places=2)


    def check_report(self, report, image):
        """The caliper placed at 20 % across and 30 % down, 10 mm long, as the PACS has it."""
        read = subprocess.run(["/usr/bin/python3", str(SUPPORT / "read_measurement_report.py"), report, image.filename],
                              capture_output=True, text=True, timeout=60)
        self.assertIn("measurement report ok", read.stdout, read.stdout + read.stderr)
        line = next(x for x in read.stdout.splitlines() if x.startswith("D1 "))
        label, concept, value, unit, shape, points = line.split()
        self.assertEqual((concept, unit, shape), ("Length", "mm", "POLYLINE"))
        self.assertAlmostEqual(float(value), 10.0, places=2)
        c1, r1, c2, r2 = (float(v) for v in points.split(","))
        self.assertAlmostEqual(c1, 0.2 * image.Columns + 0.5, delta=0.01)
        self.assertAlmostEqual(r1, 0.3 * image.Rows + 0.5, delta=0.01)
        mm_per_pixel = float(image.SequenceOfUltrasoundRegions[0].PhysicalDeltaX) * 10
        self.assertAlmostEqual((c2 - c1) * mm_per_pixel, 10.0, delta=0.01)
        self.assertAlmostEqual(r2, r1, delta=0.01)


if __name__ == "__main__":
    unittest.main()
