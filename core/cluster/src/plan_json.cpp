#include "plan_json.h"

#include <cmath>
#include <limits>

#include <fmt/format.h>

namespace sonolink::cluster {
namespace {

using nlohmann::json;

std::string_view windowName(beamform::Window w) {
    switch (w) {
        case beamform::Window::Hann: return "hann";
        case beamform::Window::Tukey: return "tukey";
        case beamform::Window::Rectangular: break;
    }
    return "rectangular";
}

std::string_view loopName(beamform::VectorLoop loop) {
    switch (loop) {
        case beamform::VectorLoop::Scalar: return "scalar";
        case beamform::VectorLoop::Best: return "best";
        case beamform::VectorLoop::Avx2: break;
    }
    return "avx2";
}

// A plane wave's source distance is +infinity, which JSON cannot hold: written as null.
json distances(const std::vector<double>& values) {
    json out = json::array();
    for (const double d : values) out.push_back(std::isinf(d) ? json() : json(d));
    return out;
}

json geometryValue(const beamform::AcquisitionGeometry& g) {
    return json{{"waves", g.waves},
                {"channels", g.channels},
                {"samples", g.samples},
                {"sampling_rate_hz", g.samplingRateHz},
                {"initial_time_s", g.initialTimeS},
                {"sound_speed_m_s", g.soundSpeedMps},
                {"element_x_m", g.elementX},
                {"element_width_m", g.elementWidthM},
                {"element_height_m", g.elementHeightM},
                {"angle_rad", g.angleRad},
                {"source_distance_m", distances(g.sourceDistance)},
                {"photoacoustic", std::vector<bool>(g.photoacoustic.begin(), g.photoacoustic.end())}};
}

// Reads value[key] as T, or names the field that is missing or wrong.
template <typename T> Status read(const json& value, const char* key, T& out, std::string_view where) {
    const auto it = value.find(key);
    if (it == value.end()) return fail(ErrorCode::InvalidArgument, fmt::format("plan: {}.{} is missing", where, key));
    try {
        out = it->get<T>();
    } catch (const json::exception&) {
        return fail(ErrorCode::InvalidArgument, fmt::format("plan: {}.{} has the wrong type ({})", where, key, it->type_name()));
    }
    return {};
}

Status readDistances(const json& value, std::vector<double>& out) {
    const auto it = value.find("source_distance_m");
    if (it == value.end() || !it->is_array()) return fail(ErrorCode::InvalidArgument, "plan: geometry.source_distance_m is missing or not an array");
    out.clear();
    for (const json& d : *it) {
        if (d.is_null()) out.push_back(std::numeric_limits<double>::infinity());
        else if (d.is_number()) out.push_back(d.get<double>());
        else return fail(ErrorCode::InvalidArgument, "plan: geometry.source_distance_m holds something that is no number");
    }
    return {};
}

Result<beamform::AcquisitionGeometry> geometryFrom(const json& v) {
    beamform::AcquisitionGeometry g;
    std::vector<bool> pa;
    for (Status s : {read(v, "waves", g.waves, "geometry"), read(v, "channels", g.channels, "geometry"), read(v, "samples", g.samples, "geometry"),
                     read(v, "sampling_rate_hz", g.samplingRateHz, "geometry"), read(v, "initial_time_s", g.initialTimeS, "geometry"),
                     read(v, "sound_speed_m_s", g.soundSpeedMps, "geometry"), read(v, "element_x_m", g.elementX, "geometry"),
                     read(v, "element_width_m", g.elementWidthM, "geometry"), read(v, "element_height_m", g.elementHeightM, "geometry"),
                     read(v, "angle_rad", g.angleRad, "geometry"), readDistances(v, g.sourceDistance), read(v, "photoacoustic", pa, "geometry")})
        if (!s) return fail(s.error());
    g.photoacoustic.assign(pa.begin(), pa.end());
    return g;
}

template <typename Enum, std::size_t N>
Status readName(const json& v, const char* key, Enum& out, const std::pair<std::string_view, Enum> (&names)[N], std::string_view where) {
    std::string name;
    if (auto ok = read(v, key, name, where); !ok) return ok;
    for (const auto& [text, value] : names)
        if (text == name) {
            out = value;
            return {};
        }
    return fail(ErrorCode::InvalidArgument, fmt::format("plan: {}.{} = \"{}\" is none of the known names", where, key, name));
}

Status readImaging(const json& v, ClusterPlan& plan) {
    static constexpr std::pair<std::string_view, beamform::Window> kWindows[] = {
        {"rectangular", beamform::Window::Rectangular}, {"hann", beamform::Window::Hann}, {"tukey", beamform::Window::Tukey}};
    static constexpr std::pair<std::string_view, beamform::VectorLoop> kLoops[] = {
        {"scalar", beamform::VectorLoop::Scalar}, {"avx2", beamform::VectorLoop::Avx2}, {"best", beamform::VectorLoop::Best}};
    static constexpr std::pair<std::string_view, PartialKind> kKinds[] = {{"rf", PartialKind::Rf}, {"iq", PartialKind::Iq}};
    std::vector<double> x, z;
    for (Status s : {read(v, "grid_x_m", x, "imaging"), read(v, "grid_z_m", z, "imaging"), read(v, "f_number", plan.params.fNumber, "imaging"),
                     readName(v, "window", plan.params.window, kWindows, "imaging"), read(v, "tukey_alpha", plan.params.tukeyAlpha, "imaging"),
                     readName(v, "partial", plan.kind, kKinds, "imaging"), read(v, "modulation_frequency_hz", plan.modulationFrequencyHz, "imaging"),
                     read(v, "iq_decimation", plan.iqDecimation, "imaging"), readName(v, "vector_loop", plan.loop, kLoops, "imaging"),
                     read(v, "threads", plan.threads, "imaging")})
        if (!s) return s;
    plan.grid.x = std::move(x);
    plan.grid.z = std::move(z);
    return {};
}

}  // namespace

json planToJsonValue(const ClusterPlan& plan) {
    json hosts = json::array();
    for (const HostChannels& h : plan.hosts) hosts.push_back(json{{"first_channel", h.firstChannel}, {"channel_count", h.channelCount}});
    const json imaging{{"grid_x_m", plan.grid.x},
                       {"grid_z_m", plan.grid.z},
                       {"f_number", plan.params.fNumber},
                       {"window", windowName(plan.params.window)},
                       {"tukey_alpha", plan.params.tukeyAlpha},
                       {"partial", toString(plan.kind)},
                       {"modulation_frequency_hz", plan.modulationFrequencyHz},
                       {"iq_decimation", plan.iqDecimation},
                       {"vector_loop", loopName(plan.loop)},
                       {"threads", plan.threads}};
    return json{{"geometry", geometryValue(plan.geometry)},
                {"imaging", imaging},
                {"frame_rate_hz", plan.frameRateHz},
                {"hosts", hosts},
                {"software_version", plan.softwareVersion}};
}

Result<ClusterPlan> planFromJsonValue(const json& value) {
    ClusterPlan plan;
    const auto geometry = value.find("geometry");
    const auto imaging = value.find("imaging");
    const auto hosts = value.find("hosts");
    if (geometry == value.end() || !geometry->is_object()) return fail(ErrorCode::InvalidArgument, "plan: geometry is missing");
    if (imaging == value.end() || !imaging->is_object()) return fail(ErrorCode::InvalidArgument, "plan: imaging is missing");
    if (hosts == value.end() || !hosts->is_array()) return fail(ErrorCode::InvalidArgument, "plan: hosts is missing");
    auto g = geometryFrom(*geometry);
    if (!g) return fail(g.error());
    plan.geometry = std::move(*g);
    if (auto ok = readImaging(*imaging, plan); !ok) return fail(ok.error());
    for (Status s : {read(value, "frame_rate_hz", plan.frameRateHz, "plan"), read(value, "software_version", plan.softwareVersion, "plan")})
        if (!s) return fail(s.error());
    for (const json& h : *hosts) {
        HostChannels range;
        for (Status s : {read(h, "first_channel", range.firstChannel, "hosts[]"), read(h, "channel_count", range.channelCount, "hosts[]")})
            if (!s) return fail(s.error());
        plan.hosts.push_back(range);
    }
    return plan;
}

}  // namespace sonolink::cluster
