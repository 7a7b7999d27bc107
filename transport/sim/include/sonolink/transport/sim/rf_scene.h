// RfScene: physically plausible RF channel data for a linear array: point targets, anechoic
// cysts and a speckle background, insonified by steered plane waves (or, for photoacoustic
// frames, emitting on their own). USTB conventions: t = 0 when the plane wave crosses the
// origin, transmit delay (x sin θ + z cos θ)/c, receive delay sqrt((x − x_e)^2 + z^2)/c,
// sample k at t = initialTime + k / fs. Pulses are Gaussian-windowed cosines.
// Thread contract: immutable after construction; render*() may run on several threads.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace sonolink::transport::sim {

struct PointTarget {
    double xM = 0;
    double zM = 0;
    double amplitude = 1;  // relative to a speckle scatterer of amplitude 1
};

struct Cyst {
    double xM = 0;
    double zM = 0;
    double radiusM = 0;
};

struct SceneSpec {
    int elementCount = 128;
    double pitchM = 0.3e-3;
    double centerFrequencyHz = 5e6;
    double fractionalBandwidth = 0.6;  // -6 dB
    double samplingRateHz = 40e6;
    int samplesPerChannel = 2048;
    double soundSpeedMps = 1540;
    double initialTimeS = 0;
    std::vector<PointTarget> points;
    std::vector<Cyst> cysts;
    int speckleScatterers = 4000;
    double speckleAmplitude = 120;  // ADC counts per scatterer
    double noiseRms = 8;            // ADC counts
    std::uint64_t seed = 1;

    // The standard phantom: six point targets (asymmetric, to catch flipped element order)
    // and one cyst inside the imaged depth, in speckle.
    [[nodiscard]] static SceneSpec standardPhantom(int elementCount, double pitchM, double centerFrequencyHz, double samplingRateHz, int samplesPerChannel,
                                                   double soundSpeedMps);
};

class RfScene {
public:
    explicit RfScene(SceneSpec spec);

    [[nodiscard]] const SceneSpec& spec() const noexcept { return spec_; }
    [[nodiscard]] double elementX(int element) const noexcept;
    // Channel data for one plane-wave transmit, [channel][sample], int16 (clipped).
    // noiseSeed varies the thermal noise from frame to frame.
    void renderPlaneWave(double angleRad, std::uint64_t noiseSeed, std::span<std::int16_t> out) const;
    // The same transmit into several buffers, each with the noise of its own seed (the echoes
    // computed once): each equals renderPlaneWave with that seed.
    void renderPlaneWaves(double angleRad, std::span<const std::uint64_t> noiseSeeds, std::span<const std::span<std::int16_t>> outs) const;
    // Receive-only photoacoustic frame: the point targets emit at t = 0 (the laser trigger).
    void renderPhotoacoustic(std::uint64_t noiseSeed, std::span<std::int16_t> out) const;
    void renderPhotoacoustics(std::span<const std::uint64_t> noiseSeeds, std::span<const std::span<std::int16_t>> outs) const;

private:
    struct Scatterer {
        double x, z, amplitude;
    };
    template <typename Delay>
    void render(const std::vector<Scatterer>& scatterers, Delay transmitDelay, bool bipolar, std::span<const std::uint64_t> noiseSeeds,
                std::span<const std::span<std::int16_t>> outs) const;

    SceneSpec spec_;
    std::vector<Scatterer> echoes_;     // speckle + point targets
    std::vector<Scatterer> absorbers_;  // point targets only (photoacoustic)
    std::vector<float> pulse_;          // tabulated pulse, oversampled
    std::vector<float> bipolarPulse_;   // its derivative, for photoacoustic sources
    double pulseHalfWidthS_ = 0;
    static constexpr int kOversample = 16;
};

}  // namespace sonolink::transport::sim
