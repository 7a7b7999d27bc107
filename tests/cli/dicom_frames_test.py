#!/usr/bin/env python3
"""sonolink-cli dicom frames: DICOM images read in place, frame by frame, on files laid out as
pydicom and DCMTK's own tools write them. Native frames (explicit VR with a sequence of undefined
length before the pixels, implicit VR at 16 bits, RGB by plane) and encapsulated ones located
through the Extended Offset Table, the Basic Offset Table, or neither (one fragment a frame), RLE
by pydicom and by dcmcrle, JPEG-LS by dcmcjpls; each decoded frame equals what pydicom reads (or
the lossless original). A seek to frame N fetches the header and frame N's bytes only. Damaged
objects (cut short, an offset table that does not match, not DICOM, deflated) end in an error
naming the object and what is wrong, never in a frame of wrong pixels. Run by CTest with
SONOLINK_CLI."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np
import pydicom
from pydicom.encaps import encapsulate, encapsulate_extended
from pydicom.uid import DeflatedExplicitVRLittleEndian, ExplicitVRLittleEndian, ImplicitVRLittleEndian, RLELossless

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from dicom_cines import cine, frames_of, rle_frames  # noqa: E402

CLI = os.environ["SONOLINK_CLI"]
class DicomFramesTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.work = self.dir.name

    def tearDown(self):
        self.dir.cleanup()

    def path(self, name):
        return os.path.join(self.work, name)

    def frames_cli(self, obj, *args):
        return subprocess.run([CLI, "dicom", "frames", obj, *args], capture_output=True, text=True, timeout=120)

    def read_all(self, obj, expected, dtype=np.uint8):
        """Every frame through --all --raw, compared with `expected`; returns the JSON summary."""
        raw = self.path("frames.raw")
        run = self.frames_cli(obj, "--all", "--raw", raw, "--json")
        self.assertEqual(run.returncode, 0, run.stderr)
        summary = json.loads(run.stdout)
        got = np.fromfile(raw, dtype=dtype).reshape(expected.shape)
        np.testing.assert_array_equal(got, expected)
        self.assertEqual(summary["frames"], expected.shape[0])
        return summary

    def test_native_explicit_with_a_delimited_sequence(self):
        frames = frames_of(12, 48, 40)
        obj = cine(self.path("native.dcm"), frames)
        summary = self.read_all(obj, frames)
        self.assertEqual(summary["frame_index"], "native")
        self.assertEqual(summary["frame_time_ms"], 33.3)
        self.assertEqual(summary["pixel_spacing_mm"], [0.1, 0.1], "the region's calibration, cm to mm")
        self.assertIsNone(summary["first_pixel_mm"], "no reference pixel in the region")
        np.testing.assert_array_equal(pydicom.dcmread(obj).pixel_array, frames)  # pydicom agrees with the file

    def test_native_implicit_vr_16_bits(self):
        frames = frames_of(5, 32, 24, dtype=np.uint16)
        obj = cine(self.path("implicit.dcm"), frames, syntax=ImplicitVRLittleEndian)
        summary = self.read_all(obj, frames, dtype="<u2")
        self.assertEqual((summary["bits_allocated"], summary["transfer_syntax"]), (16, ImplicitVRLittleEndian))
        self.assertEqual(summary["bits_stored"], 12)

    def test_native_rgb_by_plane_comes_out_by_pixel(self):
        frames = frames_of(4, 20, 30, samples=3)
        obj = cine(self.path("rgb.dcm"), frames, planar=1)
        self.read_all(obj, frames)
        np.testing.assert_array_equal(pydicom.dcmread(obj).pixel_array, frames)

    def test_rle_through_the_basic_offset_table(self):
        frames = frames_of(10, 64, 48)
        obj = cine(self.path("rle_bot.dcm"), frames, syntax=RLELossless, pixel_data=encapsulate(rle_frames(frames), has_bot=True))
        summary = self.read_all(obj, frames)
        self.assertEqual(summary["frame_index"], "basic offset table")
        np.testing.assert_array_equal(pydicom.dcmread(obj).pixel_array, frames)

    def test_rle_without_an_offset_table_one_fragment_a_frame(self):
        frames = frames_of(6, 32, 32)
        obj = cine(self.path("rle_nobot.dcm"), frames, syntax=RLELossless, pixel_data=encapsulate(rle_frames(frames), has_bot=False))
        self.assertEqual(self.read_all(obj, frames)["frame_index"], "fragments")

    def test_rle_through_the_extended_offset_table(self):
        frames = frames_of(7, 40, 36)
        data, table, lengths = encapsulate_extended(rle_frames(frames))
        obj = cine(self.path("rle_eot.dcm"), frames, syntax=RLELossless, pixel_data=data,
                   extra={"ExtendedOffsetTable": table, "ExtendedOffsetTableLengths": lengths})
        self.assertEqual(self.read_all(obj, frames)["frame_index"], "extended offset table")

    def test_dcmtk_tools_rle_and_jpeg_ls(self):
        frames = frames_of(8, 56, 44)
        native = cine(self.path("source.dcm"), frames, regions_undefined=False)
        for tool, name in (("dcmcrle", "dcmcrle.dcm"), ("dcmcjpls", "dcmcjpls.dcm")):
            with self.subTest(tool=tool):
                out = self.path(name)
                subprocess.run([tool, native, out], check=True, capture_output=True)
                summary = self.read_all(out, frames)
                self.assertNotEqual(summary["transfer_syntax"], ExplicitVRLittleEndian)
                self.assertIn(summary["frame_index"], ("basic offset table", "fragments"))

    def test_a_seek_fetches_the_header_and_that_frame_only(self):
        frames = frames_of(40, 128, 96)
        for name, pixel_data, syntax in (("seek_native.dcm", None, ExplicitVRLittleEndian),
                                         ("seek_rle.dcm", encapsulate(rle_frames(frames), has_bot=True), RLELossless)):
            with self.subTest(name=name):
                obj = cine(self.path(name), frames, syntax=syntax, pixel_data=pixel_data)
                raw = self.path("one.raw")
                run = self.frames_cli(obj, "--frame", "29", "--raw", raw, "--json")
                self.assertEqual(run.returncode, 0, run.stderr)
                s = json.loads(run.stdout)
                np.testing.assert_array_equal(np.fromfile(raw, dtype=np.uint8).reshape(frames[29].shape), frames[29])
                frame_bytes = s["extents"][0]["length"]
                self.assertEqual(s["bytes_fetched"] - s["open_fetched_bytes"], frame_bytes)  # one read of frame 29's bytes
                self.assertEqual(s["extents"][0]["frame"], 29)
                self.assertLess(s["bytes_fetched"], os.path.getsize(obj) / 4)

    def test_png_of_a_frame(self):
        frames = frames_of(3, 30, 20)
        obj = cine(self.path("png.dcm"), frames)
        png = self.path("frame.png")
        run = self.frames_cli(obj, "--frame", "2", "--png", png)
        self.assertEqual(run.returncode, 0, run.stderr)
        with open(png, "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
        self.assertIn("located by the native", run.stdout)

    def assert_refused(self, obj, *words, args=()):
        run = self.frames_cli(obj, "--all", *args)
        self.assertEqual(run.returncode, 1, run.stdout + run.stderr)
        for word in words:
            self.assertIn(word, run.stderr)
        self.assertNotIn("Traceback", run.stderr)

    def test_damaged_objects_are_named(self):
        frames = frames_of(6, 32, 32)
        native = cine(self.path("whole.dcm"), frames)
        with open(native, "rb") as f:
            whole = f.read()
        cut = self.path("cut.dcm")
        with open(cut, "wb") as f:
            f.write(whole[: len(whole) - 3000])
        self.assert_refused(cut, "cut.dcm", "past the end")

        rle = cine(self.path("rle.dcm"), frames, syntax=RLELossless, pixel_data=encapsulate(rle_frames(frames), has_bot=True))
        with open(rle, "rb") as f:
            data = bytearray(f.read())
        cut_rle = self.path("cut_rle.dcm")
        with open(cut_rle, "wb") as f:
            f.write(data[: len(data) - 500])
        self.assert_refused(cut_rle, "cut_rle.dcm")

        short_table = self.path("short_table.dcm")  # a Basic Offset Table for 5 frames in a 6-frame object
        cine(short_table, frames, syntax=RLELossless, pixel_data=encapsulate(rle_frames(frames), has_bot=True), extra={"NumberOfFrames": 5})
        self.assert_refused(short_table, "Basic Offset Table has 6 entries for 5 frames")

        wrong_offset = self.path("wrong_offset.dcm")
        encoded = bytearray(encapsulate(rle_frames(frames), has_bot=True))
        encoded[8 + 4 * 3: 8 + 4 * 4] = (10 ** 8).to_bytes(4, "little")  # frame 3 far beyond the end
        cine(wrong_offset, frames, syntax=RLELossless, pixel_data=bytes(encoded))
        self.assert_refused(wrong_offset, "frame 3")

        not_dicom = self.path("not.dcm")
        with open(not_dicom, "wb") as f:
            f.write(b"\0" * 4096)
        self.assert_refused(not_dicom, "not a DICOM Part 10 file")

        deflated = cine(self.path("deflated.dcm"), frames, syntax=DeflatedExplicitVRLittleEndian)
        self.assert_refused(deflated, "cannot be read in place", "deflated")

        too_many_bits = cine(self.path("bits.dcm"), frames, extra={"BitsStored": 12, "HighBit": 11})  # 12 bits in 8 allocated
        self.assert_refused(too_many_bits, "12 bits stored, high bit 11, do not fit 8 bits allocated")

        colour = frames_of(2, 16, 16, samples=3)  # a frame of YBR_FULL_422 holds 2 samples a pixel, not 3
        subsampled = cine(self.path("ybr422.dcm"), colour, extra={"PhotometricInterpretation": "YBR_FULL_422"})
        self.assert_refused(subsampled, "YBR_FULL_422 (colour subsampled) are not read")

        missing = self.frames_cli(self.path("absent.dcm"))
        self.assertEqual(missing.returncode, 1)
        self.assertIn("absent.dcm", missing.stderr)

    def test_outputs_are_never_half_written_nor_the_object_itself(self):
        frames = frames_of(6, 32, 32)
        fragments = rle_frames(frames)
        fragments[4] = fragments[4][:64] + b"\x80" * (len(fragments[4]) - 64)  # frame 4 no longer decodes to a whole frame
        damaged = cine(self.path("bad_fragment.dcm"), frames, syntax=RLELossless, pixel_data=encapsulate(fragments, has_bot=True))
        out = self.path("frames.raw")
        with open(out, "wb") as f:
            f.write(b"an earlier run's frames")
        run = self.frames_cli(damaged, "--all", "--raw", out)
        self.assertEqual(run.returncode, 1, run.stdout + run.stderr)
        self.assertIn("frame 4", run.stderr)
        with open(out, "rb") as f:
            self.assertEqual(f.read(), b"an earlier run's frames", "a failed run leaves the earlier file as it was")
        self.assertEqual([n for n in os.listdir(self.work) if "sonolink-part" in n], [], "no partial file left")
        whole = cine(self.path("whole.dcm"), frames)
        size = os.path.getsize(whole)
        for option in ("--raw", "--png"):
            same = self.frames_cli(whole, "--frame", "0", option, whole)
            self.assertEqual(same.returncode, 1)
            self.assertIn("is the object being read", same.stderr)
            self.assertEqual(os.path.getsize(whole), size)

    def test_a_frame_beyond_the_last_is_refused(self):
        obj = cine(self.path("three.dcm"), frames_of(3, 16, 16))
        run = self.frames_cli(obj, "--frame", "3")
        self.assertEqual(run.returncode, 1)
        self.assertIn("it has 3 (0-2)", run.stderr)


if __name__ == "__main__":
    unittest.main()
