#!/usr/bin/env python3
"""Kept settings the station cannot use do not lock the console out: with a station AE title in
QSettings that the configuration loader refuses (a backslash), the real console (offscreen,
its own settings folder) still starts on the shipped configuration and streams (its probe's
report), says on stderr that the kept settings were not used and why, and leaves them in place
for Settings… to correct. Usage: kept_settings_test.py SONOLINK_BINARY"""
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import unittest

BINARY = sys.argv.pop(1) if len(sys.argv) > 1 else os.environ.get("SONOLINK", "")
CONFIG = pathlib.Path(__file__).resolve().parents[2] / "resources" / "config" / "sonolink.json"


class KeptSettingsTest(unittest.TestCase):
    def test_unusable_kept_settings_do_not_lock_the_console_out(self):
        with tempfile.TemporaryDirectory() as home:
            kept = json.dumps({"station_ae_title": "BAD\\AE", "nodes": [], "selftest_at_connect": False, "selftest_mode": "quick"})
            conf = pathlib.Path(home) / "SonoLink" / "SonoLink.conf"
            conf.parent.mkdir()
            conf.write_text('[station]\nsettings="' + kept.replace("\\", "\\\\").replace('"', '\\"') + '"\n')
            before = conf.read_text()
            env = dict(os.environ, XDG_CONFIG_HOME=home, QT_QPA_PLATFORM="offscreen")
            run = subprocess.run([BINARY, "--config", str(CONFIG), "--probe-ui", "1", "--language", "en"], cwd=home, env=env,
                                 capture_output=True, text=True, timeout=120)
            self.assertEqual(run.returncode, 0, run.stderr[-3000:])
            self.assertIn("the kept settings were not used", run.stderr)
            self.assertIn("station_ae_title", run.stderr)
            report = json.loads([line for line in run.stdout.splitlines() if line.startswith("{")][-1])
            self.assertGreater(report["frames_shown"], 0)
            self.assertEqual(conf.read_text(), before, "the kept settings are left for Settings… to correct")


if __name__ == "__main__":
    unittest.main()
