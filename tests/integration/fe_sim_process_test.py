#!/usr/bin/env python3
"""sonolink-fe-sim and sonolink-cli stream as two processes over a shared-memory link:
a normal run, the front end killed mid-stream (the host says so, waits, and resumes when the
front end restarts), and the host killed mid-stream (the front end says so and streams to
the next host). Every process started here is stopped by its PID.
Run by CTest with SONOLINK_CLI and SONOLINK_FE_SIM set."""
import json
import os
import signal
import subprocess
import tempfile
import time
import unittest

CLI = os.environ["SONOLINK_CLI"]
FE_SIM = os.environ["SONOLINK_FE_SIM"]
SMALL = ["--channels", "64", "--samples", "1024", "--slot-bytes", "65536", "--slots", "64"]


def link_name(tag):
    return f"sonolink-test-{tag}-{os.getpid()}"


class Processes:
    """Starts processes and makes sure every one is gone at the end."""

    def __init__(self):
        self.procs = []

    def start(self, args, stderr_file=None):
        proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=stderr_file or subprocess.PIPE, text=True)
        self.procs.append(proc)
        return proc

    def stop_all(self):
        for proc in self.procs:
            if proc.poll() is None:
                proc.kill()
            proc.communicate(timeout=10)


def wait_for(predicate, timeout, what):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


class FeSimProcessTest(unittest.TestCase):
    def setUp(self):
        self.p = Processes()

    def tearDown(self):
        self.p.stop_all()

    def test_streams_between_two_processes(self):
        name = link_name("plain")
        host = self.p.start([CLI, "stream", "--link-name", name, "--frames", "150", "--rate", "300", "--json", *SMALL])
        fe = self.p.start([FE_SIM, "--link-name", name])
        out, err = host.communicate(timeout=60)
        self.assertEqual(host.returncode, 0, err)
        summary = json.loads(out)
        self.assertEqual(summary["frames_delivered"], 150)
        self.assertEqual(summary["payload_crc_errors"] + summary["sequence_gaps"] + summary["frames_missing"], 0)
        fe_out, fe_err = fe.communicate(timeout=20)
        self.assertEqual(fe.returncode, 0, fe_err)
        self.assertIn("150 frames acquired", fe_err)
        self.assertFalse(os.path.exists(f"/dev/shm/{name}"), "the host left its shared memory behind")

    def test_front_end_killed_and_restarted(self):
        name = link_name("fekill")
        host = self.p.start([CLI, "stream", "--link-name", name, "--frames", "600", "--rate", "200", "--reconnect", "--json", *SMALL])
        with tempfile.NamedTemporaryFile("w+", suffix=".log") as fe_log:
            fe = self.p.start([FE_SIM, "--link-name", name], stderr_file=fe_log)
            # Kill it mid-stream: once it has configured and streamed for a moment.
            def configured():
                log = fe_log.read()
                fe_log.seek(0)
                self.assertIsNone(fe.poll(), f"the front end exited before configuring: {log}")
                return "configured:" in log
            wait_for(configured, 60, "the front end to configure")
            time.sleep(0.5)
            self.assertIsNone(host.poll(), "host ended early")
            fe_pid = fe.pid
            fe.send_signal(signal.SIGKILL)
            fe.wait(timeout=10)
        time.sleep(0.5)
        fe2 = self.p.start([FE_SIM, "--link-name", name])
        out, err = host.communicate(timeout=90)
        self.assertEqual(host.returncode, 0, err)
        self.assertIn(f"link lost: Unavailable: the front end process (pid {fe_pid}) is gone", err)
        self.assertIn("waiting for the front end to reconnect", err)
        summary = json.loads(out)
        self.assertEqual(summary["sessions"], 2)
        self.assertTrue(summary["ok"])
        self.assertGreaterEqual(summary["frames_delivered"], 500)
        fe2.communicate(timeout=20)
        self.assertEqual(fe2.returncode, 0)

    def test_host_killed_and_restarted(self):
        name = link_name("hostkill")
        host = self.p.start([CLI, "stream", "--link-name", name, "--frames", "0", "--rate", "200", *SMALL])
        fe = self.p.start([FE_SIM, "--link-name", name, "--reconnect"])
        time.sleep(1.0)
        self.assertIsNone(host.poll(), "host ended early")
        host_pid = host.pid
        host.send_signal(signal.SIGKILL)
        host.communicate(timeout=10)
        host2 = self.p.start([CLI, "stream", "--link-name", name, "--frames", "100", "--rate", "200", "--json", *SMALL])
        out, err = host2.communicate(timeout=60)
        self.assertEqual(host2.returncode, 0, err)
        self.assertEqual(json.loads(out)["frames_delivered"], 100)
        fe.send_signal(signal.SIGTERM)
        _, fe_err = fe.communicate(timeout=20)
        self.assertRegex(fe_err, rf"the host (process \(pid {host_pid}\) is gone|\(pid {host_pid}\) sent no heartbeat)")
        self.assertIn("waiting for the next host", fe_err)
        self.assertEqual(fe_err.count("attached to"), 2)


if __name__ == "__main__":
    unittest.main()
