// ByteSource: a read-only run of bytes read by offset, which a UFF recording
// (record::UffReader::open(source)) or a multi-frame DICOM object (dicom::FrameSource) is read
// from in place: an object in the S3 archive (the composition root adapts the archive's ranged
// reads), or a local file mapped into memory. Readers fetch the metadata in small blocks and each
// frame straight into the caller's buffer, so only what a frame needs is fetched.
// Thread contract: read() of a remote source may be called from several threads at once.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>

#include "sonolink/util/result.h"

namespace sonolink {

class ByteSource {
public:
    virtual ~ByteSource() = default;
    [[nodiscard]] virtual std::string name() const = 0;  // for messages: a URL or a path
    [[nodiscard]] virtual std::uint64_t size() const = 0;
    // Exactly into.size() bytes from offset, or an Error (never fewer). Thread-safe for a remote
    // source (frames are fetched ahead on threads of their own).
    [[nodiscard]] virtual Status read(std::uint64_t offset, std::span<std::byte> into) = 0;
    // True when a read costs a round trip (the archive): a frame's chunks are then fetched in one
    // request and the next frames ahead of it. A mapped file is read as HDF5 asks, straight from
    // the page cache into HDF5's buffer.
    [[nodiscard]] virtual bool remote() const { return false; }
};

// A local file mapped read-only: reads are copies out of the page cache, no read() call.
[[nodiscard]] Result<std::shared_ptr<ByteSource>> mapFile(const std::filesystem::path& path);

}  // namespace sonolink
