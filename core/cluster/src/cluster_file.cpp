#include "sonolink/cluster/cluster_file.h"

#include <cmath>
#include <fstream>
#include <numbers>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "plan_json.h"
#include "sonolink/util/build_info.h"

namespace sonolink::cluster {
namespace {

using nlohmann::json;

// Reads section[key] into out when it is there (out keeps its default otherwise); a value of the
// wrong type is named by its path.
class Section {
public:
    Section(const json& value, std::string path) : value_(value), path_(std::move(path)) {}
    template <typename T> Status optional(const char* key, T& out) const {
        const auto it = value_.find(key);
        if (it == value_.end()) return {};
        try {
            out = it->get<T>();
        } catch (const json::exception&) {
            return fail(ErrorCode::InvalidArgument, fmt::format("{}.{}: {} is of the wrong type", path_, key, it->dump()));
        }
        return {};
    }
    template <typename T> Status required(const char* key, T& out) const {
        if (!value_.contains(key)) return fail(ErrorCode::InvalidArgument, fmt::format("{}.{} is missing", path_, key));
        return optional(key, out);
    }
    [[nodiscard]] Result<Section> child(const char* key) const {
        const auto it = value_.find(key);
        if (it == value_.end() || !it->is_object()) return fail(ErrorCode::InvalidArgument, fmt::format("{}.{} is missing or not an object", path_, key));
        return Section(*it, path_.empty() ? key : path_ + "." + key);
    }
    // section[key], or an empty section of that name when the file leaves it out.
    [[nodiscard]] Section childOrEmpty(const char* key) const {
        static const json kEmpty = json::object();
        const auto it = value_.find(key);
        return it != value_.end() && it->is_object() ? Section(*it, path_.empty() ? key : path_ + "." + key) : Section(kEmpty, key);
    }

private:
    const json& value_;
    std::string path_;
};

Status firstFailure(std::initializer_list<Status> steps) {
    for (const Status& s : steps)
        if (!s) return s;
    return {};
}

Status readTiming(const Section& s, ClusterTiming& t) {
    std::string incomplete = "flag";
    if (auto ok = firstFailure({s.optional("frame_rate_hz", t.frameRateHz), s.optional("deadline_frames", t.deadlineFrames),
                                s.optional("heartbeat_ms", t.heartbeatMs), s.optional("host_lost_ms", t.hostLostMs), s.optional("incomplete", incomplete)});
        !ok)
        return ok;
    if (incomplete != "flag" && incomplete != "drop")
        return fail(ErrorCode::InvalidArgument, fmt::format("timing.incomplete: \"{}\" is neither \"flag\" nor \"drop\"", incomplete));
    t.incomplete = incomplete == "drop" ? IncompletePolicy::Drop : IncompletePolicy::ShowFlagged;
    if (!(t.deadlineFrames > 0) || t.heartbeatMs <= 0 || t.hostLostMs <= t.heartbeatMs)
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("timing: deadline_frames {} must be positive, heartbeat_ms {} positive and host_lost_ms {} longer than it", t.deadlineFrames,
                                t.heartbeatMs, t.hostLostMs));
    return {};
}

Status readHosts(const json& root, std::vector<ClusterHost>& hosts) {
    const auto it = root.find("hosts");
    if (it == root.end() || !it->is_array() || it->empty()) return fail(ErrorCode::InvalidArgument, "hosts is missing or empty");
    for (std::size_t i = 0; i < it->size(); ++i) {
        const Section s((*it)[i], fmt::format("hosts[{}]", i));
        ClusterHost host;
        std::vector<int> channels;
        if (auto ok = firstFailure({s.required("name", host.name), s.optional("address", host.address), s.required("channels", channels)}); !ok) return ok;
        if (channels.size() != 2 || channels[1] <= channels[0])
            return fail(ErrorCode::InvalidArgument, fmt::format("hosts[{}].channels: [first, end) with end > first, not {}", i, (*it)[i]["channels"].dump()));
        host.firstChannel = channels[0];
        host.channelCount = channels[1] - channels[0];
        hosts.push_back(std::move(host));
    }
    return {};
}

// The plan's geometry: a linear array of every host's channels at the scene's pitch, plane waves
// at the given angles (or one photoacoustic shot).
Status readAcquisition(const Section& s, SimulatedScene& scene, ClusterPlan& plan, int channels) {
    std::vector<double> anglesDeg{0};
    bool photoacoustic = false;
    if (auto ok = firstFailure({s.optional("pitch_m", scene.pitchM), s.optional("center_frequency_hz", scene.centerFrequencyHz),
                                s.optional("sampling_rate_hz", scene.samplingRateHz), s.optional("samples", scene.samples),
                                s.optional("sound_speed_m_s", scene.soundSpeedMps), s.optional("distinct_frames", scene.distinctFrames),
                                s.optional("angles_deg", anglesDeg), s.optional("photoacoustic", photoacoustic)});
        !ok)
        return ok;
    if (scene.distinctFrames < 1) return fail(ErrorCode::InvalidArgument, "acquisition.distinct_frames must be at least 1");
    beamform::AcquisitionGeometry& g = plan.geometry;
    g.channels = channels;
    g.samples = scene.samples;
    g.samplingRateHz = scene.samplingRateHz;
    g.soundSpeedMps = scene.soundSpeedMps;
    g.elementX = beamform::linearArrayElementX(channels, scene.pitchM);
    g.elementWidthM = scene.pitchM;
    if (photoacoustic) anglesDeg = {0};
    g.waves = static_cast<int>(anglesDeg.size());
    for (const double a : anglesDeg) g.angleRad.push_back(a * std::numbers::pi / 180);
    if (photoacoustic) g.photoacoustic = {true};
    return {};
}

Status readImaging(const Section& s, ClusterPlan& plan) {
    std::vector<double> xRange{-0.012, 0.012}, zRange{0.006, 0.028};
    std::size_t nx = 96, nz = 128;
    nlohmann::json imaging = planToJsonValue(plan)["imaging"];  // names and defaults as the plan writes them
    for (const char* key : {"partial", "f_number", "window", "tukey_alpha", "modulation_frequency_hz", "iq_decimation", "vector_loop", "threads"})
        if (auto ok = s.optional(key, imaging[key]); !ok) return ok;
    if (auto ok = firstFailure({s.optional("x_m", xRange), s.optional("z_m", zRange), s.optional("nx", nx), s.optional("nz", nz)}); !ok) return ok;
    if (xRange.size() != 2 || zRange.size() != 2) return fail(ErrorCode::InvalidArgument, "imaging.x_m and imaging.z_m are [from, to]");
    const beamform::PixelGrid grid = beamform::PixelGrid::fromRanges(xRange[0], xRange[1], nx, zRange[0], zRange[1], nz);
    imaging["grid_x_m"] = grid.x;
    imaging["grid_z_m"] = grid.z;
    nlohmann::json whole = planToJsonValue(plan);
    whole["imaging"] = imaging;
    auto read = planFromJsonValue(whole);
    if (!read) return fail(read.error());
    plan.grid = read->grid;
    plan.params = read->params;
    plan.kind = read->kind;
    plan.modulationFrequencyHz = read->modulationFrequencyHz;
    plan.iqDecimation = read->iqDecimation;
    plan.loop = read->loop;
    plan.threads = read->threads;
    return {};
}

Result<ClusterFile> parse(const json& root) {
    ClusterFile file;
    const Section top(root, "");
    auto coordinator = top.child("coordinator");
    if (!coordinator) return fail(coordinator.error());
    const Section ucx = top.childOrEmpty("ucx"), timing = top.childOrEmpty("timing"), acquisition = top.childOrEmpty("acquisition"),
                  imaging = top.childOrEmpty("imaging");
    if (auto ok = firstFailure(
            {coordinator->optional("address", file.coordinatorAddress), coordinator->required("port", file.coordinatorPort), readHosts(root, file.hosts)});
        !ok)
        return fail(ok.error());
    if (auto ok =
            firstFailure({ucx.optional("transports", file.ucxTransports), ucx.optional("net_devices", file.ucxNetDevices), readTiming(timing, file.timing)});
        !ok)
        return fail(ok.error());
    int channels = 0;
    for (const ClusterHost& h : file.hosts) {
        file.plan.hosts.push_back({h.firstChannel, h.channelCount});
        channels = std::max(channels, h.firstChannel + h.channelCount);
    }
    if (auto ok = readAcquisition(acquisition, file.scene, file.plan, channels); !ok) return fail(ok.error());
    if (auto ok = readImaging(imaging, file.plan); !ok) return fail(ok.error());
    file.plan.frameRateHz = file.timing.frameRateHz;
    file.plan.softwareVersion = buildInfo().version;
    if (auto ok = file.plan.validate(); !ok) return fail(ok.error());
    return file;
}

}  // namespace

Result<ClusterFile> parseClusterFile(std::string_view text, std::string_view where) {
    const json root = json::parse(text, nullptr, false);
    if (root.is_discarded() || !root.is_object()) return fail(ErrorCode::InvalidArgument, fmt::format("cluster file {}: not a JSON object", where));
    auto file = parse(root);
    if (!file) return fail(ErrorCode::InvalidArgument, fmt::format("cluster file {}: {}", where, file.error().message()));
    return file;
}

Result<ClusterFile> readClusterFile(const std::filesystem::path& path) {
    std::ifstream in(path);
    if (!in) return fail(ErrorCode::NotFound, fmt::format("cluster file {} cannot be read", path.string()));
    std::ostringstream text;
    text << in.rdbuf();
    return parseClusterFile(text.str(), path.string());
}

}  // namespace sonolink::cluster
