#include "sonolink/app/phantom_reference.h"

#include <numbers>

#include <fmt/format.h>

#include "sonolink/beamform/cpu_beamformer.h"
#include "sonolink/transport/sim/rf_scene.h"

namespace sonolink::app {

Result<engine::PhantomReference> phantomReference(const transport::Configure& configure, const beamform::AcquisitionGeometry& geometry,
                                                  const engine::ImagingSetup& imaging) {
    if (configure.photoacoustic) return fail(ErrorCode::InvalidArgument, "the phantom check images plane waves, not photoacoustic frames");
    if (configure.anglesMilliDeg.size() != static_cast<std::size_t>(geometry.waves)) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{} angles for {} waves", configure.anglesMilliDeg.size(), geometry.waves));
    }
    auto spec = transport::sim::SceneSpec::standardPhantom(configure.channelCount, configure.pitchNm * 1e-9, configure.centerFrequencyHz,
                                                           configure.samplingRateHz, static_cast<int>(configure.samplesPerChannel),
                                                           configure.soundSpeedMmPerS * 1e-3);
    spec.noiseRms = 0;
    const transport::sim::RfScene scene(spec);
    const auto perWave = static_cast<std::size_t>(geometry.channels) * static_cast<std::size_t>(geometry.samples);
    std::vector<std::int16_t> samples(geometry.samplesPerFrame());
    for (int w = 0; w < geometry.waves; ++w) {
        scene.renderPlaneWave(configure.anglesMilliDeg[static_cast<std::size_t>(w)] * 1e-3 * std::numbers::pi / 180, 0,
                              std::span(samples).subspan(static_cast<std::size_t>(w) * perWave, perWave));
    }
    auto envelope = beamform::delayAndSum(beamform::ChannelDataView{&geometry, {}, samples}, imaging.grid, imaging.params, imaging.beamformThreads);
    if (!envelope) return fail(std::move(envelope.error()));
    beamform::envelopeAlongDepth(*envelope, imaging.beamformThreads);
    engine::PhantomReference r;
    r.envelope = std::move(*envelope);
    for (const auto& p : spec.points) r.points.emplace_back(p.xM, p.zM);
    return r;
}

}  // namespace sonolink::app
