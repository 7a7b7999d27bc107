// An HDF5 file driver (VFD) over a ByteSource, read-only: HDF5 asks for byte ranges and gets
// them from the source. Small reads (metadata: the superblock, object headers, B-trees) are
// served from 256 KiB blocks, the last 16 of them kept, so that opening a recording costs a few
// requests; large reads (a frame's samples) go straight from the source into HDF5's (the
// caller's) buffer. The reason a read failed is kept for the caller's message.
// Private to sonolink_record. Thread contract: HDF5 serialises its calls.
#pragma once

#include <hdf5.h>

#include <optional>

#include "sonolink/record/byte_source.h"

namespace sonolink::record {

// A file-access property list that reads through source (which must outlive the file).
[[nodiscard]] hid_t rangeDriverAccess(ByteSource& source);
// Why the source's last read failed, taken (once); none when no read failed.
[[nodiscard]] std::optional<Error> takeRangeDriverError(ByteSource& source);

}  // namespace sonolink::record
