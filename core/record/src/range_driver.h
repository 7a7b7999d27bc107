// An HDF5 file driver (VFD) over a ByteSource, read-only: HDF5 asks for byte ranges and gets
// them from the source. Small reads (metadata: the superblock, object headers, B-trees) are
// served from 256 KiB blocks, the last 16 of them kept, so that opening a recording costs a few
// requests; large reads (a frame's samples) go straight from the source into HDF5's (the
// caller's) buffer, or from ranges staged ahead of them (stageRanges). The reason a read failed
// is kept for the caller's message.
// Private to sonolink_record. Thread contract: HDF5 serialises its calls.
#pragma once

#include <hdf5.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "sonolink/util/byte_source.h"

namespace sonolink::record {

struct ByteRange {
    std::uint64_t offset = 0;
    std::uint64_t size = 0;
};

// A file-access property list that reads through source (which must outlive the file).
[[nodiscard]] hid_t rangeDriverAccess(ByteSource& source);
// Fetches these ranges of source now, on the fetch threads (started once and kept), into the
// read-ahead ring's page-aligned buffers (read_ahead.h), from which the driver then serves the
// reads that fall inside them (the reads wait for their range): a frame's chunks come in one
// request each run of them, and the next frames' while this one is beamformed. The last
// kStagedRanges ranges are kept; older ones are dropped.
inline constexpr std::size_t kStagedRanges = 16;
void stageRanges(ByteSource& source, const std::vector<ByteRange>& ranges);
// How many large reads (a chunk's samples) of source no staged range held, so far: a reader
// that staged the ranges it predicted learns from it that they were not the frames' own.
[[nodiscard]] std::uint64_t unstagedReads(ByteSource& source);
// The span of the large reads of source (a chunk's samples, staged or not) since the last call:
// where the frame just read really lies. None when there was none.
[[nodiscard]] std::optional<ByteRange> takeServedSpan(ByteSource& source);
// Drops whatever is staged for source (the file is closed).
void dropStaged(ByteSource& source);
// Why the source's last read failed, taken (once); none when no read failed.
[[nodiscard]] std::optional<Error> takeRangeDriverError(ByteSource& source);

}  // namespace sonolink::record
