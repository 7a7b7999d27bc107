#include "sonolink/transport/sim/channel_faults.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace sonolink::transport::sim {
namespace {

std::int16_t saturate(double v) { return static_cast<std::int16_t>(std::clamp(std::round(v), -32768.0, 32767.0)); }

}  // namespace

void applyChannelFaults(const ChannelFaults& faults, std::span<std::int16_t> wave, int channels, int samples, double sceneNoiseRms, std::uint64_t seed) {
    const auto n = static_cast<std::size_t>(samples);
    const auto trace = [&](std::uint16_t c) { return wave.subspan(c * n, n); };
    const auto valid = [&](std::uint16_t c) { return c < channels; };
    std::mt19937_64 random(seed ^ 0x9e3779b97f4a7c15ull);
    std::normal_distribution<double> unit(0.0, 1.0);
    for (const auto c : faults.dead) {
        if (!valid(c)) continue;
        for (auto& s : trace(c)) s = saturate(unit(random));  // the ADC's own noise, about 1 count
    }
    for (const auto c : faults.weak) {
        if (!valid(c)) continue;
        for (auto& s : trace(c)) s = saturate(s * 0.25);
    }
    for (const auto c : faults.noisy) {
        if (!valid(c)) continue;
        for (auto& s : trace(c)) s = saturate(s + 25 * sceneNoiseRms * unit(random));
    }
    for (const auto& [a, b] : faults.swapped) {
        if (!valid(a) || !valid(b) || a == b) continue;
        std::swap_ranges(trace(a).begin(), trace(a).end(), trace(b).begin());
    }
    if (faults.reversed) {
        for (int c = 0; c < channels / 2; ++c) {
            const auto a = trace(static_cast<std::uint16_t>(c)), b = trace(static_cast<std::uint16_t>(channels - 1 - c));
            std::swap_ranges(a.begin(), a.end(), b.begin());
        }
    }
}

}  // namespace sonolink::transport::sim
