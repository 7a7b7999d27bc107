// The S3 answers SonoLink reads (errors, listings, multipart uploads) and the one body it writes
// (CompleteMultipartUpload), through tinyxml2. A malformed answer is an Error naming what was
// missing, never a crash or a guess.
// Thread contract: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sonolink/archive/s3_client.h"
#include "sonolink/util/result.h"

namespace sonolink::archive {

struct S3ErrorBody {
    std::string code;
    std::string message;
};

struct ListPage {
    std::vector<ObjectInfo> objects;
    bool truncated = false;
    std::string nextContinuationToken;
};

struct StoredPart {
    int number = 0;
    std::string etag;  // without quotes
    std::uint64_t sizeBytes = 0;
};

struct PartsPage {
    std::vector<StoredPart> parts;
    bool truncated = false;
    int nextMarker = 0;
};

// <Error><Code/><Message/></Error>; empty members when the text is not such a document.
[[nodiscard]] S3ErrorBody parseErrorBody(std::string_view xml);
[[nodiscard]] Result<ListPage> parseListObjectsV2(std::string_view xml);
[[nodiscard]] Result<std::string> parseUploadId(std::string_view xml);
[[nodiscard]] Result<PartsPage> parseListParts(std::string_view xml);
// A CompleteMultipartUpload answer is 200 even when it failed: an <Error> inside says so.
[[nodiscard]] Result<std::string> parseCompleteResult(std::string_view xml);
[[nodiscard]] std::string completeMultipartBody(const std::vector<StoredPart>& parts);

[[nodiscard]] std::string unquoted(std::string_view etag);

}  // namespace sonolink::archive
