// UffStreamWriter: writes a UFF channel_data group frame by frame while acquiring: the
// metadata first, then an extendible int16 data set (frames x waves x channels x samples,
// chunked one wave-channel-block per chunk) that grows by one frame at a time; each block is
// written straight from the front end's little-endian payload (no copy on this side).
// Thread contract: one thread (the recorder's).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "sonolink/record/uff_channel_data.h"

namespace sonolink::record {

class UffStreamWriter {
public:
    // metadata: everything but the data (frames = 0, data empty).
    [[nodiscard]] static Result<std::unique_ptr<UffStreamWriter>> create(const std::string& path, const UffChannelData& metadata,
                                                                         const std::string& group = "/channel_data");
    ~UffStreamWriter();
    UffStreamWriter(const UffStreamWriter&) = delete;
    UffStreamWriter& operator=(const UffStreamWriter&) = delete;

    [[nodiscard]] Status beginFrame();  // adds a frame of zeros
    // int16 little-endian samples, [channel][sample], for one wave of the current frame.
    [[nodiscard]] Status writeBlock(int wave, int firstChannel, int channelCount, int firstSample, int sampleCount,
                                    std::span<const std::byte> payload);
    [[nodiscard]] Status close();       // flushes; also done by the destructor
    [[nodiscard]] int frames() const noexcept;

private:
    struct State;
    explicit UffStreamWriter(std::unique_ptr<State> state);
    std::unique_ptr<State> state_;
};

}  // namespace sonolink::record
