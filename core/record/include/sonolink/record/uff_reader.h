// UffReader: a UFF channel_data group (uff_channel_data.h) opened once: its physics, shape,
// sample type, probe and sequence checked when it is opened, then frames read by hyperslab as
// asked, each checked (chunk sizes, Fletcher-32, finite samples), so that replaying or
// beamforming a long recording reads one frame at a time without reopening the file.
// readUffChannelData() is open() then read(). Thread contract: one thread at a time per reader
// (HDF5 serialises its calls). Opened through a ByteSource, the reader keeps the source.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "sonolink/util/byte_source.h"
#include "sonolink/record/uff_channel_data.h"

namespace sonolink::record {

class UffReader {
public:
    [[nodiscard]] static Result<UffReader> open(const std::string& path, const std::string& group = "/channel_data");
    // The same, read through source (an object in the S3 archive, a mapped file): the metadata
    // in a few cached blocks, each frame's samples fetched straight into the caller's buffer.
    [[nodiscard]] static Result<UffReader> open(std::shared_ptr<ByteSource> source, const std::string& group = "/channel_data");
    UffReader(UffReader&&) noexcept;
    UffReader& operator=(UffReader&&) noexcept;
    ~UffReader();

    // Everything but the samples: geometry, modulation frequency, framesInFile (frames is 0).
    [[nodiscard]] const UffChannelData& header() const noexcept;
    // The frames asked for, with their samples (range and memory budget as UffReadOptions says).
    [[nodiscard]] Result<UffChannelData> read(const UffReadOptions& options = {}) const;
    // One frame of an int16 recording into out (geometry.samplesPerFrame() samples), allocating
    // nothing: replay's path.
    [[nodiscard]] Status readFrame16(int index, std::span<std::int16_t> out) const;

private:
    struct State;
    explicit UffReader(std::unique_ptr<State> state);
    std::unique_ptr<State> state_;
};

}  // namespace sonolink::record
