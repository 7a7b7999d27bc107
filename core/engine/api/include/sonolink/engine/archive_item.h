// The archive's upload queue as the facade shows it: plain values copied out of the archive
// module (finished recordings and exported studies on their way to S3), so the GUI needs
// nothing of it.
// Thread contract: plain values, copy freely.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace sonolink::engine {

enum class ArchiveItemState { Queued, Uploading, Verified, Failed };
std::string_view toString(ArchiveItemState state);

struct ArchiveItem {
    std::int64_t id = 0;
    std::string file;  // the local file
    std::string url;   // s3://bucket/key
    std::string kind;  // "recording", "study"
    ArchiveItemState state = ArchiveItemState::Queued;
    int attempts = 0;
    std::uint64_t sizeBytes = 0;    // as verified
    std::int64_t enqueuedAtMs = 0;  // Unix epoch milliseconds
    std::int64_t nextAttemptAtMs = 0;
    std::int64_t verifiedAtMs = 0;
    std::int64_t localDeletedAtMs = 0;  // retention deleted the local file then; -1: kept, it changed since
    std::string lastError;
};

}  // namespace sonolink::engine
