#include "sonolink/cluster/cluster_plan.h"

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "plan_json.h"

namespace sonolink::cluster {

std::string_view toString(PartialKind kind) noexcept { return kind == PartialKind::Iq ? "iq" : "rf"; }

Status ClusterPlan::validate() const {
    if (auto ok = geometry.validate(); !ok) return fail(ErrorCode::InvalidArgument, fmt::format("plan's geometry: {}", ok.error().message()));
    if (auto ok = grid.validate(); !ok) return fail(ErrorCode::InvalidArgument, fmt::format("plan's grid: {}", ok.error().message()));
    if (hosts.empty()) return fail(ErrorCode::InvalidArgument, "plan names no host");
    int next = 0;
    for (std::size_t h = 0; h < hosts.size(); ++h) {
        const HostChannels& range = hosts[h];
        if (range.channelCount <= 0) return fail(ErrorCode::InvalidArgument, fmt::format("plan's host {} has {} channels", h, range.channelCount));
        if (range.firstChannel != next)
            return fail(ErrorCode::InvalidArgument, fmt::format("plan's host {} starts at channel {}, expected {} (hosts cover every channel once, in order)",
                                                                h, range.firstChannel, next));
        next += range.channelCount;
    }
    if (next != geometry.channels)
        return fail(ErrorCode::InvalidArgument, fmt::format("plan's hosts cover {} channels of the array's {}", next, geometry.channels));
    if (kind == PartialKind::Iq && !(modulationFrequencyHz > 0))
        return fail(ErrorCode::InvalidArgument, fmt::format("plan's IQ modulation frequency {} Hz is not positive", modulationFrequencyHz));
    if (kind == PartialKind::Iq && iqDecimation < 1) return fail(ErrorCode::InvalidArgument, fmt::format("plan's IQ decimation {} is below 1", iqDecimation));
    if (!(frameRateHz > 0) || !std::isfinite(frameRateHz))
        return fail(ErrorCode::InvalidArgument, fmt::format("plan's frame rate {} Hz is not positive", frameRateHz));
    if (threads == 0) return fail(ErrorCode::InvalidArgument, "plan's beamformer threads must be pinned (not 0): a host's partial follows them");
    return {};
}

std::size_t ClusterPlan::partialValues() const noexcept { return grid.x.size() * grid.z.size() * (kind == PartialKind::Iq ? 2u : 1u); }

std::string toJson(const ClusterPlan& plan) { return planToJsonValue(plan).dump(); }

Result<ClusterPlan> planFromJson(std::string_view json) {
    const nlohmann::json value = nlohmann::json::parse(json, nullptr, false);
    if (value.is_discarded() || !value.is_object()) return fail(ErrorCode::InvalidArgument, "plan is not a JSON object");
    auto plan = planFromJsonValue(value);
    if (!plan) return fail(plan.error());
    if (auto ok = plan->validate(); !ok) return fail(ok.error());
    return plan;
}

std::uint64_t planHash(const ClusterPlan& plan) {
    std::uint64_t hash = 0xcbf29ce484222325ull;
    for (const char c : toJson(plan)) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 0x100000001b3ull;
    }
    return hash;
}

beamform::AcquisitionGeometry hostGeometry(const ClusterPlan& plan, std::size_t host) {
    const HostChannels& range = plan.hosts.at(host);
    beamform::AcquisitionGeometry g = plan.geometry;
    g.channels = range.channelCount;
    const auto first = plan.geometry.elementX.begin() + range.firstChannel;
    g.elementX.assign(first, first + range.channelCount);
    return g;
}

std::vector<std::int16_t> sliceChannels(const beamform::AcquisitionGeometry& whole, std::span<const std::int16_t> frame, int first, int count) {
    const auto samples = static_cast<std::size_t>(whole.samples);
    std::vector<std::int16_t> out(static_cast<std::size_t>(whole.waves) * static_cast<std::size_t>(count) * samples);
    for (int w = 0; w < whole.waves; ++w) {
        const std::size_t from = (static_cast<std::size_t>(w) * static_cast<std::size_t>(whole.channels) + static_cast<std::size_t>(first)) * samples;
        const std::size_t to = static_cast<std::size_t>(w) * static_cast<std::size_t>(count) * samples;
        std::copy_n(frame.begin() + static_cast<std::ptrdiff_t>(from), static_cast<std::size_t>(count) * samples,
                    out.begin() + static_cast<std::ptrdiff_t>(to));
    }
    return out;
}

}  // namespace sonolink::cluster
