#include "gpu_tables.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <span>

#include "sonolink/beamform/iq_beamformer.h"

namespace sonolink::beamform::cuda {

GridTables gridTables(const AcquisitionGeometry& g, const PixelGrid& grid, const BeamformParams& params, int depthsPerBlock, int columnsPerBlock) {
    GridTables t;
    const auto nx = grid.x.size(), nz = grid.z.size();
    t.samplesPerMetre = static_cast<float>(g.samplingRateHz / g.soundSpeedMps);
    t.gridZ.assign(grid.z.begin(), grid.z.end());
    t.tx.resize(static_cast<std::size_t>(g.waves) * nx * nz);
    for (std::size_t w = 0; w < static_cast<std::size_t>(g.waves); ++w) {
        for (std::size_t ix = 0; ix < nx; ++ix) {
            transmitDelaySamples(g, static_cast<int>(w), grid.x[ix], t.gridZ, std::span(t.tx).subspan((w * nx + ix) * nz, nz));
        }
    }
    const double phasePerR = params.window == Window::Tukey ? std::numbers::pi / params.tukeyAlpha : std::numbers::pi;
    if (params.window == Window::Tukey) t.windowOffset = static_cast<float>(std::numbers::pi * (1 - params.tukeyAlpha) / params.tukeyAlpha);
    const auto channels = g.elementX.size();
    for (double x : grid.x) {
        for (double e : g.elementX) {
            const double d = x - e;
            // The element is inside the aperture from depth 2 F# |dx| on (the CPU reference's
            // lower_bound on the float grid: z >= edge).
            t.channel.push_back(static_cast<float>(d * d));
            t.channel.push_back(static_cast<float>(2 * params.fNumber * std::abs(d)));
            t.windowScale.push_back(params.window == Window::Rectangular ? 0.0f : static_cast<float>(phasePerR * 2 * params.fNumber * std::abs(d)));
        }
    }
    const auto depthBlocks = (nz + static_cast<std::size_t>(depthsPerBlock) - 1) / static_cast<std::size_t>(depthsPerBlock);
    for (std::size_t first = 0; first < nx; first += static_cast<std::size_t>(columnsPerBlock)) {
        const auto end = std::min(nx, first + static_cast<std::size_t>(columnsPerBlock));
        for (std::size_t b = 0; b < depthBlocks; ++b) {
            const float deepest = t.gridZ[std::min(nz, (b + 1) * static_cast<std::size_t>(depthsPerBlock)) - 1];
            int lo = static_cast<int>(channels), hi = 0;
            for (std::size_t ix = first; ix < end; ++ix) {
                for (std::size_t c = 0; c < channels; ++c) {
                    if (deepest < t.channel[2 * (ix * channels + c) + 1]) continue;
                    lo = std::min(lo, static_cast<int>(c));
                    hi = std::max(hi, static_cast<int>(c) + 1);
                }
            }
            t.channelRange.push_back(hi > 0 ? lo : 0);
            t.channelRange.push_back(hi);
        }
    }
    return t;
}

RayTables rayTables(const AcquisitionGeometry& g, const std::vector<double>& r, const std::vector<double>& theta, const BeamformParams& params) {
    RayTables t;
    const auto nr = r.size(), nt = theta.size();
    t.samplesPerMetre = static_cast<float>(g.samplingRateHz / g.soundSpeedMps);
    t.elementX.assign(g.elementX.begin(), g.elementX.end());
    t.x.resize(nt * nr);
    t.z.resize(nt * nr);
    t.tx.assign(static_cast<std::size_t>(g.waves) * nt * nr, 0.0f);
    for (std::size_t it = 0; it < nt; ++it) {
        const double s = std::sin(theta[it]), c = std::cos(theta[it]);
        for (std::size_t ir = 0; ir < nr; ++ir) {
            const double x = r[ir] * s, z = r[ir] * c;
            t.x[it * nr + ir] = static_cast<float>(x);
            t.z[it * nr + ir] = static_cast<float>(z);
            if (!(z > 0)) continue;
            const float zf = static_cast<float>(z);
            for (std::size_t w = 0; w < static_cast<std::size_t>(g.waves); ++w) {
                transmitDelaySamples(g, static_cast<int>(w), x, std::span(&zf, 1), std::span(t.tx).subspan((w * nt + it) * nr + ir, 1));
            }
        }
        // The depths at which each element has a weight: apodization() in double, as the CPU
        // reference decides (an interval: 2 F# |r sin theta - e| <= r cos theta is convex in r).
        for (double e : g.elementX) {
            int first = -1, last = 0;
            for (std::size_t ir = 0; ir < nr; ++ir) {
                const double x = r[ir] * s, z = r[ir] * c;
                if (!(z > 0) || apodization(x - e, z, params) == 0.0f) continue;
                if (first < 0) first = static_cast<int>(ir);
                last = static_cast<int>(ir) + 1;
            }
            t.apertureFirst.push_back(std::max(first, 0));
            t.apertureLast.push_back(last);
        }
    }
    return t;
}

IqTables iqTables(const AcquisitionGeometry& rf, double modulationFrequencyHz, int decimation) {
    IqTables t;
    const auto d = iqDemodulation(rf, modulationFrequencyHz);
    t.decimation = decimation;
    t.halfLength = d.halfLength;
    t.taps = d.taps;
    t.layout = rf;
    t.layout.samples = (rf.samples + decimation - 1) / decimation;
    t.layout.samplingRateHz = rf.samplingRateHz / decimation;
    for (int o = 0; o < t.layout.samples; ++o) t.mixer.push_back(2.0f * d.mixer[static_cast<std::size_t>(o) * static_cast<std::size_t>(decimation)]);
    // The sample at index s of the IQ record was taken at t = initialTime + s / fs.
    const double radiansPerSample = 2 * std::numbers::pi * modulationFrequencyHz / t.layout.samplingRateHz;
    const double radiansAtFirst = 2 * std::numbers::pi * modulationFrequencyHz * rf.initialTimeS;
    t.omega = static_cast<float>(radiansPerSample);
    for (int k = 0; k < t.layout.samples; ++k) {
        t.midPhasor.emplace_back(std::polar(1.0, radiansAtFirst + radiansPerSample * (static_cast<double>(k) + 0.5)));
    }
    return t;
}

}  // namespace sonolink::beamform::cuda
