// registerCodecs(): DCMTK's RLE and JPEG-LS encoders and decoders, registered once per process
// (colour JPEG-LS needs dcmimage's registration too). Private to sonolink_dicom.
// Thread contract: safe from any thread (std::call_once).
#pragma once

namespace sonolink::dicom {
void registerCodecs();
}
