#!/usr/bin/env python3
"""UFF channel_data cross-checks with h5py: files SonoLink writes open in h5py with USTB's names
and layout; files written in that layout by others (int16 or float, one or several waves) are
read by SonoLink; damaged files give clear errors. Run by CTest with SONOLINK_UFF_TOOL set."""
import json
import os
import subprocess
import tempfile
import unittest

import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "support"))
from ustb_uff import LAYOUTS, write_ustb  # noqa: E402

TOOL = os.environ["SONOLINK_UFF_TOOL"]


def read(path):
    proc = subprocess.run([TOOL, "read", path], capture_output=True, text=True, timeout=60)
    return proc.returncode, json.loads(proc.stdout)


class UffTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.dir.cleanup()

    def path(self, name):
        return os.path.join(self.dir.name, name)

    def test_files_we_write_open_in_h5py_as_ustb_lays_them_out(self):
        for kind, dtype in (("int16", np.int16), ("float", np.float32)):
            p = self.path(f"ours_{kind}.uff")
            subprocess.run([TOOL, "write", p, kind], check=True, timeout=60)
            with h5py.File(p, "r") as f:
                g = f["channel_data"]
                self.assertEqual(g.attrs["class"], "uff.channel_data")
                for key in ("sampling_frequency", "initial_time", "sound_speed", "modulation_frequency", "data", "probe", "sequence"):
                    self.assertIn(key, g)
                self.assertEqual(np.squeeze(g["sampling_frequency"][...]), 40e6)
                self.assertAlmostEqual(float(np.squeeze(g["initial_time"][...])), 2e-6)
                data = g["data"][...]
                self.assertEqual(data.shape, (2, 3, 4, 5))  # frames x waves x channels x samples
                self.assertEqual(data.dtype, dtype)
                f_, w, c, s = np.meshgrid(range(2), range(3), range(4), range(5), indexing="ij")
                np.testing.assert_array_equal(data, 1000 * f_ + 100 * w + 10 * c + s)
                self.assertEqual(g["probe"]["geometry"].shape, (7, 4))
                np.testing.assert_allclose(g["probe"]["geometry"][0], [-0.45e-3, -0.15e-3, 0.15e-3, 0.45e-3])
                # USTB's names and attributes for a list of objects and its items (pyuff_ustb's write_object).
                seq = g["sequence"]
                self.assertEqual(list(seq.attrs["size"]), [1, 3])
                self.assertEqual(list(seq.attrs["array"]), [1])
                self.assertEqual((seq.attrs["class"], seq.attrs["name"]), ("uff.wave", "sequence"))
                self.assertEqual(sorted(seq.keys()), ["sequence_0001", "sequence_0002", "sequence_0003"])
                item = seq["sequence_0003"]
                self.assertEqual((item.attrs["class"], list(item.attrs["array"]), list(item.attrs["size"])), ("uff.wave", [0], [1, 1]))
                self.assertAlmostEqual(float(np.squeeze(item["source"]["azimuth"][...])), 0.1)
                self.assertTrue(np.isinf(np.squeeze(seq["sequence_0001"]["source"]["distance"][...])))
                self.assertEqual((g.attrs["class"], list(g.attrs["array"]), list(g.attrs["size"])), ("uff.channel_data", [0], [1, 1]))
            rc, back = read(p)
            self.assertEqual(rc, 0, back)
            self.assertEqual(back["int16"], kind == "int16")
            self.assertEqual(back["sum"], float(np.sum(1000 * f_ + 100 * w + 10 * c + s)))

    def test_files_written_by_others_are_read(self):
        """pyuff_ustb's layout, USTB's and SonoLink's before it took USTB's item names; list
        items are read in the order of their number, not of their names."""
        rng = np.random.default_rng(3)
        cases = [(layout, dtype, angles) for layout in LAYOUTS
                 for dtype, angles in ((np.int16, [0.0]), (np.float64, [-0.2, 0.0, 0.2]), (np.float32, [0.05, 0.1]))]
        cases.append(("pyuff_ustb", np.float32, list(np.linspace(-0.3, 0.3, 12))))  # sequence_0010 sorts before _0002 as text
        for layout, dtype, angles in cases:
            data = (rng.standard_normal((3, len(angles), 8, 50)) * 1000).astype(dtype)
            p = self.path(f"theirs_{layout}_{np.dtype(dtype).name}_{len(angles)}.uff")
            write_ustb(p, data, angles, np.linspace(-1e-3, 1e-3, 8), layout=layout)
            rc, back = read(p)
            self.assertEqual(rc, 0, back)
            self.assertEqual((back["frames"], back["waves"], back["channels"], back["samples"]), (3, len(angles), 8, 50))
            self.assertEqual(back["sampling_frequency"], 25e6)
            self.assertEqual(back["sound_speed"], 1500.0)
            np.testing.assert_allclose(back["angles"], angles)
            np.testing.assert_allclose(back["element_x"], np.linspace(-1e-3, 1e-3, 8))
            self.assertAlmostEqual(back["sum"], float(np.sum(data.astype(np.float32).astype(np.float64))), delta=1e-3 * np.abs(data).sum())
            self.assertTrue(back["last_frame_view_ok"])

    def test_damaged_files_say_what_is_wrong(self):
        data = np.zeros((1, 2, 4, 10), dtype=np.int16)
        p = self.path("no_fs.uff")
        write_ustb(p, data, [0.0, 0.1], np.zeros(4), drop="sampling_frequency")
        rc, back = read(p)
        self.assertEqual(rc, 1)
        self.assertIn("dataset 'sampling_frequency' is missing", back["error"])
        self.assertEqual(back["code"], "NotFound")
        p = self.path("bad_geometry.uff")
        write_ustb(p, data, [0.0, 0.1], np.zeros(4), geometry_elements=6)
        rc, back = read(p)
        self.assertEqual(rc, 1)
        self.assertIn("geometry holds 42 values; 4 channels need 7 x 4", back["error"])
        p = self.path("bad_sequence.uff")
        write_ustb(p, data, [0.0, 0.1, 0.2], np.zeros(4))
        rc, back = read(p)
        self.assertEqual(rc, 1)
        self.assertIn("the sequence has 3 waves but the data 2", back["error"])
        p = self.path("missing_item.uff")
        write_ustb(p, np.zeros((1, 3, 4, 10), dtype=np.int16), [0.0, 0.1, 0.2], np.zeros(4))
        with h5py.File(p, "r+") as f:
            del f["channel_data/sequence/sequence_0002"]
        rc, back = read(p)
        self.assertEqual(rc, 1)
        self.assertIn("sequence: its size attribute lists 3 items, but it holds 2 numbered ones: sequence_0001, sequence_0003", back["error"])
        # The regression: the size attribute lowered to match, the gap stayed: wave 3 would have
        # been read as the second wave, paired with the second angle.
        p = self.path("gap_in_names.uff")
        write_ustb(p, np.zeros((1, 2, 4, 10), dtype=np.int16), [0.0, 0.1], np.zeros(4))
        with h5py.File(p, "r+") as f:
            f.move("channel_data/sequence/sequence_0002", "channel_data/sequence/sequence_0003")
        rc, back = read(p)
        self.assertEqual(rc, 1)
        self.assertIn("its items are not numbered 1 to 2 without a gap (sequence_0001, sequence_0003)", back["error"])
        p = self.path("not_hdf5.uff")
        with open(p, "w") as f:
            f.write("not an HDF5 file")
        rc, back = read(p)
        self.assertEqual(rc, 1)
        self.assertIn("is not an HDF5 file", back["error"])
        rc, back = read(self.path("missing.uff"))
        self.assertEqual(rc, 1)
        self.assertIn("no such file", back["error"])


if __name__ == "__main__":
    unittest.main()
