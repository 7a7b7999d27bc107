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

CpuImager::CpuImager(const beamform::AcquisitionGeometry& geometry, const ImagingSetup& imaging) : geometry_(geometry), imaging_(imaging) {
    samples_.resize(geometry_.samplesPerFrame());
}

Status gatherFrameSamples(const ingest::Frame& frame, const beamform::AcquisitionGeometry& g, std::span<std::int16_t> out) {
    const auto channels = static_cast<std::size_t>(g.channels), samples = static_cast<std::size_t>(g.samples);
    for (std::uint16_t b = 0; b < frame.blockCount(); ++b) {
        if (auto ok = checkBlockFits(frame, b, g); !ok) return ok;
        const auto& block = frame.block(b);
        const auto& h = block.header;
        for (std::size_t c = 0; c < h.channelCount; ++c) {
            std::memcpy(&out[(h.waveIndex * channels + h.firstChannel + c) * samples + h.firstSample], block.payload.data() + c * h.sampleCount * 2,
                        h.sampleCount * 2);
        }
    }
    return {};
}

Status CpuImager::load(const ingest::Frame& frame) { return gatherFrameSamples(frame, geometry_, samples_); }

Result<beamform::BeamformedImage> CpuImager::envelope() {
    auto rf = beamform::delayAndSum(beamform::ChannelDataView{&geometry_, {}, samples_}, imaging_.grid, imaging_.params, imaging_.beamformThreads);
    if (rf) beamform::envelopeAlongDepth(*rf, imaging_.beamformThreads);
    return rf;
}

}  // namespace sonolink::engine
