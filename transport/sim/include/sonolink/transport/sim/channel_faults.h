// ChannelFaults: elements of the simulated probe made to fail, so that the element check can be
// proven: dead (the element's signal gone, the ADC's own noise left), weak (a quarter of its
// signal), noisy (noise of its own at 25 x the scene's), pairs of channels swapped in the cable,
// and the whole array's order reversed (a connector the wrong way round: the element check
// cannot see it, the phantom check can). Applied to every RF wave the front end renders. Thread contract: pure functions.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace sonolink::transport::sim {

struct ChannelFaults {
    std::vector<std::uint16_t> dead, weak, noisy;
    std::vector<std::pair<std::uint16_t, std::uint16_t>> swapped;
    bool reversed = false;
    [[nodiscard]] bool any() const noexcept { return !dead.empty() || !weak.empty() || !noisy.empty() || !swapped.empty() || reversed; }
};

// One wave, channels x samples; seed: this wave's own noise. Channels past the wave's are ignored.
void applyChannelFaults(const ChannelFaults& faults, std::span<std::int16_t> wave, int channels, int samples, double sceneNoiseRms, std::uint64_t seed);

}  // namespace sonolink::transport::sim
