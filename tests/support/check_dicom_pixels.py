#!/usr/bin/env python3
"""check_dicom_pixels.py FILE RAW FRAMES ROWS COLUMNS SAMPLES TRANSFER_SYNTAX: pydicom reads FILE
back byte-equal to RAW (frames x rows x columns x samples, uint8) in the transfer syntax named;
JPEG-LS, which pydicom cannot decode without extra plug-ins, is decoded with dcmtk's dcmdjpls
first. Prints "pixels ok" or raises. Used by the C++ DICOM writer tests."""
import os
import subprocess
import sys
import tempfile

import numpy
import pydicom

path, raw, frames, rows, columns, samples, syntax = sys.argv[1:8]
frames, rows, columns, samples = int(frames), int(rows), int(columns), int(samples)
d = pydicom.dcmread(path)
assert d.file_meta.TransferSyntaxUID == syntax, (d.file_meta.TransferSyntaxUID, syntax)
assert d.get("LossyImageCompression", "00") == "00", d.LossyImageCompression
assert d.PhotometricInterpretation == ("RGB" if samples == 3 else "MONOCHROME2"), d.PhotometricInterpretation
if samples == 3:
    assert d.PlanarConfiguration == 0
shape = [rows, columns] + ([3] if samples == 3 else [])
if frames > 1:
    shape = [frames] + shape
    assert int(d.NumberOfFrames) == frames
expected = numpy.fromfile(raw, dtype=numpy.uint8).reshape(shape)
if syntax == "1.2.840.10008.1.2.4.80":
    with tempfile.TemporaryDirectory() as t:
        plain = os.path.join(t, "plain.dcm")
        subprocess.run(["dcmdjpls", path, plain], check=True)
        d = pydicom.dcmread(plain)
assert (numpy.asarray(d.pixel_array) == expected).all(), "pixels differ"
print("pixels ok")
