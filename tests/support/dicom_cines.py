"""Multi-frame DICOM images as pydicom writes them, for the tests that read them in place
(tests/cli/dicom_frames_test.py, tests/s3/archive_cli_test.py): native (explicit or implicit VR,
8 or 16 bits, grey or RGB by pixel or by plane) or encapsulated (RLE frames by pydicom's own
encoder, with a Basic Offset Table, an Extended one, or none)."""
import numpy as np
import pydicom
from pydicom.dataset import FileDataset, FileMetaDataset
from pydicom.pixel_data_handlers.rle_handler import rle_encode_frame
from pydicom.uid import ExplicitVRLittleEndian, ImplicitVRLittleEndian, generate_uid

US_MULTIFRAME = "1.2.840.10008.5.1.4.1.1.3.1"


def frames_of(count, rows, columns, samples=1, dtype=np.uint8, seed=1):
    """Frames that differ from each other everywhere (a frame read at the wrong offset shows)."""
    rng = np.random.default_rng(seed)
    high = 256 if dtype == np.uint8 else 4096
    shape = (count, rows, columns) if samples == 1 else (count, rows, columns, samples)
    return rng.integers(0, high, size=shape, dtype=dtype)


def cine(path, frames, *, syntax=ExplicitVRLittleEndian, planar=0, pixel_data=None, regions_undefined=True, extra=None):
    """A US Multi-frame Image as pydicom writes it; pixel_data: encapsulated bytes (else native)."""
    count, rows, columns = frames.shape[:3]
    samples = 1 if frames.ndim == 3 else frames.shape[3]
    meta = FileMetaDataset()
    meta.MediaStorageSOPClassUID = US_MULTIFRAME
    meta.MediaStorageSOPInstanceUID = generate_uid(prefix="2.25.")
    meta.TransferSyntaxUID = syntax
    ds = FileDataset(path, {}, file_meta=meta, preamble=b"\0" * 128)
    ds.SOPClassUID, ds.SOPInstanceUID = US_MULTIFRAME, meta.MediaStorageSOPInstanceUID
    ds.Modality, ds.PatientName, ds.PatientID = "US", "Frames^Test", "FR-1"
    ds.StudyInstanceUID, ds.SeriesInstanceUID = generate_uid(prefix="2.25."), generate_uid(prefix="2.25.")
    region = pydicom.Dataset()
    region.RegionSpatialFormat, region.RegionDataType, region.RegionFlags = 1, 1, 0
    region.RegionLocationMinX0, region.RegionLocationMinY0 = 0, 0
    region.RegionLocationMaxX1, region.RegionLocationMaxY1 = columns - 1, rows - 1
    region.PhysicalUnitsXDirection, region.PhysicalUnitsYDirection = 3, 3
    region.PhysicalDeltaX, region.PhysicalDeltaY = 0.01, 0.01
    ds.SequenceOfUltrasoundRegions = pydicom.Sequence([region])
    if regions_undefined:  # as many modalities write it: delimited, not counted
        ds["SequenceOfUltrasoundRegions"].is_undefined_length = True
        region.is_undefined_length_sequence_item = True
    ds.Rows, ds.Columns, ds.SamplesPerPixel = rows, columns, samples
    ds.PhotometricInterpretation = "MONOCHROME2" if samples == 1 else "RGB"
    if samples > 1:
        ds.PlanarConfiguration = planar
    bits = 8 if frames.dtype == np.uint8 else 16
    ds.BitsAllocated, ds.BitsStored, ds.HighBit, ds.PixelRepresentation = bits, bits if bits == 8 else 12, (bits if bits == 8 else 12) - 1, 0
    ds.NumberOfFrames, ds.FrameTime, ds.FrameIncrementPointer = count, "33.3", 0x00181063
    for keyword, value in (extra or {}).items():
        setattr(ds, keyword, value)
    if pixel_data is None:
        native = frames if planar == 0 or samples == 1 else np.ascontiguousarray(frames.transpose(0, 3, 1, 2))
        ds.PixelData = native.astype("<u2" if bits == 16 else np.uint8).tobytes()
    else:
        ds.PixelData = pixel_data
        ds["PixelData"].is_undefined_length = True
    ds.is_little_endian, ds.is_implicit_VR = True, syntax == ImplicitVRLittleEndian
    ds.save_as(path, write_like_original=False)
    return path


def rle_frames(frames):
    return [rle_encode_frame(f) for f in frames]
