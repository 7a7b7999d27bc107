#!/usr/bin/env python3
"""sonolink-cli dicom echo and send against dcmtk's storescp, started here on loopback and stopped
by its PID: echo and send succeed (the object arrives; --json reports it), and with nothing
listening both fail with exit code 3 (a retry can help) naming the node. Run by CTest with
SONOLINK_CLI set; the DICOM file is written with pydicom (a file from another tool)."""
import json
import os
import socket
import subprocess
import tempfile
import time
import unittest

import numpy as np
import pydicom
from pydicom.dataset import FileDataset, FileMetaDataset
from pydicom.uid import ExplicitVRLittleEndian, generate_uid

CLI = os.environ["SONOLINK_CLI"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def us_file(path):
    meta = FileMetaDataset()
    meta.MediaStorageSOPClassUID = "1.2.840.10008.5.1.4.1.1.6.1"
    meta.MediaStorageSOPInstanceUID = generate_uid(prefix="2.25.")
    meta.TransferSyntaxUID = ExplicitVRLittleEndian
    ds = FileDataset(path, {}, file_meta=meta, preamble=b"\0" * 128)
    ds.SOPClassUID = meta.MediaStorageSOPClassUID
    ds.SOPInstanceUID = meta.MediaStorageSOPInstanceUID
    ds.Modality, ds.PatientName, ds.PatientID = "US", "Test^Cli", "CLI-1"
    ds.StudyInstanceUID, ds.SeriesInstanceUID = generate_uid(prefix="2.25."), generate_uid(prefix="2.25.")
    ds.Rows, ds.Columns, ds.SamplesPerPixel, ds.PhotometricInterpretation = 16, 16, 1, "MONOCHROME2"
    ds.BitsAllocated, ds.BitsStored, ds.HighBit, ds.PixelRepresentation = 8, 8, 7, 0
    ds.PixelData = np.arange(256, dtype=np.uint8).tobytes()
    ds.is_little_endian, ds.is_implicit_VR = True, False
    ds.save_as(path)
    return ds.SOPInstanceUID


class DicomCliTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.port = free_port()
        self.inbox = os.path.join(self.dir.name, "inbox")
        os.makedirs(self.inbox)
        self.scp = subprocess.Popen(["storescp", "-aet", "STORESCP", "-od", self.inbox, str(self.port)],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    break
            time.sleep(0.05)

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
        self.assertEqual(received.PixelData, np.arange(256, dtype=np.uint8).tobytes())

    def test_nothing_listening_is_named(self):
        port = free_port()
        proc = self.cli("echo", "--aet", "NOBODY", "--port", str(port))
        self.assertEqual(proc.returncode, 3)
        self.assertIn(f"PACS NOBODY at 127.0.0.1:{port}", proc.stderr)
        self.assertIn("Connection refused", proc.stderr)


if __name__ == "__main__":
    unittest.main()
