#include "cluster_front_end.h"

#include "sonolink/transport/sim/rf_scene.h"

namespace sonolink::cli {

ClusterFrontEnd::ClusterFrontEnd(const cluster::SimulatedScene& scene, const cluster::ClusterPlan& plan) : plan_(plan) {
    const beamform::AcquisitionGeometry& g = plan.geometry;
    const transport::sim::RfScene rf(transport::sim::SceneSpec::standardPhantom(g.channels, scene.pitchM, scene.centerFrequencyHz, scene.samplingRateHz,
                                                                                scene.samples, scene.soundSpeedMps));
    const auto frames = static_cast<std::size_t>(scene.distinctFrames);
    const std::size_t perWave = static_cast<std::size_t>(g.channels) * static_cast<std::size_t>(g.samples);
    frames_.assign(frames, std::vector<std::int16_t>(g.samplesPerFrame()));
    for (int w = 0; w < g.waves; ++w) {
        std::vector<std::uint64_t> seeds;
        std::vector<std::span<std::int16_t>> outs;
        for (std::size_t f = 0; f < frames; ++f) {
            seeds.push_back(1000 * (f + 1) + static_cast<std::uint64_t>(w));
            outs.push_back(std::span(frames_[f]).subspan(static_cast<std::size_t>(w) * perWave, perWave));
        }
        if (g.isShot()) rf.renderPhotoacoustics(seeds, outs);
        else rf.renderPlaneWaves(g.angleRad[static_cast<std::size_t>(w)], seeds, outs);
    }
    slices_.resize(frames * plan.hosts.size());
}

std::span<const std::int16_t> ClusterFrontEnd::channels(std::size_t host, std::uint64_t trigger) {
    const std::size_t frame = trigger % frames_.size();
    std::vector<std::int16_t>& slice = slices_[frame * plan_.hosts.size() + host];
    if (slice.empty()) slice = cluster::sliceChannels(plan_.geometry, frames_[frame], plan_.hosts[host].firstChannel, plan_.hosts[host].channelCount);
    return slice;
}

}  // namespace sonolink::cli
