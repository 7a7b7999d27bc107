#include "sonolink/transport/sim/frame_layout.h"

#include <algorithm>

#include <fmt/format.h>

namespace sonolink::transport::sim {

Result<FrameLayout> planFrameLayout(const Configure& configure, std::uint32_t slotBytes) {
    if (slotBytes <= kBlockHeaderSize + 2) {
        return fail(ErrorCode::ResourceExhausted, fmt::format("slots of {} bytes cannot hold a block", slotBytes));
    }
    FrameLayout layout;
    layout.waves = static_cast<std::uint16_t>(configure.waveCount());
    layout.channels = configure.channelCount;
    layout.samples = configure.samplesPerChannel;
    const std::size_t room = slotBytes - kBlockHeaderSize;
    const std::size_t channelBytes = std::size_t(layout.samples) * 2;
    const std::size_t channelsPerBlock = std::min<std::size_t>(room / channelBytes, layout.channels);
    const std::size_t samplesPerBlock = channelsPerBlock > 0 ? layout.samples : room / 2;
    layout.channelsPerBlock = static_cast<std::uint16_t>(std::max<std::size_t>(channelsPerBlock, 1));
    const std::size_t waveBytes = channelBytes * layout.channels;
    for (std::uint16_t w = 0; w < layout.waves; ++w) {
        for (std::uint16_t c = 0; c < layout.channels; c = static_cast<std::uint16_t>(c + layout.channelsPerBlock)) {
            const auto n = static_cast<std::uint16_t>(std::min<std::size_t>(layout.channelsPerBlock, layout.channels - c));
            for (std::uint32_t s = 0; s < layout.samples; s += static_cast<std::uint32_t>(samplesPerBlock)) {
                const auto m = static_cast<std::uint32_t>(std::min<std::size_t>(samplesPerBlock, layout.samples - s));
                BlockLayout block{static_cast<std::uint8_t>(w),
                                  c,
                                  n,
                                  s,
                                  m,
                                  static_cast<std::uint32_t>(std::size_t(n) * m * 2),
                                  w * waveBytes + c * channelBytes + std::size_t(s) * 2};
                layout.maxPayloadBytes = std::max(layout.maxPayloadBytes, block.payloadBytes);
                layout.blocks.push_back(block);
            }
        }
    }
    if (layout.blocks.size() > 0xFFFF) {
        return fail(ErrorCode::ResourceExhausted,
                    fmt::format("a frame would need {} blocks of at most {} bytes (the limit is 65535): use larger slots", layout.blocks.size(), room));
    }
    layout.frameBytes = waveBytes * layout.waves;
    return layout;
}

}  // namespace sonolink::transport::sim
