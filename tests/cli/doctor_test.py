#!/usr/bin/env python3
"""sonolink-cli doctor on this station, each check it can set up here with its condition present
and absent: the configuration (valid, and a bad value named by its key), the PACS nodes (dcmtk's
storescp started on loopback and stopped by its PID, then the same port closed), a data folder
(writable, and one under a regular file), the display (none: a warning; a socket this test
listens on: pass; a socket nobody listens on: fail), the Qt platform plugin (Qt's, and a folder
without it), fonts for Chinese (the system's, and a fontconfig with no fonts) and the memlock
limit (without CAP_IPC_LOCK under a 64 KiB limit: a warning for the simulated link, a failure
for a verbs link). Exit codes: 0 with warnings only, 1 with a failure. Run by CTest with
SONOLINK_CLI set."""
import json
import os
import socket
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from dicom_peers import free_port, stop, wait_for_port  # noqa: E402

CLI = os.environ["SONOLINK_CLI"]


class DoctorTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SONOLINK_CONFIG")}

    def tearDown(self):
        self.dir.cleanup()

    def config(self, nodes=(), **sections):
        path = os.path.join(self.dir.name, "station.json")
        doc = {"recording": {"directory": os.path.join(self.dir.name, "recordings")},
               "selftest": {"report_directory": os.path.join(self.dir.name, "qa")},
               "dicom": {"queue_directory": os.path.join(self.dir.name, "queue"),
                         "audit_file": os.path.join(self.dir.name, "audit.log"),
                         "nodes": [{"name": f"node{i}", "ae_title": "STORESCP", "host": "127.0.0.1", "port": p}
                                   for i, p in enumerate(nodes)]}}
        for key, value in sections.items():
            doc.setdefault(key, {}).update(value)
        with open(path, "w") as f:
            json.dump(doc, f)
        return path

    def doctor(self, *args, env=None, prefix=()):
        proc = subprocess.run([*prefix, CLI, "doctor", "--json", "--pacs-timeout", "3", *args], capture_output=True, text=True,
                              timeout=120, env=env or self.env)
        self.assertIn(proc.returncode, (0, 1), proc.stderr)
        out = json.loads(proc.stdout)
        self.assertEqual(proc.returncode, 1 if out["failed"] else 0)
        return proc.returncode, {c["check"]: c for c in out["checks"]}

    def test_configuration_valid_and_invalid(self):
        rc, checks = self.doctor("--config", self.config(), "--no-pacs")
        self.assertEqual(checks["configuration"]["verdict"], "pass")
        bad = self.config(link={"slot_count": -4})
        rc, checks = self.doctor("--config", bad, "--no-pacs")
        self.assertEqual(rc, 1)
        self.assertEqual(checks["configuration"]["verdict"], "fail")
        self.assertIn("/link/slot_count", checks["configuration"]["figures"])
        self.assertIn(f"sonolink-cli config check {bad}", checks["configuration"]["fix"])

    def test_pacs_answering_and_not(self):
        port = free_port()
        scp = subprocess.Popen(["storescp", "-aet", "STORESCP", "-od", self.dir.name, str(port)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_for_port(port, process=scp)
            rc, checks = self.doctor("--config", self.config(nodes=[port]))
            self.assertEqual(checks["PACS nodes"]["verdict"], "pass", checks["PACS nodes"])
            self.assertIn("1 of 1 answered", checks["PACS nodes"]["figures"])
        finally:
            stop(scp)
        rc, checks = self.doctor("--config", self.config(nodes=[port]))
        self.assertEqual(rc, 1)
        self.assertEqual(checks["PACS nodes"]["verdict"], "fail")
        self.assertIn("nothing listening", checks["PACS nodes"]["figures"])
        rc, checks = self.doctor("--config", self.config())
        self.assertEqual(checks["PACS nodes"]["verdict"], "warn")  # no node: studies cannot leave

    def test_a_folder_writable_and_not(self):
        rc, checks = self.doctor("--config", self.config(), "--no-pacs")
        self.assertEqual(checks["writable folder (recordings)"]["verdict"], "pass")
        blocker = os.path.join(self.dir.name, "a-file")
        open(blocker, "w").close()
        rc, checks = self.doctor("--config", self.config(recording={"directory": os.path.join(blocker, "recordings")}), "--no-pacs")
        self.assertNotEqual(checks["writable folder (recordings)"]["verdict"], "pass", checks["writable folder (recordings)"])
        self.assertIn("a-file", checks["writable folder (recordings)"]["figures"])

    def test_display_none_answering_and_silent(self):
        config = self.config()
        rc, checks = self.doctor("--config", config, "--no-pacs")
        self.assertEqual(checks["display"]["verdict"], "warn")
        self.assertIn("xvfb-run", checks["display"]["fix"])
        number = 600 + os.getpid() % 300
        os.makedirs("/tmp/.X11-unix", exist_ok=True)
        path = f"/tmp/.X11-unix/X{number}"
        if os.path.exists(path):
            os.unlink(path)
        env = dict(self.env, DISPLAY=f":{number}")
        rc, checks = self.doctor("--config", config, "--no-pacs", env=env)
        self.assertEqual(checks["display"]["verdict"], "fail")
        self.assertEqual(rc, 1)
        with socket.socket(socket.AF_UNIX) as server:
            server.bind(path)
            server.listen(4)
            try:
                rc, checks = self.doctor("--config", config, "--no-pacs", env=env)
            finally:
                os.unlink(path)
        self.assertEqual(checks["display"]["verdict"], "pass", checks["display"])

    def test_qt_plugin_present_and_missing(self):
        config = self.config()
        rc, checks = self.doctor("--config", config, "--no-pacs")
        self.assertEqual(checks["Qt platform plugin"]["verdict"], "pass", checks["Qt platform plugin"])
        env = dict(self.env, QT_QPA_PLATFORM_PLUGIN_PATH=self.dir.name)
        rc, checks = self.doctor("--config", config, "--no-pacs", env=env)
        self.assertEqual(checks["Qt platform plugin"]["verdict"], "fail")
        self.assertIn("libqt6gui6", checks["Qt platform plugin"]["fix"])

    def test_chinese_fonts_present_and_missing(self):
        config = self.config()
        rc, checks = self.doctor("--config", config, "--no-pacs")
        self.assertEqual(checks["fonts for Chinese"]["verdict"], "pass", checks["fonts for Chinese"])
        fonts = os.path.join(self.dir.name, "fonts.conf")
        with open(fonts, "w") as f:
            f.write(f'<?xml version="1.0"?><fontconfig><dir>{self.dir.name}/nofonts</dir>'
                    f'<cachedir>{self.dir.name}/cache</cachedir></fontconfig>')
        rc, checks = self.doctor("--config", config, "--no-pacs", env=dict(self.env, FONTCONFIG_FILE=fonts))
        self.assertEqual(checks["fonts for Chinese"]["verdict"], "warn")
        self.assertIn("fonts-noto-cjk", checks["fonts for Chinese"]["fix"])

    def test_memlock_enough_and_not(self):
        rc, checks = self.doctor("--config", self.config(), "--no-pacs")
        self.assertEqual(checks["memlock limit"]["verdict"], "pass", checks["memlock limit"])
        if os.geteuid() != 0:
            self.skipTest("dropping CAP_IPC_LOCK and lowering the limit needs root here")
        low = ["setpriv", "--bounding-set=-ipc_lock", "--inh-caps=-ipc_lock", "prlimit", "--memlock=65536:65536"]
        rc, checks = self.doctor("--config", self.config(), "--no-pacs", prefix=low)
        self.assertEqual(checks["memlock limit"]["verdict"], "warn", checks["memlock limit"])  # a simulated link's ring is not locked
        rc, checks = self.doctor("--config", self.config(link={"backend": "verbs", "address": "127.0.0.1"}), "--no-pacs", prefix=low)
        self.assertEqual(rc, 1)
        self.assertEqual(checks["memlock limit"]["verdict"], "fail", checks["memlock limit"])
        self.assertIn("sudo adduser $USER sonolink", checks["memlock limit"]["fix"])
        self.assertEqual(checks["RDMA device and permissions"]["verdict"], "fail")  # a verbs link and no RDMA device here


if __name__ == "__main__":
    unittest.main()
