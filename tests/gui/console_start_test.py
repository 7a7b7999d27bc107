#!/usr/bin/env python3
"""How the console starts (issue 39), the real `sonolink`: bare, with no --config and no
/etc/sonolink, it runs on the configuration this build ships (the start-up self-test, the PACS
nodes) and makes the folders it names (recordings, QA reports, the DICOM queue) 0700 where
missing; a second console on the same station is refused, and under a display (Xvfb, xcb) says
so in a dialog that waits for the user, not on stderr alone; a recording that cannot be
reviewed is refused in a dialog the same way.
Usage: console_start_test.py SONOLINK_BINARY SONOLINK_CLI"""
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

CLI = sys.argv.pop(2) if len(sys.argv) > 2 else os.environ.get("SONOLINK_CLI", "")
BINARY = sys.argv.pop(1) if len(sys.argv) > 1 else os.environ.get("SONOLINK", "")
SHIPPED = pathlib.Path(__file__).resolve().parents[2] / "resources" / "config" / "sonolink.json"


def wait_for_text(path, text, proc, timeout=60):
    """Waits until the file (a process's stderr) holds text, or the process ends; whether it does."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if text in pathlib.Path(path).read_text(errors="replace"):
            return True
        if proc.poll() is not None:
            return text in pathlib.Path(path).read_text(errors="replace")
        time.sleep(0.05)
    return False


class ConsoleStartTest(unittest.TestCase):
    def setUp(self):
        self.home = tempfile.mkdtemp()
        self.env = {k: v for k, v in os.environ.items() if k not in ("SONOLINK_CONFIG", "DISPLAY", "WAYLAND_DISPLAY")}
        self.env.update(HOME=self.home, XDG_CONFIG_HOME=self.home, XDG_RUNTIME_DIR=self.home, QT_QPA_PLATFORM="offscreen")
        self.procs = []

    def tearDown(self):
        for p in self.procs:
            if p.poll() is None:
                p.kill()
                p.wait(timeout=30)
        shutil.rmtree(self.home, ignore_errors=True)

    def start(self, *args, env=None, name="console"):
        err = os.path.join(self.home, f"{name}.err")
        proc = subprocess.Popen([BINARY, "--language", "en", *args], cwd=self.home, env=env or self.env,
                                stdout=subprocess.DEVNULL, stderr=open(err, "w"))
        self.procs.append(proc)
        return proc, err

    def test_bare_sonolink_runs_on_the_shipped_configuration_and_makes_its_folders(self):
        if os.path.exists("/etc/sonolink/sonolink.json"):
            self.skipTest("this station has the package's configuration, which comes first")
        proc, err = self.start("--probe-ui", "1")
        self.assertEqual(proc.wait(timeout=120), 0, pathlib.Path(err).read_text()[-3000:])
        text = pathlib.Path(err).read_text()
        self.assertIn(f"configuration: {SHIPPED}", text)
        self.assertIn("start-up self-test", text)  # the shipped configuration runs it at connect
        for folder in ("recordings", "qa-reports", "dicom-queue"):  # as the shipped file names them
            path = os.path.join(self.home, folder)
            self.assertTrue(os.path.isdir(path), folder)
            self.assertEqual(os.stat(path).st_mode & 0o777, 0o700, folder)

    def xvfb(self):
        if not shutil.which("Xvfb"):
            self.skipTest("needs Xvfb")
        read, write = os.pipe()
        log = os.path.join(self.home, "xvfb.err")
        server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                                  pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=open(log, "w"))
        os.close(write)
        self.procs.append(server)
        with os.fdopen(read) as f:
            display = f.readline().strip()
        self.assertTrue(display, "Xvfb gave no display: " + pathlib.Path(log).read_text()[-2000:])
        env = dict(self.env, DISPLAY=f":{display}", QT_QPA_PLATFORM="xcb")
        # The server answers a client before the console is started (under load the console once met no display).
        deadline = time.monotonic() + 30
        while subprocess.run(["xwininfo", "-root"], env=env, capture_output=True).returncode != 0:
            self.assertIsNone(server.poll(), "Xvfb exited: " + pathlib.Path(log).read_text()[-2000:])
            self.assertLess(time.monotonic(), deadline, f"Xvfb on :{display} does not answer")
            time.sleep(0.1)
        return env

    def dialog_shown(self, env, title, timeout=30):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            tree = subprocess.run(["xwininfo", "-root", "-tree"], env=env, capture_output=True, text=True).stdout
            if f'"{title}"' in tree:
                return True
            time.sleep(0.1)
        return False

    def test_a_second_console_is_refused_in_a_dialog(self):
        env = self.xvfb()
        first, first_err = self.start("--config", str(SHIPPED), env=env, name="first")
        self.assertTrue(wait_for_text(first_err, "connecting", first), pathlib.Path(first_err).read_text()[-2000:])
        second, second_err = self.start("--config", str(SHIPPED), env=env, name="second")
        self.assertTrue(wait_for_text(second_err, "SonoLink is already running on this station", second),
                        pathlib.Path(second_err).read_text()[-2000:])
        self.assertIn(f"(process {first.pid})", pathlib.Path(second_err).read_text())
        self.assertTrue(self.dialog_shown(env, "SonoLink cannot start"), "no dialog")
        self.assertIsNone(second.poll(), "it waits for the user to read the dialog")
        second.send_signal(signal.SIGTERM)
        second.wait(timeout=30)
        self.assertIsNone(first.poll(), "the first console runs on")

    def test_a_recording_that_cannot_be_reviewed_is_refused_in_a_dialog(self):
        env = self.xvfb()
        foreign = os.path.join(self.home, "notes.uff")
        with open(foreign, "w") as f:
            f.write("not a recording\n")
        proc, err = self.start("--config", str(SHIPPED), "--replay", foreign, env=env, name="review")
        self.assertTrue(self.dialog_shown(env, "SonoLink cannot start"), pathlib.Path(err).read_text()[-2000:])
        self.assertIn(foreign, pathlib.Path(err).read_text())
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)


if __name__ == "__main__":
    unittest.main()
