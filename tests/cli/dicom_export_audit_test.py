#!/usr/bin/env python3
"""sonolink-cli dicom export and the audit trail. Export: objects copied, de-identified (no name,
ID or dates left; the study stays one study; pixels untouched) and re-encoded
losslessly (RLE, pixels equal; dciodvfy finds no error or warning the input did not have); a PDF report as Encapsulated PDF and an RF snippet as Raw Data
(dcm2pdf gives the PDF back; the samples equal the recording's), queued straight for a PACS
node. Audit: transfers to Orthanc (110104, one message per patient, outcome 0, also to a
syslog collector over UDP), a PACS that is down (outcome 4 with the reason), exports (110106)
and worklist queries (110112) are recorded as DICOM audit XML, while the ordinary log of the
same runs names no patient. Peers on loopback, stopped by PID. Run by CTest with SONOLINK_CLI."""
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import unittest
import xml.etree.ElementTree as ET

import h5py
import numpy as np
import pydicom

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from dicom_peers import Orthanc, Wlmscpfs, free_ports, sonolink_config, us_file  # noqa: E402

CLI = os.environ["SONOLINK_CLI"]
PDF = (b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n"
       b"trailer<</Root 1 0 R>>\n%%EOF\n")


def dciodvfy_findings(path):
    """dciodvfy's errors and warnings on path."""
    check = subprocess.run(["dciodvfy", path], capture_output=True, text=True)
    return {line for line in (check.stdout + check.stderr).splitlines() if line.startswith(("Error", "Warning"))}


def audit_messages(path):
    with open(path, encoding="utf-8") as f:
        return [ET.fromstring(line.encode()) for line in f if line.strip()]


def event_id(message):
    return message.find("EventIdentification/EventID").get("csd-code")


def outcome(message):
    return message.find("EventIdentification").get("EventOutcomeIndicator")


def patients(message):
    return [(p.get("ParticipantObjectID"), p.findtext("ParticipantObjectName"))
            for p in message.findall("ParticipantObjectIdentification") if p.get("ParticipantObjectTypeCode") == "1"]


class ExportAuditTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.work = self.dir.name

    def tearDown(self):
        self.dir.cleanup()

    def run_cli(self, *args, env=None):
        return subprocess.run([CLI, "dicom", *args], capture_output=True, text=True, timeout=120,
                              env={**os.environ, **(env or {})})

    def exam(self):
        """Two images of one study (Chinese name), one image of another patient."""
        paths = []
        for i, name in enumerate(("Wang^Xiaoming=王^小明", "Wang^Xiaoming=王^小明", "Smith^Jane")):
            path = os.path.join(self.work, f"in{i}.dcm")
            us_file(path, patient_name=name, seed=i)
            paths.append(path)
        first = pydicom.dcmread(paths[0])
        second = pydicom.dcmread(paths[1])
        second.StudyInstanceUID, second.PatientID = first.StudyInstanceUID, first.PatientID
        second.save_as(paths[1])
        third = pydicom.dcmread(paths[2])
        third.PatientID = "SMITH-9"
        third.save_as(paths[2])
        return paths

    def test_an_export_cannot_be_steered_outside_its_folder_and_is_private(self):
        """The reported bugs: the output was named after the input's SOP Instance UID unchecked,
        so '../../escape' wrote outside the folder (over a file there); exports naming patients
        were 0644. A UID that is no UID is refused and nothing is written anywhere; an export
        never replaces a file; its folders are 0700 and its objects 0600 whatever the umask."""
        out = os.path.join(self.work, "a", "b", "out")
        victim = os.path.join(self.work, "a", "escape.dcm")
        os.makedirs(os.path.dirname(victim))
        with open(victim, "w") as f:
            f.write("somebody's file")
        hostile = os.path.join(self.work, "hostile.dcm")
        us_file(hostile)
        ds = pydicom.dcmread(hostile)
        ds.SOPInstanceUID = "../../escape"
        ds.file_meta.MediaStorageSOPInstanceUID = "../../escape"
        ds.save_as(hostile)
        proc = self.run_cli("export", hostile, "--output-dir", out)
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertIn("../../escape", proc.stderr)
        with open(victim) as f:
            self.assertEqual(f.read(), "somebody's file")
        self.assertFalse(any(name.endswith(".dcm") for _, _, files in os.walk(out) for name in files), "nothing exported")
        good = os.path.join(self.work, "good.dcm")
        uid = us_file(good)
        old = os.umask(0o022)
        try:
            proc = self.run_cli("export", good, "--output-dir", out, "--json")
        finally:
            os.umask(old)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        exported = os.path.join(out, f"{uid}.dcm")
        self.assertEqual(os.stat(exported).st_mode & 0o777, 0o600)
        self.assertEqual(os.stat(out).st_mode & 0o777, 0o700)
        self.assertEqual(self.run_cli("export", good, "--output-dir", out).returncode, 0, "the same object again: no conflict")
        with open(exported, "wb") as f:
            f.write(b"another object under that name")
        again = self.run_cli("export", good, "--output-dir", out)
        self.assertEqual(again.returncode, 1, again.stdout + again.stderr)
        self.assertIn("exists already with other content", again.stderr)
        with open(exported, "rb") as f:
            self.assertEqual(f.read(), b"another object under that name", "never replaced")

    @unittest.skipUnless(os.geteuid() == 0 and shutil.which("unshare"), "needs root and unshare for a small disk of its own")
    def test_an_export_onto_a_full_disk_leaves_nothing_cut_and_says_so(self):
        """The reported bug: on a full disk a cut DICOM lay under its final name, reported as
        "Input/output error". On a 1 MiB tmpfs (a mount namespace of the test's own): exit 1,
        "the disk is full", and no object and no temporary left in the folder."""
        big = os.path.join(self.work, "cine.dcm")
        us_file(big, frames=40, rows=256, columns=256)
        disk = os.path.join(self.work, "disk")
        os.makedirs(disk)
        listing = os.path.join(self.work, "listing")
        script = (f"mount -t tmpfs -o size=1m sonolink-test {disk} && {CLI} dicom export {big} --output-dir {disk}/out; "
                  f"echo $? > {self.work}/rc; find {disk} -type f > {listing}")
        proc = subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c", script],
                              capture_output=True, text=True, timeout=120)
        with open(os.path.join(self.work, "rc")) as f:
            self.assertEqual(int(f.read()), 1, proc.stdout + proc.stderr)
        self.assertIn("the disk is full", proc.stderr)
        with open(listing) as f:
            self.assertEqual(f.read().split(), [], "nothing cut left behind")

    def test_deidentified_and_compressed_export_is_audited(self):
        config = sonolink_config(os.path.join(self.work, "sonolink.json"), [])
        paths = self.exam()
        out = os.path.join(self.work, "usb")
        proc = self.run_cli("export", *paths, "--output-dir", out, "--deidentify", "--pseudonym", "ANON^7", "--compression", "rle",
                            "--config", config, "--json", env={"SONOLINK_DEID_KEY": "site secret"})
        self.assertEqual(proc.returncode, 0, proc.stderr)
        results = json.loads(proc.stdout)
        self.assertTrue(all(r["ok"] for r in results), results)
        exported = [pydicom.dcmread(r["output"]) for r in results]
        for original, d, r in zip(paths, exported, results):
            o = pydicom.dcmread(original)
            self.assertEqual(str(d.PatientName), "ANON^7")
            self.assertEqual(d.PatientIdentityRemoved, "YES")
            self.assertNotEqual(d.SOPInstanceUID, o.SOPInstanceUID)
            self.assertEqual(d.file_meta.TransferSyntaxUID, "1.2.840.10008.1.2.5")
            self.assertTrue((d.pixel_array == o.pixel_array).all())
            self.assertLessEqual(dciodvfy_findings(r["output"]), dciodvfy_findings(original),
                                 "export adds no error or warning")
        self.assertEqual(exported[0].StudyInstanceUID, exported[1].StudyInstanceUID)
        self.assertNotEqual(exported[0].StudyInstanceUID, exported[2].StudyInstanceUID)
        messages = audit_messages(os.path.join(self.work, "audit.log"))
        self.assertEqual([event_id(m) for m in messages], ["110106", "110106"], "one message per patient and study")
        self.assertEqual(sorted(p for m in messages for p in patients(m)),
                         sorted([(pydicom.dcmread(paths[0]).PatientID, "Wang^Xiaoming=王^小明"), ("SMITH-9", "Smith^Jane")]))
        self.assertTrue(all(outcome(m) == "0" for m in messages))
        self.assertIn(os.path.abspath(out), ET.tostring(messages[0], encoding="unicode"))
        refused = self.run_cli("export", paths[0], "--output-dir", out, "--deidentify", env={"SONOLINK_DEID_KEY": ""})
        self.assertEqual(refused.returncode, 2)
        self.assertIn("--deid-key", refused.stderr)

    def test_the_default_pseudonym_is_a_person_name_dciodvfy_accepts(self):
        paths = self.exam()
        out = os.path.join(self.work, "anonymous")
        proc = self.run_cli("export", paths[0], "--output-dir", out, "--deidentify", "--json", env={"SONOLINK_DEID_KEY": "site secret"})
        self.assertEqual(proc.returncode, 0, proc.stderr)
        result = json.loads(proc.stdout)[0]
        d = pydicom.dcmread(result["output"])
        self.assertEqual(str(d.PatientName), "ANONYMOUS^")
        self.assertEqual(d.PatientID, "ANONYMOUS")
        findings = subprocess.run(["dciodvfy", result["output"]], capture_output=True, text=True).stderr
        self.assertNotIn("Retired Person Name form", findings)
        self.assertLessEqual(dciodvfy_findings(result["output"]), dciodvfy_findings(paths[0]), "export adds no error or warning")
        refused = self.run_cli("export", paths[0], "--output-dir", out, "--deidentify", "--pseudonym", "A^B^C^D^E^F",
                               env={"SONOLINK_DEID_KEY": "site secret"})
        self.assertEqual(refused.returncode, 1)
        self.assertIn("is no valid person name", refused.stderr)

    def test_report_and_rf_snippet_are_exported_and_queued(self):
        uff = os.path.join(self.work, "rec.uff")
        rec = subprocess.run([CLI, "stream", "--in-process", "--frames", "2", "--rate", "0", "--channels", "64", "--samples", "1024",
                              "--slot-bytes", "65536", "--slots", "64", "--record", uff], capture_output=True, text=True, timeout=120)
        self.assertEqual(rec.returncode, 0, rec.stderr)
        pdf = os.path.join(self.work, "qa.pdf")
        with open(pdf, "wb") as f:
            f.write(PDF)
        orthanc = Orthanc(self.work)
        try:
            config = sonolink_config(os.path.join(self.work, "sonolink.json"),
                                     [{"name": "pacs", "ae_title": "ORTHANC", "port": orthanc.dicom_port}],
                                     queue_dir=os.path.join(self.work, "queue"), device_serial_number="SL-2026-0042")
            out = os.path.join(self.work, "out")
            proc = self.run_cli("export", "--pdf", pdf, "--title", "Link self-test", "--raw", uff, "--raw-frames", "1",
                                "--patient-name", "QA^Phantom", "--patient-id", "QA-1", "--output-dir", out, "--config", config,
                                "--queue-to", "pacs", "--json")
            self.assertEqual(proc.returncode, 0, proc.stderr)
            files = [r["output"] for r in json.loads(proc.stdout)]
            kinds = {pydicom.dcmread(f).SOPClassUID: f for f in files}
            self.assertEqual({pydicom.dcmread(f).DeviceSerialNumber for f in files}, {"SL-2026-0042"})
            report, raw = kinds["1.2.840.10008.5.1.4.1.1.104.1"], kinds["1.2.840.10008.5.1.4.1.1.66"]
            back = os.path.join(self.work, "back.pdf")
            subprocess.run(["dcm2pdf", report, back], check=True, capture_output=True)
            with open(back, "rb") as f:
                self.assertEqual(f.read(), PDF)
            block = pydicom.dcmread(raw).private_block(0x0009, "SONOLINK RF 1")
            with h5py.File(uff) as h:
                first_frame = np.asarray(h["/channel_data/data"][0]).astype("<i2").tobytes()
            self.assertEqual(block[0x10].value[:len(first_frame)], first_frame)
            self.assertIn("1 frames x", block[0x11].value)
            self.assertEqual(self.run_cli("queue", "run", "--config", config, "--until-settled", "--timeout", "60").returncode, 0)
            self.assertEqual(sorted(orthanc.instance_uids()), sorted(pydicom.dcmread(f).SOPInstanceUID for f in files))
        finally:
            orthanc.stop()

    def test_transfers_failures_and_queries_are_audited_and_logs_name_no_patient(self):
        syslog = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        syslog.bind(("127.0.0.1", 0))
        syslog.settimeout(0.2)
        received = []
        stop = threading.Event()

        def collect():
            while not stop.is_set():
                try:
                    received.append(syslog.recv(65536).decode())
                except socket.timeout:
                    pass

        collector = threading.Thread(target=collect)
        collector.start()
        orthanc = Orthanc(self.work)
        wl_port, down_port = free_ports(2)  # distinct: the worklist answers on one, nothing on the other
        worklist = Wlmscpfs(self.work, wl_port)
        try:
            config = sonolink_config(os.path.join(self.work, "sonolink.json"),
                                     [{"name": "pacs", "ae_title": "ORTHANC", "port": orthanc.dicom_port},
                                      {"name": "down", "ae_title": "DOWN", "port": down_port},
                                      {"name": "ris", "ae_title": "WLMSCP", "port": wl_port}],
                                     queue_dir=os.path.join(self.work, "queue"), retry_initial_s=0.2, retry_max_s=0.4,
                                     audit_syslog_host="127.0.0.1", audit_syslog_port=syslog.getsockname()[1])
            paths = self.exam()
            logs = ""
            for node in ("pacs", "down"):
                self.assertEqual(self.run_cli("queue", "add", "--config", config, "--node", node, *paths).returncode, 0)
            proc = self.run_cli("queue", "run", "--config", config, "--until-settled", "--timeout", "2")
            logs += proc.stdout + proc.stderr
            self.assertEqual(proc.returncode, 3, "items for the node that is down are still pending")
            proc = self.run_cli("worklist", "--config", config, "--node", "ris", "--date", "any")
            logs += proc.stderr
            self.assertEqual(proc.returncode, 0, proc.stderr)
            messages = audit_messages(os.path.join(self.work, "audit.log"))
            transferred = [m for m in messages if event_id(m) == "110104"]
            good = [m for m in transferred if outcome(m) == "0"]
            failed = [m for m in transferred if outcome(m) == "4"]
            self.assertEqual(len(good), 2, "one message per patient and study")
            self.assertTrue(all(len(patients(m)) == 1 for m in transferred))
            self.assertGreaterEqual(len(failed), 2)
            self.assertIn("Connection refused", failed[0].findtext("EventIdentification/EventOutcomeDescription"))
            study = pydicom.dcmread(paths[0]).StudyInstanceUID
            wang = [m for m in good if patients(m)[0][1] == "Wang^Xiaoming=王^小明"][0]
            study_object = [p for p in wang.findall("ParticipantObjectIdentification") if p.get("ParticipantObjectTypeCode") == "2"][0]
            self.assertEqual(study_object.get("ParticipantObjectID"), study)
            self.assertEqual(study_object.find("ParticipantObjectDescription/SOPClass").get("NumberOfInstances"), "2")
            queries = [m for m in messages if event_id(m) == "110112"]
            self.assertEqual(len(queries), 1)
            self.assertEqual(outcome(queries[0]), "0")
            stop.set()
            collector.join()
            self.assertTrue(any("IHE+RFC-3881" in r and r.startswith("<85>1 ") and "110104" in r for r in received), received[:1])
            for phi in ("Xiaoming", "王", "小明", "Smith", "SMITH-9", pydicom.dcmread(paths[0]).PatientID):
                self.assertNotIn(phi, logs, "ordinary logs name no patient")
        finally:
            stop.set()
            collector.join()
            syslog.close()
            worklist.stop()
            orthanc.stop()


if __name__ == "__main__":
    unittest.main()
