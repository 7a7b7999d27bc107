// A GPU beamformer's set-up: which path it takes (grid, IQ or rays), its IQ decimation, and
// the checks a set-up must pass before any device memory is taken.
#include "gpu_setup.h"

#include <fmt/format.h>

#include "sonolink/beamform/iq_beamformer.h"

namespace sonolink::beamform::cuda {

BeamformPath pathOf(const GpuBeamformerSetup& s) {
    if (!s.sectorR.empty() || !s.sectorTheta.empty()) return BeamformPath::Rays;
    return s.modulationFrequencyHz > 0 ? BeamformPath::Iq : BeamformPath::Grid;
}

int decimationOf(const GpuBeamformerSetup& s) {
    if (pathOf(s) != BeamformPath::Iq) return 1;
    return s.iqDecimation > 0 ? s.iqDecimation : beamform::iqDecimation(s.geometry.samplingRateHz, s.modulationFrequencyHz);
}

Status validateSetup(const GpuBeamformerSetup& s) {
    if (auto ok = s.geometry.validate(); !ok) return ok;
    if (!(s.params.fNumber > 0)) return fail(ErrorCode::InvalidArgument, "the F-number must be positive");
    std::size_t columns = s.grid.x.size();
    if (pathOf(s) == BeamformPath::Rays) {
        if (s.sectorR.empty() || s.sectorTheta.empty()) {
            return fail(ErrorCode::InvalidArgument,
                        fmt::format("sector imaging needs ray depths and angles ({} and {} given)", s.sectorR.size(), s.sectorTheta.size()));
        }
        if (s.modulationFrequencyHz > 0) return fail(ErrorCode::InvalidArgument, "sector imaging beamforms RF: no modulation frequency");
        if (auto ok = PixelGrid{s.sectorTheta, s.sectorR}.validate(); !ok) return fail(std::move(ok.error()).addContext("sector depths r"));
        for (std::size_t i = 1; i < s.sectorTheta.size(); ++i) {
            if (!(s.sectorTheta[i] > s.sectorTheta[i - 1])) {
                return fail(ErrorCode::InvalidArgument,
                            fmt::format("sector angles must increase: theta[{}] = {} after {}", i, s.sectorTheta[i], s.sectorTheta[i - 1]));
            }
        }
        columns = s.sectorTheta.size();
    } else if (auto ok = s.grid.validate(); !ok) {
        return ok;
    }
    if (s.modulationFrequencyHz < 0 || (s.modulationFrequencyHz > 0 && s.modulationFrequencyHz >= s.geometry.samplingRateHz / 2)) {
        return fail(ErrorCode::InvalidArgument, fmt::format("modulation frequency {} Hz must lie between 0 and half the sampling rate ({} Hz)",
                                                            s.modulationFrequencyHz, s.geometry.samplingRateHz / 2));
    }
    if (pathOf(s) == BeamformPath::Iq) {
        const int d = decimationOf(s);
        const double iqRate = s.geometry.samplingRateHz / d;
        if (d < 1 || d > s.geometry.samples || !(iqRate > 2 * s.modulationFrequencyHz)) {
            return fail(ErrorCode::InvalidArgument, fmt::format("IQ decimation {} of {} samples at {} Hz: the IQ rate must stay above twice the "
                                                                "modulation frequency ({} Hz)",
                                                                d, s.geometry.samples, s.geometry.samplingRateHz, s.modulationFrequencyHz));
        }
    }
    if (s.kernel.conversionsByRounding && s.geometry.samples >= (1 << 22)) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{} samples a trace: conversions by rounding need fewer than 2^22", s.geometry.samples));
    }
    if (s.framesPerChunk <= 0 || columns * static_cast<std::size_t>(s.framesPerChunk) > 65535) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{} frames per chunk of {} columns: 1 to 65535 columns per chunk", s.framesPerChunk, columns));
    }
    return {};
}

}  // namespace sonolink::beamform::cuda
