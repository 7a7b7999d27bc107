#include "cpu_imager.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "sonolink/beamform/cpu_beamformer.h"

namespace sonolink::engine {

Status checkBlockFits(const ingest::Frame& frame, std::uint16_t b, const beamform::AcquisitionGeometry& g) {
    const auto& block = frame.block(b);
    const auto& h = block.header;
    if (h.waveIndex >= g.waves || h.firstChannel + h.channelCount > g.channels || h.firstSample + h.sampleCount > static_cast<std::uint32_t>(g.samples) ||
        block.payload.size() != static_cast<std::size_t>(h.channelCount) * h.sampleCount * 2) {
        return fail(ErrorCode::InvalidArgument, fmt::format("frame {}: block {} does not fit the configured geometry", frame.frameId(), b));
    }
    return {};
}

beamform::PixelGrid oversampledGrid(const beamform::PixelGrid& grid, int depthOversampling) {
    const auto k = static_cast<std::size_t>(std::max(depthOversampling, 1));
    beamform::PixelGrid fine;
    fine.x = grid.x;
    const auto& z = grid.z;
    for (std::size_t i = 0; i < z.size(); ++i) {
        const bool last = i + 1 == z.size();
        for (std::size_t j = 0; j < (last ? 1 : k); ++j) {
            fine.z.push_back(last ? z[i] : z[i] + (z[i + 1] - z[i]) * static_cast<double>(j) / static_cast<double>(k));
        }
    }
    return fine;
}

Result<beamform::BeamformedImage> oversampledEnvelope(const beamform::ChannelDataView& frame, const ImagingSetup& setup,
                                                      const beamform::PixelGrid& beamformGrid) {
    auto rf = beamform::delayAndSum(frame, beamformGrid, setup.params, setup.beamformThreads);
    if (!rf) return rf;
    beamform::envelopeAlongDepth(*rf, setup.beamformThreads, static_cast<std::size_t>(std::max(setup.depthOversampling, 1)));  // the grid's rows
    return rf;
}

CpuImager::CpuImager(const beamform::AcquisitionGeometry& geometry, const ImagingSetup& imaging)
    : geometry_(geometry), imaging_(imaging), beamformGrid_(oversampledGrid(imaging.grid, imaging.depthOversampling)) {
    samples_.resize(geometry_.samplesPerFrame());
}

Status CpuImager::load(const ingest::Frame& frame) {
    const auto channels = static_cast<std::size_t>(geometry_.channels), samples = static_cast<std::size_t>(geometry_.samples);
    for (std::uint16_t b = 0; b < frame.blockCount(); ++b) {
        if (auto ok = checkBlockFits(frame, b, geometry_); !ok) return ok;
        const auto& block = frame.block(b);
        const auto& h = block.header;
        for (std::size_t c = 0; c < h.channelCount; ++c) {
            std::memcpy(&samples_[(h.waveIndex * channels + h.firstChannel + c) * samples + h.firstSample],
                        block.payload.data() + c * h.sampleCount * 2, h.sampleCount * 2);
        }
    }
    return {};
}

Result<beamform::BeamformedImage> CpuImager::envelope() {
    return oversampledEnvelope(beamform::ChannelDataView{&geometry_, {}, samples_}, imaging_, beamformGrid_);
}

}  // namespace sonolink::engine
