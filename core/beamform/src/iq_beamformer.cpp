#include "sonolink/beamform/iq_beamformer.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include <fmt/format.h>

#include "parallel_for.h"

namespace sonolink::beamform {
namespace {

constexpr int kFilterHalfLength = 24;  // taps each side of the low-pass filter's centre

// A Hamming-windowed sinc low-pass filter with cutoff `cutoff` (cycles per sample), unit DC gain.
std::vector<float> lowPass(double cutoff) {
    std::vector<double> taps(2 * kFilterHalfLength + 1);
    double sum = 0;
    for (int k = -kFilterHalfLength; k <= kFilterHalfLength; ++k) {
        const double sinc = k == 0 ? 2 * cutoff : std::sin(2 * std::numbers::pi * cutoff * k) / (std::numbers::pi * k);
        const double window = 0.54 + 0.46 * std::cos(std::numbers::pi * k / kFilterHalfLength);
        taps[static_cast<std::size_t>(k + kFilterHalfLength)] = sinc * window;
        sum += sinc * window;
    }
    std::vector<float> out;
    for (double t : taps) out.push_back(static_cast<float>(t / sum));
    return out;
}

template <typename T>
void demodulateTrace(const T* rf, int n, double fdOverFs, double phase0, const std::vector<float>& taps, std::complex<float>* out) {
    std::vector<std::complex<float>> mixed(static_cast<std::size_t>(n));
    for (int k = 0; k < n; ++k) {
        const double phase = -2 * std::numbers::pi * fdOverFs * k + phase0;
        mixed[static_cast<std::size_t>(k)] = static_cast<float>(rf[k]) * std::complex<float>(static_cast<float>(std::cos(phase)), static_cast<float>(std::sin(phase)));
    }
    for (int k = 0; k < n; ++k) {  // zero-phase filter: the baseband keeps the RF's timing
        std::complex<float> acc = 0;
        for (int j = -kFilterHalfLength; j <= kFilterHalfLength; ++j) {
            const int i = k + j;
            if (i >= 0 && i < n) acc += taps[static_cast<std::size_t>(j + kFilterHalfLength)] * mixed[static_cast<std::size_t>(i)];
        }
        out[k] = 2.0f * acc;  // the analytic signal's amplitude (the negative band is filtered out)
    }
}

}  // namespace

Result<std::vector<std::complex<float>>> demodulateToIq(const ChannelDataView& rf, double modulationFrequencyHz) {
    if (auto ok = rf.validate(); !ok) return fail(std::move(ok.error()));
    if (!(modulationFrequencyHz > 0) || modulationFrequencyHz >= rf.geometry->samplingRateHz / 2) {
        return fail(ErrorCode::InvalidArgument, fmt::format("modulation frequency {} Hz must lie between 0 and half the sampling rate ({} Hz)",
                                                            modulationFrequencyHz, rf.geometry->samplingRateHz / 2));
    }
    const double fdOverFs = modulationFrequencyHz / rf.geometry->samplingRateHz;
    const double phase0 = -2 * std::numbers::pi * modulationFrequencyHz * rf.geometry->initialTimeS;  // t of sample 0 is the initial time
    const auto taps = lowPass(fdOverFs);
    const auto n = static_cast<std::size_t>(rf.geometry->samples);
    std::vector<std::complex<float>> iq(static_cast<std::size_t>(rf.geometry->waves) * static_cast<std::size_t>(rf.geometry->channels) * n);
    for (int w = 0; w < rf.geometry->waves; ++w) {
        for (int c = 0; c < rf.geometry->channels; ++c) {
            auto* out = iq.data() + (static_cast<std::size_t>(w) * static_cast<std::size_t>(rf.geometry->channels) + static_cast<std::size_t>(c)) * n;
            if (rf.samples16.empty()) demodulateTrace(rf.trace<float>(w, c), rf.geometry->samples, fdOverFs, phase0, taps, out);
            else demodulateTrace(rf.trace<std::int16_t>(w, c), rf.geometry->samples, fdOverFs, phase0, taps, out);
        }
    }
    return iq;
}

BeamformedImage IqImage::magnitude() const {
    BeamformedImage image;
    image.nx = nx;
    image.nz = nz;
    for (const auto& v : columns) image.columns.push_back(std::abs(v));
    return image;
}

Result<IqImage> delayAndSumIq(const AcquisitionGeometry& layout, std::span<const std::complex<float>> iq, double modulationFrequencyHz,
                              const PixelGrid& grid, const BeamformParams& params, unsigned threads, bool rotate) {
    if (auto ok = layout.validate(); !ok) return fail(std::move(ok.error()));
    if (auto ok = grid.validate(); !ok) return fail(std::move(ok.error()));
    const auto n = static_cast<std::size_t>(layout.samples);
    if (iq.size() != static_cast<std::size_t>(layout.waves) * static_cast<std::size_t>(layout.channels) * n) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{} IQ samples for {} waves x {} channels x {} samples", iq.size(), layout.waves, layout.channels, n));
    }
    if (!(params.fNumber > 0)) return fail(ErrorCode::InvalidArgument, "the F-number must be positive");
    IqImage image;
    image.nx = grid.x.size();
    image.nz = grid.z.size();
    image.columns.assign(image.nx * image.nz, {0.0f, 0.0f});
    const std::vector<float> z(grid.z.begin(), grid.z.end());
    const double samplesPerMetre = layout.samplingRateHz / layout.soundSpeedMps;
    const float lastIndex = static_cast<float>(layout.samples - 1);
    // Phase per sample of delay: the sample at index s was taken at t = initialTime + s / fs.
    const double radiansPerSample = 2 * std::numbers::pi * modulationFrequencyHz / layout.samplingRateHz;
    const double radiansAtFirst = 2 * std::numbers::pi * modulationFrequencyHz * layout.initialTimeS;
    parallelFor(image.nx, threads, [&](std::size_t ix) {
        const double x = grid.x[ix];
        auto* column = image.columns.data() + ix * image.nz;
        std::vector<float> tx(image.nz);
        for (int w = 0; w < layout.waves; ++w) {
            const auto wave = static_cast<std::size_t>(w);
            const double distance = layout.sourceDistance.empty() ? std::numeric_limits<double>::infinity() : layout.sourceDistance[wave];
            transmitDelaySamples(layout.angleRad[wave], distance, x, z, layout.samplingRateHz, layout.soundSpeedMps, layout.initialTimeS, tx);
            for (int c = 0; c < layout.channels; ++c) {
                const double dx = x - layout.elementX[static_cast<std::size_t>(c)];
                const auto* trace = iq.data() + (wave * static_cast<std::size_t>(layout.channels) + static_cast<std::size_t>(c)) * n;
                for (std::size_t iz = 0; iz < image.nz; ++iz) {
                    const float weight = apodization(dx, z[iz], params);
                    if (weight == 0.0f) continue;
                    const float s = tx[iz] + static_cast<float>(std::hypot(dx, static_cast<double>(z[iz])) * samplesPerMetre);
                    if (!(s >= 0.0f && s < lastIndex)) continue;  // outside the record: contributes 0
                    const auto i = static_cast<std::size_t>(s);
                    const float frac = s - static_cast<float>(i);
                    const std::complex<float> sample = trace[i] + frac * (trace[i + 1] - trace[i]);
                    const double phase = rotate ? radiansAtFirst + radiansPerSample * s : 0.0;
                    column[iz] += weight * sample * std::complex<float>(static_cast<float>(std::cos(phase)), static_cast<float>(std::sin(phase)));
                }
            }
        }
    });
    return image;
}

}  // namespace sonolink::beamform
