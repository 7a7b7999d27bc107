// transcodeFile(): a DICOM file rewritten in the transfer syntax of a lossless Compression (none:
// Explicit VR Little Endian), pixel data decoded and encoded by DCMTK's codecs, everything else
// unchanged. Thread contract: a pure function (writes only its output file).
#pragma once

#include <string>

#include "sonolink/dicom/us_image_writer.h"
#include "sonolink/util/result.h"

namespace sonolink::dicom {

[[nodiscard]] Status transcodeFile(const std::string& input, const std::string& output, Compression compression);

}  // namespace sonolink::dicom
