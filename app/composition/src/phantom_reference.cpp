#include "sonolink/app/phantom_reference.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <fmt/format.h>

#include "sonolink/beamform/cpu_beamformer.h"
#include "sonolink/transport/sim/rf_scene.h"

namespace sonolink::app {

Result<engine::PhantomReference> phantomReference(const transport::Configure& configure, const beamform::AcquisitionGeometry& geometry,
                                                  const engine::ImagingSetup& imaging, const std::optional<beamform::AcquisitionGeometry>& shotGeometry) {
    if (configure.photoacoustic) return fail(ErrorCode::InvalidArgument, "the phantom check images plane waves, not photoacoustic frames");
    if (configure.anglesMilliDeg.size() != static_cast<std::size_t>(geometry.waves)) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{} angles for {} waves", configure.anglesMilliDeg.size(), geometry.waves));
    }
    auto spec =
        transport::sim::SceneSpec::standardPhantom(configure.channelCount, configure.pitchNm * 1e-9, configure.centerFrequencyHz, configure.samplingRateHz,
                                                   static_cast<int>(configure.samplesPerChannel), configure.soundSpeedMmPerS * 1e-3);
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
    if (shotGeometry) {  // a shot of the same phantom, as the front end renders it: its absorbers at the point targets
        std::vector<std::int16_t> shot(shotGeometry->samplesPerFrame());
        scene.renderPhotoacoustic(0, shot);
        // As a front end with the configured system delay sends it: the record starts that long
        // before the sound's time zero (every channel's samples that much later).
        const auto delay = static_cast<std::size_t>(std::lround(std::max(0.0, -shotGeometry->initialTimeS) * shotGeometry->samplingRateHz));
        const auto perChannel = static_cast<std::size_t>(shotGeometry->samples);
        for (std::size_t c = 0; delay > 0 && c < static_cast<std::size_t>(shotGeometry->channels); ++c) {
            const auto row = std::span(shot).subspan(c * perChannel, perChannel);
            std::shift_right(row.begin(), row.end(), static_cast<std::ptrdiff_t>(std::min(delay, perChannel)));
            std::fill_n(row.begin(), std::min(delay, perChannel), std::int16_t{0});
        }
        auto shotEnvelope = beamform::delayAndSum(beamform::ChannelDataView{&*shotGeometry, {}, shot}, imaging.grid, imaging.params, imaging.beamformThreads);
        if (!shotEnvelope) return fail(std::move(shotEnvelope.error()).addContext("the laser shot's reference"));
        beamform::envelopeAlongDepth(*shotEnvelope, imaging.beamformThreads);
        r.shotEnvelope = std::move(*shotEnvelope);
    }
    return r;
}

}  // namespace sonolink::app
