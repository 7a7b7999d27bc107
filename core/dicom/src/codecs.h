// registerCodecs(): DCMTK's RLE and JPEG-LS encoders and decoders, registered once per process
// (colour JPEG-LS needs dcmimage's registration too). saveEncoded(): a dataset written in the
// transfer syntax of a Compression, lossless. saveFileSafely(): the one way sonolink_dicom writes
// a DICOM file (created 0600 under a temporary name, fsync'd, renamed into place: a crash or a
// full disk never leaves a cut object under its final name; a full disk is named as one).
// Private to sonolink_dicom.
// Thread contract: registerCodecs() is safe from any thread (std::call_once); saveEncoded() is
// a function of its arguments.
#pragma once

#include <string>

#include "sonolink/dicom/us_image_writer.h"

class DcmFileFormat;

namespace sonolink::dicom {
// Once per process: DCMTK's own log chatter ("Requesting Association", codec notes, warnings)
// kept to errors (ours name the node and the file), and Nagle's algorithm off for DICOM
// connections (TCP_NODELAY, DCMTK's own switch, unless the environment sets it): with it on,
// every small DIMSE message waits for a delayed ACK, ~90 ms per C-STORE on loopback.
void setUpDcmtk();
void registerCodecs();
[[nodiscard]] Status saveEncoded(DcmFileFormat& file, const std::string& path, Compression compression);
// syntax: an E_TransferSyntax (int here: no DCMTK type in this header).
[[nodiscard]] Status saveFileSafely(DcmFileFormat& file, const std::string& path, int syntax);
}  // namespace sonolink::dicom
