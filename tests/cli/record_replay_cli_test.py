#!/usr/bin/env python3
"""sonolink-cli stream --record and --replay end to end, paced at 200 frames/s (a recorder must keep
up with the acquisition rate; one that cannot stops loudly, see record_integration_test): a
recording made while streaming opens
in h5py with USTB's layout; replaying it (built-in front end, or sonolink-fe-sim --replay as
its own process) while recording again gives a bit-identical file. Run by CTest with
SONOLINK_CLI and SONOLINK_FE_SIM set."""
import json
import os
import subprocess
import tempfile
import unittest

import h5py
import numpy as np

CLI = os.environ["SONOLINK_CLI"]
FE_SIM = os.environ["SONOLINK_FE_SIM"]
GEOMETRY = ["--channels", "32", "--samples", "256", "--slot-bytes", "65536", "--slots", "64"]


def stream(*args):
    proc = subprocess.run([CLI, "stream", "--json", *args], capture_output=True, text=True, timeout=120)
    return proc.returncode, (json.loads(proc.stdout) if proc.stdout.strip() else {}), proc.stderr


class RecordReplayCliTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.dir.cleanup()

    def test_record_then_replay_is_bit_identical(self):
        first = os.path.join(self.dir.name, "first.uff")
        rc, out, err = stream("--in-process", "--frames", "20", "--rate", "200", "--record", first, *GEOMETRY)
        self.assertEqual(rc, 0, err)
        self.assertEqual(out["recording"]["frames_recorded"], 20)
        self.assertEqual(out["recording"]["frames_refused"], 0)
        with h5py.File(first, "r") as f:
            data = f["channel_data"]["data"][...]
            self.assertEqual(data.shape, (20, 3, 32, 256))
            self.assertEqual(data.dtype, np.int16)
            self.assertGreater(np.abs(data).max(), 100)  # echoes, not silence
        second = os.path.join(self.dir.name, "second.uff")
        rc, out, err = stream("--in-process", "--replay", first, "--frames", "20", "--rate", "200", "--record", second,
                              "--slot-bytes", "65536", "--slots", "64")
        self.assertEqual(rc, 0, err)
        with h5py.File(first, "r") as a, h5py.File(second, "r") as b:
            np.testing.assert_array_equal(a["channel_data"]["data"][...], b["channel_data"]["data"][...])

    def test_record_and_replay_subcommands_and_a_duration(self):
        recording = os.path.join(self.dir.name, "sub.uff")
        proc = subprocess.run([CLI, "record", recording, "--in-process", "--seconds", "1.5", "--rate", "40", "--json", *GEOMETRY],
                              capture_output=True, text=True, timeout=120)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        recorded = json.loads(proc.stdout)["recording"]["frames_recorded"]
        self.assertGreater(recorded, 5, "a duration, not a frame count, ended the run")
        self.assertLess(recorded, 70)
        proc = subprocess.run([CLI, "replay", recording, "--frames", str(recorded), "--rate", "0", "--json"],
                              capture_output=True, text=True, timeout=120)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        out = json.loads(proc.stdout)
        self.assertEqual(out["frames_delivered"], recorded)
        self.assertEqual(out["payload_crc_errors"], 0)

    def test_fe_sim_replays_as_its_own_process(self):
        first = os.path.join(self.dir.name, "first.uff")
        rc, _, err = stream("--in-process", "--frames", "6", "--rate", "0", "--record", first, *GEOMETRY)
        self.assertEqual(rc, 0, err)
        name = f"sonolink-test-replay-{os.getpid()}"
        second = os.path.join(self.dir.name, "second.uff")
        host = subprocess.Popen([CLI, "stream", "--json", "--link-name", name, "--frames", "12", "--rate", "200", "--record", second, *GEOMETRY],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        fe = subprocess.Popen([FE_SIM, "--link-name", name, "--replay", first], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            out, err = host.communicate(timeout=120)
            _, fe_err = fe.communicate(timeout=30)
            self.assertEqual(host.returncode, 0, f"host: {err}\nfront end: {fe_err}")
            self.assertEqual(json.loads(out)["recording"]["frames_recorded"], 12, f"host: {err}\nfront end: {fe_err}")
        finally:
            for p in (host, fe):
                if p.poll() is None:
                    p.kill()
                    p.communicate()
        with h5py.File(first, "r") as a, h5py.File(second, "r") as b:
            original = a["channel_data"]["data"][...]
            replayed = b["channel_data"]["data"][...]
            self.assertEqual(replayed.shape[0], 12)
            np.testing.assert_array_equal(replayed[:6], original)
            np.testing.assert_array_equal(replayed[6:], original)  # round again

    def test_replay_of_a_mismatched_geometry_is_refused_with_the_reason(self):
        first = os.path.join(self.dir.name, "first.uff")
        rc, _, err = stream("--in-process", "--frames", "2", "--rate", "0", "--record", first, *GEOMETRY)
        self.assertEqual(rc, 0, err)
        name = f"sonolink-test-mismatch-{os.getpid()}"
        host = subprocess.Popen([CLI, "stream", "--link-name", name, "--frames", "2", "--channels", "16", "--samples", "256",
                                 "--slot-bytes", "65536", "--slots", "64", "--accept-timeout", "20"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        fe = subprocess.Popen([FE_SIM, "--link-name", name, "--replay", first], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            _, err = host.communicate(timeout=60)
        finally:
            for p in (host, fe):
                if p.poll() is None:
                    p.kill()
                p.communicate()
        self.assertNotEqual(host.returncode, 0)
        self.assertIn("the front end refused the configuration", err)
        self.assertIn("does not match the recording", err)


if __name__ == "__main__":
    unittest.main()
