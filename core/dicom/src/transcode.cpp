#include "sonolink/dicom/transcode.h"

#include <dcmtk/dcmdata/dcfilefo.h>
#include <fmt/format.h>

#include "codecs.h"

namespace sonolink::dicom {

Status transcodeFile(const std::string& input, const std::string& output, Compression compression) {
    registerCodecs();
    DcmFileFormat file;
    if (auto c = file.loadFile(input.c_str()); c.bad()) return fail(ErrorCode::InvalidArgument, fmt::format("cannot read {}: {}", input, c.text()));
    return saveEncoded(file, output, compression);
}

}  // namespace sonolink::dicom
