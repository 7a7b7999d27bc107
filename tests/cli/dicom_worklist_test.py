#!/usr/bin/env python3
"""Modality Worklist through sonolink-cli dicom worklist against dcmtk's wlmscpfs (loopback,
stopped by PID) seeded with one exam for this station: the query by date, modality and station
returns it with the Chinese name intact, also from a server that drops the character set
(-cs0: read as UTF-8 and said so); another station's query finds nothing; a stalled server ends
at the DIMSE timeout (plus at most the abort's ACSE wait). The worklist item carried into an
exported image: patient, Study Instance UID, accession number and Request Attributes, checked
by pydicom, with dciodvfy reporting nothing. Run by CTest with SONOLINK_CLI set."""
import json
import os
import subprocess
import sys
import tempfile
import time
import unittest

import pydicom

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from dicom_peers import Wlmscpfs, free_port, sonolink_config  # noqa: E402

CLI = os.environ["SONOLINK_CLI"]
STUDY_UID = "2.25.329800735698586629295641978511506172918"


class WorklistTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.work = self.dir.name
        self.port = free_port()
        self.server = None
        self.config = sonolink_config(os.path.join(self.work, "sonolink.json"),
                                      [{"name": "ris", "ae_title": "WLMSCP", "port": self.port}],
                                      dimse_timeout_s=2)

    def tearDown(self):
        if self.server:
            self.server.stop()
        self.dir.cleanup()

    def worklist(self, *args):
        return subprocess.run([CLI, "dicom", "worklist", "--config", self.config, "--node", "ris", *args],
                              capture_output=True, text=True, timeout=60)

    def test_query_finds_the_exam_with_its_chinese_name(self):
        self.server = Wlmscpfs(self.work, self.port, study_uid=STUDY_UID)
        proc = self.worklist("--date", "20261130", "--json")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        items = json.loads(proc.stdout)
        self.assertEqual(len(items), 1)
        item = items[0]
        self.assertEqual(item["patient_name"], "Wang^Xiaoming=王^小明")
        self.assertEqual((item["patient_id"], item["accession_number"], item["study_instance_uid"]), ("P0001", "ACC0001", STUDY_UID))
        self.assertEqual((item["requested_procedure_id"], item["scheduled_procedure_step_id"]), ("RP0001", "SPS0001"))
        self.assertFalse(item["character_set_assumed"])
        self.assertIn("王^小明", self.worklist("--date", "20261130").stdout)
        other = self.worklist("--date", "20261130", "--station", "OTHERSTATION", "--json")
        self.assertEqual(json.loads(other.stdout), [])
        wrong_day = self.worklist("--date", "20261201", "--json")
        self.assertEqual(json.loads(wrong_day.stdout), [])

    def test_server_without_character_set_is_read_as_utf8(self):
        self.server = Wlmscpfs(self.work, self.port, keep_charset=False)
        proc = self.worklist("--date", "any", "--json")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        item = json.loads(proc.stdout)[0]
        self.assertEqual(item["patient_name"], "Wang^Xiaoming=王^小明")
        self.assertTrue(item["character_set_assumed"])

    def test_stalled_server_times_out(self):
        self.server = Wlmscpfs(self.work, self.port, extra=("--sleep-before", "30"))
        start = time.monotonic()
        proc = self.worklist("--date", "any")
        elapsed = time.monotonic() - start
        self.assertEqual(proc.returncode, 3, proc.stderr)
        self.assertIn("worklist query failed", proc.stderr)
        self.assertIn("PACS WLMSCP at 127.0.0.1", proc.stderr)
        self.assertGreater(elapsed, 1.5)
        self.assertLess(elapsed, 2 + 10 + 3, "DIMSE timeout plus at most the ACSE wait of the abort")

    def test_worklist_fields_reach_the_exported_image(self):
        self.server = Wlmscpfs(self.work, self.port, study_uid=STUDY_UID)
        proc = self.worklist("--date", "20261130", "--json")
        worklist = os.path.join(self.work, "worklist.json")
        with open(worklist, "w") as f:
            f.write(proc.stdout)
        uff = os.path.join(self.work, "rec.uff")
        rec = subprocess.run([CLI, "stream", "--in-process", "--frames", "1", "--rate", "0", "--channels", "64", "--samples", "1024",
                              "--slot-bytes", "65536", "--slots", "64", "--record", uff], capture_output=True, text=True, timeout=120)
        self.assertEqual(rec.returncode, 0, rec.stderr)
        out = os.path.join(self.work, "exam.dcm")
        proc = subprocess.run([CLI, "beamform", uff, "--x-range", "-9:9:46", "--z-range", "5:19:71", "--output-dir", self.work,
                               "--dicom", out, "--worklist", worklist], capture_output=True, text=True, timeout=120)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        check = subprocess.run(["dciodvfy", out], capture_output=True, text=True)
        self.assertNotIn("Error", check.stdout + check.stderr)
        self.assertNotIn("Warning", check.stdout + check.stderr)
        d = pydicom.dcmread(out)
        self.assertEqual(str(d.PatientName), "Wang^Xiaoming=王^小明")
        self.assertEqual((d.PatientID, d.PatientBirthDate, d.PatientSex), ("P0001", "19800101", "M"))
        self.assertEqual(d.StudyInstanceUID, STUDY_UID)
        self.assertEqual(d.AccessionNumber, "ACC0001")
        self.assertEqual(str(d.ReferringPhysicianName), "Li^Na")
        self.assertEqual(d.StudyDescription, "US ABDOMEN")
        request = d.RequestAttributesSequence[0]
        self.assertEqual((request.RequestedProcedureID, request.ScheduledProcedureStepID), ("RP0001", "SPS0001"))
        self.assertEqual(request.ScheduledProcedureStepDescription, "Abdominal ultrasound")
        self.assertEqual(request.StudyInstanceUID, STUDY_UID)
        self.assertEqual(request.AccessionNumber, "ACC0001")

    def test_bad_worklist_file_is_named(self):
        uff = os.path.join(self.work, "missing.uff")
        bad = os.path.join(self.work, "bad.json")
        with open(bad, "w") as f:
            f.write("[]")
        rec = subprocess.run([CLI, "stream", "--in-process", "--frames", "1", "--rate", "0", "--channels", "64", "--samples", "1024",
                              "--slot-bytes", "65536", "--slots", "64", "--record", uff], capture_output=True, text=True, timeout=120)
        self.assertEqual(rec.returncode, 0, rec.stderr)
        proc = subprocess.run([CLI, "beamform", uff, "--x-range", "-9:9:46", "--z-range", "5:19:71", "--output-dir", self.work,
                               "--dicom", os.path.join(self.work, "x.dcm"), "--worklist", bad], capture_output=True, text=True, timeout=120)
        self.assertEqual(proc.returncode, 1)
        self.assertIn(f"{bad} holds 0 items; there is no item 0", proc.stderr)


if __name__ == "__main__":
    unittest.main()
