#!/usr/bin/env python3
"""Dual mode for a minute on the simulator, through the engine as the console runs it
(`sonolink-cli demo`, display on): ultrasound at the shipped 30 frames/s, laser shots the host
schedules at 20 Hz, every seventh shot misfiring on purpose and the pulses jittered by 2 us.

Every missed shot is counted exactly (by the host, and the same by the front end), no shot is
late, every shot that fired arrives as a frame stamped within the modelled jitter of the fire
time the host scheduled, no frame is lost, and both image streams are shown: the B-mode and the
shots (the overlay PNG is written from the last of each). Run by CTest with SONOLINK_CLI set."""
import json
import os
import subprocess
import tempfile
import unittest

CLI = os.environ["SONOLINK_CLI"]
SECONDS, LASER_HZ, MISS_EVERY, JITTER_NS = 60, 20, 7, 2000


class DualModeTest(unittest.TestCase):
    def test_a_minute_of_dual_mode_counts_every_shot_and_shows_both_kinds(self):
        with tempfile.TemporaryDirectory() as work:
            proc = subprocess.run([CLI, "demo", "--seconds", str(SECONDS), "--laser-hz", str(LASER_HZ), "--laser-miss-every", str(MISS_EVERY),
                                   "--laser-jitter-ns", str(JITTER_NS), "--output-dir", work, "--json"],
                                  capture_output=True, text=True, timeout=240, cwd=work)
            self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
            summary = json.loads(proc.stdout)
            laser = summary["laser"]
            print(json.dumps({k: summary[k] for k in ("frames_delivered", "frames_displayed", "display_fps", "display_skipped")}), json.dumps(laser))
            answered = laser["fired"] + laser["missed"]
            self.assertGreaterEqual(answered, (SECONDS - 1) * LASER_HZ, "shots at the laser's rate for the whole minute")
            self.assertEqual(laser["late"], 0)
            self.assertEqual(laser["missed"], answered // MISS_EVERY, "every seventh shot misfired: each one counted")
            self.assertEqual((laser["missed"], laser["fired"]), (laser["front_end_missed"], laser["front_end_fired"]),
                             "the host counts what the front end counts")
            self.assertEqual(laser["frames"], laser["fired"], "a frame for every pulse, none for a misfire")
            self.assertLessEqual(laser["worst_stamp_error_us"] * 1e3, JITTER_NS, "each shot's frame stamped within the jitter of its fire time")
            self.assertLessEqual(laser["worst_fire_error_us"] * 1e3, JITTER_NS)
            self.assertEqual(summary["frames_missing"] + summary["frames_incomplete"] + summary["crc_errors"], 0)
            self.assertGreater(summary["frames_displayed"], 0, "the B-mode shown")
            self.assertGreater(laser["shown"], 0, "the shots shown")
            self.assertEqual(laser["dark"], 0)
            self.assertTrue(os.path.getsize(summary["overlay_png"]) > 0)
            self.assertGreater(summary["shot_cine_frames"], 0, "the shots held in a cine of their own")


if __name__ == "__main__":
    unittest.main()
