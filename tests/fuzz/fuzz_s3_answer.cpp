// libFuzzer target: one answer of an S3 server, as the archive reads it (an error, a listing, a
// part list, a started or completed multipart upload): a clear refusal or its values, never a
// crash. Seeds: answers as AWS documents them and radosgw sends them.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "s3_xml.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view xml(reinterpret_cast<const char*>(data), size);
    (void)sonolink::archive::parseErrorBody(xml);
    (void)sonolink::archive::parseListObjectsV2(xml);
    (void)sonolink::archive::parseListParts(xml);
    (void)sonolink::archive::parseUploadId(xml);
    (void)sonolink::archive::parseCompleteResult(xml);
    return 0;
}
