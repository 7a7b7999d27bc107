#!/usr/bin/env python3
"""The self-test's QA report as a PDF, checked with the tools a reader has: poppler's pdftotext
reads back every step, its verdict and the report's hash, and the station's Chinese name;
pdffonts shows the CJK font embedded; pdftoppm renders the first page (ink on it, the page A4).
A failing run's PDF says FAIL and names the step. Then the PDF as Encapsulated PDF
(sonolink-cli dicom export --pdf): dciodvfy finds no error, dcm2pdf gives the same bytes back,
and the store-and-forward queue delivers it to Orthanc on loopback (stopped by PID). The steps a
site configures (selftest.steps) are the ones that run, and the report and its PDF hold only them.
Run by CTest with SONOLINK_CLI."""
import glob
import json
import os
import subprocess
import sys
import tempfile
import unittest

import pydicom

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from dicom_peers import Orthanc, free_port, sonolink_config  # noqa: E402

CLI = os.environ["SONOLINK_CLI"]
STATION = "超声科三号机"  # "ultrasound department, machine three": 6 characters, 18 bytes of UTF-8


def pgm_ink(path):
    """The fraction of a binary PGM's (P5, 8-bit) pixels darker than mid-grey, and its size."""
    with open(path, "rb") as f:
        data = f.read()
    fields, at = [], 0
    while len(fields) < 4:  # magic, width, height, maxval; comments skipped
        while data[at:at + 1].isspace():
            at += 1
        if data[at:at + 1] == b"#":
            at = data.index(b"\n", at) + 1
            continue
        end = at
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[at:end])
        at = end
    width, height = int(fields[1]), int(fields[2])
    pixels = data[at + 1:at + 1 + width * height]
    return sum(1 for p in pixels if p < 128) / len(pixels), width, height


class SelfTestReportPdfTest(unittest.TestCase):
    def setUp(self):
        self.work = tempfile.mkdtemp()
        self.config = sonolink_config(os.path.join(self.work, "sonolink.json"), [], station_name=STATION)

    def selftest(self, *extra):
        reports = os.path.join(self.work, "reports")
        proc = subprocess.run([CLI, "selftest", "--in-process", "--config", self.config, "--json", "--report", reports, *extra],
                              capture_output=True, text=True, timeout=180)
        out = json.loads(proc.stdout)
        with open(out["report"], encoding="utf-8") as f:
            report = json.load(f)
        return proc, report, out["report"][:-len(".json")] + ".pdf"

    def pdftotext(self, pdf, mode="-raw"):
        """The PDF's text; -raw keeps the order Qt drew it in, so a table cell's lines stay together."""
        return subprocess.run(["pdftotext", mode, pdf, "-"], capture_output=True, text=True, check=True).stdout

    def test_the_pdf_carries_every_step_the_station_in_chinese_and_the_hash(self):
        proc, report, pdf = self.selftest()
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(report["station"], STATION)
        text = self.pdftotext(pdf)
        self.assertIn(STATION, text)
        flat = "".join(text.split())  # a narrow column wraps a name over lines
        for step in report["steps"]:
            self.assertIn("".join(step["step"].split()), flat, f"step {step['step']} is in the PDF")
            self.assertIn("".join(step["verdict"].split()), flat)
        self.assertGreaterEqual(len(report["steps"]), 5, report["steps"])
        self.assertIn(report["sha256"], flat)
        self.assertIn("firmware", text, "no ligature hides a word from a search")
        self.assertIn(report["operator"], text)
        self.assertIn("Signature", text)
        self.assertIn("Not signed", text)
        fonts = subprocess.run(["pdffonts", pdf], capture_output=True, text=True, check=True).stdout
        cjk = [line for line in fonts.splitlines() if "WenQuanYi" in line or "CJK" in line or "UMing" in line]
        self.assertTrue(cjk, fonts)
        self.assertTrue(all(" yes " in line for line in cjk), f"the CJK font is embedded: {fonts}")
        prefix = os.path.join(self.work, "page")
        subprocess.run(["pdftoppm", "-r", "30", "-gray", "-f", "1", "-l", "1", pdf, prefix], check=True, capture_output=True)
        page, = glob.glob(prefix + "*.pgm")
        ink, width, height = pgm_ink(page)
        self.assertAlmostEqual(height / width, 297 / 210, delta=0.02, msg="an A4 page")
        self.assertGreater(ink, 0.005, "the first page has text on it")
        self.assertLess(ink, 0.5, "and is not black")

    def test_the_configured_steps_run_and_only_they(self):
        with open(self.config, encoding="utf-8") as f:
            config = json.load(f)
        config["selftest"] = {"steps": ["station: memlock limit", "link BER"]}
        with open(self.config, "w", encoding="utf-8") as f:
            json.dump(config, f)
        proc, report, pdf = self.selftest()
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual([s["step"] for s in report["steps"]], ["station: memlock limit", "link BER"])
        self.assertNotIn("element check", self.pdftotext(pdf))

    def test_a_failing_run_says_fail_and_names_the_step(self):
        self.config = sonolink_config(os.path.join(self.work, "down.json"), [{"name": "down", "ae_title": "DOWN", "port": free_port()}],
                                      station_name=STATION)  # nothing listens there
        proc, report, pdf = self.selftest("--step", "PACS")
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertEqual(report["verdict"], "fail")
        text = self.pdftotext(pdf)
        self.assertIn("fail", text)
        self.assertIn("PACS", text)
        self.assertIn("down", text)

    def test_the_pdf_goes_to_pacs_as_encapsulated_pdf(self):
        proc, report, pdf = self.selftest("--step", "station")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        orthanc = Orthanc(self.work)
        try:
            config = sonolink_config(os.path.join(self.work, "pacs.json"), [{"name": "pacs", "ae_title": "ORTHANC", "port": orthanc.dicom_port}],
                                     queue_dir=os.path.join(self.work, "queue"), station_name=STATION)
            out = os.path.join(self.work, "out")
            export = subprocess.run([CLI, "dicom", "export", "--pdf", pdf, "--title", "QA self-test", "--patient-name", "QA^Phantom",
                                     "--patient-id", "QA-1", "--output-dir", out, "--config", config, "--queue-to", "pacs", "--json"],
                                    capture_output=True, text=True, timeout=60)
            self.assertEqual(export.returncode, 0, export.stderr)
            dcm, = [r["output"] for r in json.loads(export.stdout)]
            check = subprocess.run(["dciodvfy", dcm], capture_output=True, text=True)
            errors = [line for line in (check.stdout + check.stderr).splitlines() if line.startswith("Error")]
            self.assertEqual(errors, [], check.stdout + check.stderr)
            back = os.path.join(self.work, "back.pdf")
            subprocess.run(["dcm2pdf", dcm, back], check=True, capture_output=True)
            with open(back, "rb") as a, open(pdf, "rb") as b:
                self.assertEqual(a.read(), b.read())
            self.assertEqual(pydicom.dcmread(dcm).MIMETypeOfEncapsulatedDocument, "application/pdf")
            run = subprocess.run([CLI, "dicom", "queue", "run", "--config", config, "--until-settled", "--timeout", "60"],
                                 capture_output=True, text=True, timeout=120)
            self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
            self.assertEqual(orthanc.instance_uids(), [pydicom.dcmread(dcm).SOPInstanceUID])
        finally:
            orthanc.stop()


if __name__ == "__main__":
    unittest.main()
