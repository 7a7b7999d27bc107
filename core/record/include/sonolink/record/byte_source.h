// ByteSource: a read-only run of bytes read by offset, which a UFF recording can be read from
// instead of a local file (UffReader::open(source)): an object in the S3 archive (the composition
// root adapts the archive's ranged reads), or a local file mapped into memory. HDF5 reads the
// recording's metadata through it in small cached blocks and its frames straight into the
// caller's buffers, so only what a frame needs is fetched.
// Thread contract: read() is called by one thread at a time (HDF5 serialises its calls).
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>

#include "sonolink/util/result.h"

namespace sonolink::record {

class ByteSource {
public:
    virtual ~ByteSource() = default;
    [[nodiscard]] virtual std::string name() const = 0;       // for messages: a URL or a path
    [[nodiscard]] virtual std::uint64_t size() const = 0;
    // Exactly into.size() bytes from offset, or an Error (never fewer).
    [[nodiscard]] virtual Status read(std::uint64_t offset, std::span<std::byte> into) = 0;
};

// A local file mapped read-only: reads are copies out of the page cache, no read() call.
[[nodiscard]] Result<std::shared_ptr<ByteSource>> mapFile(const std::filesystem::path& path);

}  // namespace sonolink::record
