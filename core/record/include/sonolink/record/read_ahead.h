// The read-ahead ring of recordings read in place from a remote source (UffReader::open(source)
// on the S3 archive): page-aligned buffers that the next frames are fetched into while one is
// beamformed, reused from frame to frame. Where a GPU is present, the composition root has them
// page-locked (pinReadAheadBuffers with the CUDA module's HostPinning): each buffer once, when
// it is made, and unpinned before it is freed; a buffer that cannot be pinned is used as it is.
// Thread contract: thread-safe; pinning applies to the buffers made after the call.
#pragma once

#include <cstdint>
#include <memory>

#include "sonolink/util/host_pinning.h"

namespace sonolink::record {

// Null: make the next buffers unpinned (those pinned stay so until freed).
void pinReadAheadBuffers(std::shared_ptr<HostPinning> pinning);

struct ReadAheadCounts {
    std::uint64_t buffersMade = 0;  // since the process started
    std::uint64_t buffersPinned = 0;
    std::uint64_t pinFailures = 0;  // each also logged, the first with its reason
    std::uint64_t buffersFreed = 0;
};
[[nodiscard]] ReadAheadCounts readAheadCounts();

}  // namespace sonolink::record
