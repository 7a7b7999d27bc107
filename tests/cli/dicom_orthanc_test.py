#!/usr/bin/env python3
"""Our DICOM objects in a real PACS: a recording exported by sonolink-cli beamform --dicom as a
US Image, a cine, an RGB cine with a burnt-in depth scale, and RLE and JPEG-LS cines, with a
Chinese patient name; dciodvfy reports nothing on any of them. Sent to Orthanc (loopback,
stopped by PID): Orthanc's REST API shows every instance with the right tags and transfer
syntax, an uncompressed frame byte-equal to ours, and finds the Chinese name by wildcard. To a
storescp that accepts only uncompressed syntaxes, the compressed objects go out decompressed with
the same pixels; to one that accepts all, they keep their encoding. Run by CTest with SONOLINK_CLI."""
import json
import os
import subprocess
import sys
import tempfile
import unittest
import urllib.parse
import urllib.request

import numpy as np
import pydicom

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from dicom_peers import Orthanc, Storescp, free_port, sonolink_config  # noqa: E402

CLI = os.environ["SONOLINK_CLI"]
NAME = "Wang^Xiaoming=王^小明"
EXPLICIT, RLE, JPEG_LS = "1.2.840.10008.1.2.1", "1.2.840.10008.1.2.5", "1.2.840.10008.1.2.4.80"


class OrthancExportTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.work = cls.dir.name
        uff = os.path.join(cls.work, "rec.uff")
        proc = subprocess.run([CLI, "stream", "--in-process", "--frames", "3", "--rate", "0", "--channels", "64", "--samples", "1024",
                               "--slot-bytes", "65536", "--slots", "64", "--record", uff], capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        cls.objects = {}  # name -> (path, transfer syntax, frames, samples)
        for name, args, syntax, frames, samples in (
                ("still", ["--frame", "0"], EXPLICIT, 1, 1),
                ("cine", [], EXPLICIT, 3, 1),
                ("rgb", ["--depth-scale"], EXPLICIT, 3, 3),
                ("rle", ["--dicom-compression", "rle"], RLE, 3, 1),
                ("jpegls", ["--dicom-compression", "jpeg-ls", "--depth-scale"], JPEG_LS, 3, 3)):
            path = os.path.join(cls.work, name + ".dcm")
            proc = subprocess.run([CLI, "beamform", uff, "--x-range", "-9:9:91", "--z-range", "5:19:141", "--output-dir", cls.work,
                                   "--name", name, "--patient-name", NAME, "--patient-id", "P-7", "--dicom", path, *args],
                                  capture_output=True, text=True, timeout=120)
            assert proc.returncode == 0, proc.stderr
            cls.objects[name] = (path, syntax, frames, samples)

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def pixels(self, path):
        """The pixels as pydicom decodes them (JPEG-LS through its GDCM handler)."""
        return np.asarray(pydicom.dcmread(path).pixel_array)

    def test_objects_are_valid(self):
        for name, (path, syntax, frames, samples) in self.objects.items():
            check = subprocess.run(["dciodvfy", path], capture_output=True, text=True)
            self.assertNotIn("Error", check.stdout + check.stderr, name)
            self.assertNotIn("Warning", check.stdout + check.stderr, name)
            d = pydicom.dcmread(path)
            self.assertEqual(d.file_meta.TransferSyntaxUID, syntax, name)
            self.assertEqual(d.SamplesPerPixel, samples, name)
        rgb = self.pixels(self.objects["rgb"][0])
        grey = self.pixels(self.objects["cine"][0])
        self.assertTrue((rgb[:, :, :-10, 0] == grey[:, :, :-10]).all(), "left of the scale the grey image is untouched")
        self.assertTrue(((rgb[:, :, -1] == [255, 220, 0]).all(axis=-1)).any(), "the yellow depth scale is there")
        self.assertTrue((self.pixels(self.objects["rle"][0]) == grey).all())
        self.assertTrue((self.pixels(self.objects["jpegls"][0]) == rgb).all())

    def test_orthanc_stores_them_and_finds_the_chinese_name(self):
        orthanc = Orthanc(self.work)
        try:
            config = sonolink_config(os.path.join(self.work, "orthanc.sonolink.json"),
                                     [{"name": "orthanc", "ae_title": "ORTHANC", "port": orthanc.dicom_port}])
            paths = [o[0] for o in self.objects.values()]
            proc = subprocess.run([CLI, "dicom", "send", "--config", config, "--node", "orthanc", *paths, "--json"],
                                  capture_output=True, text=True, timeout=120)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertTrue(all(r["ok"] and r["status"] == 0 for r in json.loads(proc.stdout)))
            self.assertEqual(orthanc.get("/statistics")["CountInstances"], len(paths))
            by_uid = {}
            for instance in orthanc.get("/instances"):
                tags = orthanc.get(f"/instances/{instance}/simplified-tags")
                by_uid[tags["SOPInstanceUID"]] = (instance, tags)
            for name, (path, syntax, frames, samples) in self.objects.items():
                d = pydicom.dcmread(path)
                instance, tags = by_uid[d.SOPInstanceUID]
                self.assertEqual(tags["SOPClassUID"], d.SOPClassUID, name)
                self.assertEqual(tags["PatientName"], NAME, name)
                self.assertEqual(tags["SpecificCharacterSet"], "ISO_IR 192", name)
                self.assertEqual(tags["Manufacturer"], "SonoLink", name)
                self.assertEqual(int(tags.get("NumberOfFrames", 1)), frames, name)
                self.assertEqual(tags["PhotometricInterpretation"], "RGB" if samples == 3 else "MONOCHROME2", name)
                self.assertEqual(orthanc_text(orthanc, f"/instances/{instance}/metadata/TransferSyntax"), syntax, name)
                region = orthanc.get(f"/instances/{instance}/tags?simplify")["SequenceOfUltrasoundRegions"][0]
                self.assertAlmostEqual(float(region["PhysicalDeltaX"]), 1.8 / 140, places=9)  # 18 mm across the 141 x 141 box
                self.assertEqual(float(region["PhysicalDeltaY"]), float(region["PhysicalDeltaX"]), "true proportions")
                self.assertEqual(int(region["PhysicalUnitsXDirection"]), 3)
            cine = pydicom.dcmread(self.objects["cine"][0])
            raw = orthanc_bytes(orthanc, f"/instances/{by_uid[cine.SOPInstanceUID][0]}/frames/2/raw")
            self.assertEqual(raw, cine.pixel_array[2].tobytes(), "frame 2 as Orthanc serves it")
            found = orthanc.post("/tools/find", {"Level": "Instance", "Query": {"PatientName": "*小明*"}})
            self.assertEqual(len(found), len(paths), "the Chinese name is found by Orthanc's search")
            self.assertEqual(orthanc.post("/tools/find", {"Level": "Instance", "Query": {"PatientName": "*大明*"}}), [])
        finally:
            orthanc.stop()

    def test_compressed_objects_fall_back_to_uncompressed_when_the_peer_wants_it(self):
        for accept_all in (False, True):
            port = free_port()
            work = os.path.join(self.work, f"storescp-{accept_all}")
            os.makedirs(work)
            peer = Storescp(work, port, *(["+xa"] if accept_all else []))
            try:
                for name in ("rle", "jpegls"):
                    path, syntax, _, _ = self.objects[name]
                    proc = subprocess.run([CLI, "dicom", "send", path, "--aet", "STORESCP", "--port", str(port)],
                                          capture_output=True, text=True, timeout=60)
                    self.assertEqual(proc.returncode, 0, proc.stderr)
                    uid = pydicom.dcmread(path).SOPInstanceUID
                    received = [f for f in os.listdir(peer.inbox) if f.endswith(uid)]
                    self.assertEqual(len(received), 1, os.listdir(peer.inbox))
                    got = os.path.join(peer.inbox, received[0])
                    got_syntax = pydicom.dcmread(got).file_meta.TransferSyntaxUID
                    if accept_all:
                        self.assertEqual(got_syntax, syntax, name)
                    else:
                        self.assertIn(got_syntax, (EXPLICIT, "1.2.840.10008.1.2"), name)
                    self.assertTrue((self.pixels(got) == self.pixels(path)).all(), name)
            finally:
                peer.stop()


def orthanc_bytes(orthanc, path):
    with urllib.request.urlopen(f"http://127.0.0.1:{orthanc.http_port}{urllib.parse.quote(path)}", timeout=10) as r:
        return r.read()


def orthanc_text(orthanc, path):
    return orthanc_bytes(orthanc, path).decode()


if __name__ == "__main__":
    unittest.main()
