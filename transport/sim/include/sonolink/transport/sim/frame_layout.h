// FrameLayout: how the front end cuts one frame (waves x channels x samples of int16) into
// blocks that fit a ring slot: whole channels per block while a channel fits, otherwise one
// channel's samples split over several blocks. Test-pattern frames use the same geometry.
// Thread contract: plain values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sonolink/transport/protocol/control_messages.h"
#include "sonolink/util/result.h"

namespace sonolink::transport::sim {

struct BlockLayout {
    std::uint8_t wave = 0;
    std::uint16_t firstChannel = 0;
    std::uint16_t channelCount = 0;
    std::uint32_t firstSample = 0;
    std::uint32_t sampleCount = 0;
    std::uint32_t payloadBytes = 0;
    std::size_t frameOffset = 0;  // where this block's payload starts in the frame's bytes
};

struct FrameLayout {
    std::vector<BlockLayout> blocks;
    std::uint16_t waves = 0;
    std::uint16_t channels = 0;
    std::uint32_t samples = 0;
    std::uint16_t channelsPerBlock = 0;
    std::uint32_t maxPayloadBytes = 0;
    std::size_t frameBytes = 0;  // waves x channels x samples x 2
};

// ResourceExhausted when even 1 sample does not fit a slot.
[[nodiscard]] Result<FrameLayout> planFrameLayout(const Configure& configure, std::uint32_t slotBytes);

}  // namespace sonolink::transport::sim
