#!/usr/bin/env python3
"""The Chinese translation is complete and current: lupdate, run over every GUI source (the
console's lupdate project, as `update_translations` runs it) into a copy of
resources/translations/sonolink_zh_CN.ts, finds no string that the committed file lacks, and
every message there has a finished, non-empty translation. A tr() string added without its
translation fails it, named. Run by CTest with LUPDATE, LUPDATE_PROJECT_IN (the project's
.cmake description) and LUPDATE_PROJECT_SCRIPT (Qt's GenerateLUpdateProject.cmake)."""
import os
import pathlib
import shutil
import subprocess
import tempfile
import unittest
import xml.etree.ElementTree as ET

ROOT = pathlib.Path(__file__).resolve().parents[2]
TS = ROOT / "resources" / "translations" / "sonolink_zh_CN.ts"


def unfinished(path):
    out = []
    for context in ET.parse(path).getroot().iter("context"):
        name = context.findtext("name")
        for message in context.iter("message"):
            translation = message.find("translation")
            text = "".join(translation.itertext()).strip()
            if translation.get("type") in ("unfinished", "vanished", "obsolete") or not text:
                out.append(f"{name}: {message.findtext('source')!r}")
    return out


class TranslationsCurrentTest(unittest.TestCase):
    def test_the_committed_file_is_complete(self):
        self.assertEqual(unfinished(TS), [])

    def test_lupdate_finds_no_string_the_file_lacks(self):
        with tempfile.TemporaryDirectory() as work:
            project = pathlib.Path(work) / "project.json"
            subprocess.run(["cmake", f"-DIN_FILE={os.environ['LUPDATE_PROJECT_IN']}", f"-DOUT_FILE={project}", "-P",
                            os.environ["LUPDATE_PROJECT_SCRIPT"]], check=True, capture_output=True, text=True)
            copy = pathlib.Path(work) / "sonolink_zh_CN.ts"
            shutil.copy(TS, copy)
            run = subprocess.run([os.environ["LUPDATE"], "-project", str(project), "-no-obsolete", "-locations", "none", "-ts", str(copy)],
                                 capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
            self.assertIn("0 new", run.stdout, run.stdout)
            self.assertEqual(unfinished(copy), [], "run `cmake --build build/default --target update_translations`, then "
                                                    "resources/translations/fill_zh_CN.py")


if __name__ == "__main__":
    unittest.main()
