#!/usr/bin/env python3
"""check_dicom_pixels.py FILE RAW FRAMES ROWS COLUMNS SAMPLES TRANSFER_SYNTAX: pydicom reads FILE
back byte-equal to RAW (frames x rows x columns x samples, uint8) in the transfer syntax named;
pydicom decodes every one itself (JPEG-LS through its GDCM handler, Debian's python3-gdcm).
Prints "pixels ok" or raises. Used by the C++ DICOM writer tests."""
import sys

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
    from pydicom.pixel_data_handlers import gdcm_handler
    assert gdcm_handler.is_available(), "pydicom cannot decode JPEG-LS: python3-gdcm is not installed"
assert (numpy.asarray(d.pixel_array) == expected).all(), "pixels differ"
print("pixels ok")
