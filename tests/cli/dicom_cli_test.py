#!/usr/bin/env python3
"""sonolink-cli dicom echo and send against dcmtk's storescp, started here on loopback and stopped
by its PID: echo and send succeed (the object arrives; --json reports it), and with nothing
listening both fail with exit code 3 (a retry can help) naming the node; the DICOM file sent is
written with pydicom (a file from another tool). And sonolink-cli beamform --dicom: a recording
exported as a US Image and as a cine, checked by dciodvfy and pydicom. Run by CTest with
SONOLINK_CLI set."""
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import unittest

import numpy as np
import pydicom

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from dicom_peers import free_port, us_file  # noqa: E402

CLI = os.environ["SONOLINK_CLI"]


class DicomCliTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.port = free_port()
        self.inbox = os.path.join(self.dir.name, "inbox")
        os.makedirs(self.inbox)
        self.scp = subprocess.Popen(["storescp", "-aet", "STORESCP", "-od", self.inbox, str(self.port)],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(400):  # 20 s: on a loaded CI machine storescp once took more than the 5 s this allowed
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    break
            time.sleep(0.05)
        else:
            self.fail(f"storescp is not listening on 127.0.0.1:{self.port} after 20 s (exit {self.scp.poll()})")

    def tearDown(self):
        self.scp.terminate()
        self.scp.wait(timeout=10)
        self.dir.cleanup()

    def cli(self, *args):
        return subprocess.run([CLI, "dicom", *args], capture_output=True, text=True, timeout=60)

    def test_echo_and_send(self):
        node = ["--aet", "STORESCP", "--port", str(self.port)]
        proc = self.cli("echo", *node)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("C-ECHO to STORESCP", proc.stdout)
        self.assertNotIn("Requesting Association", proc.stdout + proc.stderr)  # no DCMTK chatter
        path = os.path.join(self.dir.name, "us.dcm")
        uid = us_file(path)
        proc = self.cli("send", path, *node, "--json")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        report = json.loads(proc.stdout)
        self.assertEqual(report[0]["ok"], True)
        self.assertEqual(report[0]["status"], 0)
        received = pydicom.dcmread(os.path.join(self.inbox, f"US.{uid}"))
        self.assertEqual(received.PixelData, pydicom.dcmread(path).PixelData)

    def test_a_damaged_local_file_is_no_network_failure(self):
        """The reported bug: a corrupt local file came back as a retryable network failure
        (exit 3). It is our file's fault: exit 1, the file named as damaged."""
        path = os.path.join(self.dir.name, "cut.dcm")
        us_file(path)
        os.truncate(path, os.path.getsize(path) - 100)
        proc = self.cli("send", path, "--aet", "STORESCP", "--port", str(self.port), "--json")
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        report = json.loads(proc.stdout)
        self.assertFalse(report[0]["ok"])
        self.assertIn("damaged", report[0]["error"])
        self.assertIn(path, report[0]["error"])

    def test_nothing_listening_is_named(self):
        port = free_port()
        proc = self.cli("echo", "--aet", "NOBODY", "--port", str(port))
        self.assertEqual(proc.returncode, 3)
        self.assertIn(f"PACS NOBODY at 127.0.0.1:{port}", proc.stderr)
        self.assertIn("Connection refused", proc.stderr)


class DicomExportCliTest(unittest.TestCase):
    """A recording beamformed and exported: one frame as a US Image, four as a cine."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.uff = os.path.join(self.dir.name, "rec.uff")
        proc = subprocess.run([CLI, "stream", "--in-process", "--frames", "4", "--rate", "0", "--channels", "64", "--samples", "1024",
                               "--slot-bytes", "65536", "--slots", "64", "--record", self.uff], capture_output=True, text=True, timeout=120)
        self.assertEqual(proc.returncode, 0, proc.stderr)

    def tearDown(self):
        self.dir.cleanup()

    def export(self, *args):
        return subprocess.run([CLI, "beamform", self.uff, "--x-range", "-9:9:91", "--z-range", "5:19:141", "--output-dir", self.dir.name,
                               "--patient-name", "Wang^Xiaoming=王^小明", "--patient-id", "P-7", *args], capture_output=True, text=True, timeout=120)

    def test_single_frame_and_cine_are_valid_and_calibrated(self):
        single = os.path.join(self.dir.name, "one.dcm")
        proc = self.export("--frame", "0", "--dicom", single)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        cine = os.path.join(self.dir.name, "cine.dcm")
        proc = self.export("--dicom", cine, "--frame-time-ms", "50")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        for path, frames in ((single, 1), (cine, 4)):
            check = subprocess.run(["dciodvfy", path], capture_output=True, text=True)
            self.assertNotIn("Error", check.stderr + check.stdout, path)
            self.assertNotIn("Warning", check.stderr + check.stdout, path)
            d = pydicom.dcmread(path)
            self.assertEqual((d.Rows, d.Columns), (109, 141))  # 18 x 14 mm in true proportions in the 141 x 141 box
            self.assertEqual(int(getattr(d, "NumberOfFrames", 1)), frames)
            self.assertEqual(str(d.PatientName), "Wang^Xiaoming=王^小明")
            region = d.SequenceOfUltrasoundRegions[0]
            self.assertAlmostEqual(region.PhysicalDeltaX, 1.8 / 140, places=12)  # 18 mm over 140 steps, in cm
            self.assertEqual(region.PhysicalDeltaY, region.PhysicalDeltaX)
            self.assertEqual((region.ReferencePixelX0, region.ReferencePixelY0), (0, 0))
            self.assertAlmostEqual(region.ReferencePixelPhysicalValueX, -0.9, places=12)  # the first pixel: x = -9 mm
            self.assertAlmostEqual(region.ReferencePixelPhysicalValueY, 0.5, places=12)   # z = 5 mm
            self.assertGreater(int(np.asarray(d.pixel_array).max()), 200)  # an image, not a blank
        self.assertAlmostEqual(float(pydicom.dcmread(cine).FrameTime), 50.0)

    def test_an_uneven_grid_is_drawn_on_an_even_calibrated_raster(self):
        path = os.path.join(self.dir.name, "x.dcm")
        proc = subprocess.run([CLI, "beamform", self.uff, "--x", "-5,0,1,5", "--z-range", "5:19:141", "--output-dir", self.dir.name,
                               "--dicom", path], capture_output=True, text=True, timeout=120)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        d = pydicom.dcmread(path)
        region = d.SequenceOfUltrasoundRegions[0]
        self.assertAlmostEqual(region.PhysicalDeltaX, 1.4 / 140, places=12)  # 10 x 14 mm: the depth fills the box
        self.assertEqual(region.PhysicalDeltaY, region.PhysicalDeltaX)
        self.assertEqual((d.Rows, d.Columns), (141, 101))
        proc = subprocess.run([CLI, "beamform", self.uff, "--x", "-5,1,0,5", "--z-range", "5:19:141", "--output-dir", self.dir.name,
                               "--dicom", path], capture_output=True, text=True, timeout=120)
        self.assertEqual(proc.returncode, 1)
        self.assertIn("x and z each run one way", proc.stderr)


if __name__ == "__main__":
    unittest.main()
