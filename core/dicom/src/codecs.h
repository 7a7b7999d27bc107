// registerCodecs(): DCMTK's RLE and JPEG-LS encoders and decoders, registered once per process
// (colour JPEG-LS needs dcmimage's registration too). saveEncoded(): a dataset written in the
// transfer syntax of a Compression, lossless. Private to sonolink_dicom.
// Thread contract: registerCodecs() is safe from any thread (std::call_once); saveEncoded() is
// a function of its arguments.
#pragma once

#include <string>

#include "sonolink/dicom/us_image_writer.h"

class DcmFileFormat;

namespace sonolink::dicom {
// DCMTK's own log chatter ("Requesting Association", codec notes) kept to warnings and errors.
void quietDcmtk();
void registerCodecs();
[[nodiscard]] Status saveEncoded(DcmFileFormat& file, const std::string& path, Compression compression);
}
