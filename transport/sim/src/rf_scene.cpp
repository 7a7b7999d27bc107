#include "sonolink/transport/sim/rf_scene.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>

#include "sonolink/util/assert.h"

namespace sonolink::transport::sim {

SceneSpec SceneSpec::standardPhantom(int elementCount, double pitchM, double centerFrequencyHz, double samplingRateHz, int samplesPerChannel,
                                     double soundSpeedMps) {
    SceneSpec spec;
    spec.elementCount = elementCount;
    spec.pitchM = pitchM;
    spec.centerFrequencyHz = centerFrequencyHz;
    spec.samplingRateHz = samplingRateHz;
    spec.samplesPerChannel = samplesPerChannel;
    spec.soundSpeedMps = soundSpeedMps;
    const double maxDepth = soundSpeedMps * samplesPerChannel / samplingRateHz / 2;
    const double halfAperture = elementCount * pitchM / 2;
    // Depths and lateral positions as fractions of the imaged region, so any geometry works.
    const double xs[] = {0.0, 0.0, 0.0, -0.45, 0.35, 0.55};
    const double zs[] = {0.25, 0.5, 0.75, 0.35, 0.62, 0.85};
    for (int i = 0; i < 6; ++i) spec.points.push_back({xs[i] * halfAperture, zs[i] * maxDepth, 40.0});
    spec.cysts.push_back({-0.4 * halfAperture, 0.7 * maxDepth, std::min(0.12 * maxDepth, 0.3 * halfAperture)});
    return spec;
}

RfScene::RfScene(SceneSpec spec) : spec_(std::move(spec)) {
    SONOLINK_ASSERT(spec_.elementCount > 0 && spec_.samplesPerChannel > 0, "empty scene geometry");
    // Gaussian envelope with the requested -6 dB fractional bandwidth.
    const double sigmaF = spec_.fractionalBandwidth * spec_.centerFrequencyHz / (2 * std::sqrt(2 * std::log(2.0)));
    const double sigmaT = 1 / (2 * std::numbers::pi * sigmaF);
    pulseHalfWidthS_ = 4 * sigmaT;
    const double dt = 1 / (spec_.samplingRateHz * kOversample);
    const int taps = 2 * static_cast<int>(std::ceil(pulseHalfWidthS_ / dt)) + 1;
    pulse_.resize(static_cast<std::size_t>(taps));
    bipolarPulse_.resize(static_cast<std::size_t>(taps));
    for (int i = 0; i < taps; ++i) {
        const double t = (i - taps / 2) * dt;
        const double envelope = std::exp(-t * t / (2 * sigmaT * sigmaT));
        pulse_[static_cast<std::size_t>(i)] = static_cast<float>(envelope * std::cos(2 * std::numbers::pi * spec_.centerFrequencyHz * t));
        bipolarPulse_[static_cast<std::size_t>(i)] = static_cast<float>(-t / sigmaT * envelope);
    }
    // Speckle: uniformly placed scatterers with Gaussian amplitudes, none inside a cyst.
    std::mt19937_64 random(spec_.seed);
    const double halfWidth = spec_.elementCount * spec_.pitchM / 2;
    const double maxDepth = spec_.soundSpeedMps * (spec_.initialTimeS + spec_.samplesPerChannel / spec_.samplingRateHz) / 2;
    std::uniform_real_distribution<double> x(-halfWidth, halfWidth), z(0.02 * maxDepth, maxDepth);
    std::normal_distribution<double> amplitude(0, 1);
    while (static_cast<int>(echoes_.size()) < spec_.speckleScatterers) {
        const Scatterer s{x(random), z(random), amplitude(random)};
        const bool inCyst = std::any_of(spec_.cysts.begin(), spec_.cysts.end(), [&](const Cyst& c) { return std::hypot(s.x - c.xM, s.z - c.zM) < c.radiusM; });
        if (!inCyst) echoes_.push_back(s);
    }
    for (const auto& p : spec_.points) {
        echoes_.push_back({p.xM, p.zM, p.amplitude});
        absorbers_.push_back({p.xM, p.zM, p.amplitude});
    }
}

double RfScene::elementX(int element) const noexcept { return (element - (spec_.elementCount - 1) / 2.0) * spec_.pitchM; }

template <typename Delay>
void RfScene::render(const std::vector<Scatterer>& scatterers, Delay transmitDelay, bool bipolar, std::span<const std::uint64_t> noiseSeeds,
                     std::span<const std::span<std::int16_t>> outs) const {
    const auto samples = static_cast<std::size_t>(spec_.samplesPerChannel);
    SONOLINK_ASSERT(noiseSeeds.size() == outs.size(), "one noise seed per RF buffer");
    for (const auto& out : outs) SONOLINK_ASSERT(out.size() == samples * static_cast<std::size_t>(spec_.elementCount), "RF buffer size mismatch");
    const auto& table = bipolar ? bipolarPulse_ : pulse_;
    const int halfTaps = static_cast<int>(table.size() / 2);
    std::vector<float> trace(samples);
    std::vector<std::mt19937_64> randoms(noiseSeeds.begin(), noiseSeeds.end());  // each buffer's own noise, as if rendered alone
    std::normal_distribution<float> noise(0.0f, static_cast<float>(std::max(spec_.noiseRms, 1e-6)));
    for (int e = 0; e < spec_.elementCount; ++e) {
        std::fill(trace.begin(), trace.end(), 0.0f);
        const double xe = elementX(e);
        for (const auto& s : scatterers) {
            const double tau = transmitDelay(s) + std::hypot(s.x - xe, s.z) / spec_.soundSpeedMps;
            const double center = (tau - spec_.initialTimeS) * spec_.samplingRateHz;  // in samples
            const auto first = static_cast<long>(std::ceil(center - pulseHalfWidthS_ * spec_.samplingRateHz));
            const auto last = static_cast<long>(std::floor(center + pulseHalfWidthS_ * spec_.samplingRateHz));
            const float amplitude = static_cast<float>(s.amplitude * spec_.speckleAmplitude);
            for (long k = std::max(first, 0L); k <= std::min(last, static_cast<long>(samples) - 1); ++k) {
                const auto tap = static_cast<long>(std::lround((static_cast<double>(k) - center) * kOversample)) + halfTaps;
                if (tap >= 0 && tap < static_cast<long>(table.size())) trace[static_cast<std::size_t>(k)] += amplitude * table[static_cast<std::size_t>(tap)];
            }
        }
        for (std::size_t o = 0; o < outs.size(); ++o) {  // the echoes once, the noise of each buffer on them
            auto* row = outs[o].data() + static_cast<std::size_t>(e) * samples;
            auto& random = randoms[o];
            for (std::size_t k = 0; k < samples; ++k) {
                const float v = std::round(trace[k] + (spec_.noiseRms > 0 ? noise(random) : 0.0f));  // noiseRms 0: the noise-free reference
                row[k] = static_cast<std::int16_t>(std::clamp(v, -32768.0f, 32767.0f));
            }
        }
    }
}

void RfScene::renderPlaneWave(double angleRad, std::uint64_t noiseSeed, std::span<std::int16_t> out) const {
    const std::span<std::int16_t> outs[] = {out};
    renderPlaneWaves(angleRad, std::span(&noiseSeed, 1), outs);
}

void RfScene::renderPlaneWaves(double angleRad, std::span<const std::uint64_t> noiseSeeds, std::span<const std::span<std::int16_t>> outs) const {
    const double sinA = std::sin(angleRad), cosA = std::cos(angleRad), c = spec_.soundSpeedMps;
    render(
        echoes_, [=](const Scatterer& s) { return (s.x * sinA + s.z * cosA) / c; }, false, noiseSeeds, outs);
}

void RfScene::renderPhotoacoustic(std::uint64_t noiseSeed, std::span<std::int16_t> out) const {
    const std::span<std::int16_t> outs[] = {out};
    renderPhotoacoustics(std::span(&noiseSeed, 1), outs);
}

void RfScene::renderPhotoacoustics(std::span<const std::uint64_t> noiseSeeds, std::span<const std::span<std::int16_t>> outs) const {
    render(
        absorbers_, [](const Scatterer&) { return 0.0; }, true, noiseSeeds, outs);
}

}  // namespace sonolink::transport::sim
