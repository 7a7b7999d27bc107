#include "sonolink/cluster/cluster_messages.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace sonolink::cluster {
namespace {

using nlohmann::json;

std::vector<std::byte> bytesOfJson(const json& value) { return bytesOf(value.dump()); }

// Parses `bytes` as a JSON object and reads it with `fill`, naming `what` in any error.
template <typename T, typename Fill> Result<T> decodeJson(std::span<const std::byte> bytes, std::string_view what, Fill fill) {
    const json value = json::parse(textOf(bytes), nullptr, false);
    if (value.is_discarded() || !value.is_object()) return fail(ErrorCode::InvalidArgument, fmt::format("{} message is not a JSON object", what));
    T out;
    try {
        fill(value, out);
    } catch (const json::exception& e) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{} message: {}", what, e.what()));
    }
    return out;
}

}  // namespace

std::vector<std::byte> bytesOf(std::string_view text) {
    const auto* begin = reinterpret_cast<const std::byte*>(text.data());
    return {begin, begin + text.size()};
}

std::string textOf(std::span<const std::byte> bytes) { return {reinterpret_cast<const char*>(bytes.data()), bytes.size()}; }

std::vector<std::byte> encode(const HelloMessage& m) { return bytesOfJson({{"host", m.host}, {"software_version", m.softwareVersion}}); }
std::vector<std::byte> encode(const PlanMessage& m) {
    return bytesOfJson({{"session", m.session},
                        {"plan_hash", m.planHash},
                        {"epoch", m.epoch},
                        {"from_trigger", m.fromTrigger},
                        {"clock_origin_ns", m.clockOriginNs},
                        {"period_ns", m.periodNs}});
}
std::vector<std::byte> encode(const PlanAnswerMessage& m) {
    return bytesOfJson({{"accepted", m.accepted}, {"epoch", m.epoch}, {"plan_hash", m.planHash}, {"reason", m.reason}});
}
std::vector<std::byte> encode(const HostCounts& m) {
    return bytesOfJson(
        {{"partials_sent", m.partialsSent}, {"triggers_skipped", m.triggersSkipped}, {"bytes_sent", m.bytesSent}, {"beamform_ms_last", m.beamformMsLast}});
}
std::vector<std::byte> encode(const StopMessage& m) { return bytesOfJson({{"last_trigger", m.lastTrigger}}); }
std::vector<std::byte> encode(const TextMessage& m) { return bytesOfJson({{"text", m.text}}); }

Result<HelloMessage> decodeHello(std::span<const std::byte> bytes) {
    return decodeJson<HelloMessage>(bytes, "hello", [](const json& v, HelloMessage& m) {
        v.at("host").get_to(m.host);
        v.at("software_version").get_to(m.softwareVersion);
    });
}
Result<PlanMessage> decodePlan(std::span<const std::byte> bytes) {
    return decodeJson<PlanMessage>(bytes, "plan", [](const json& v, PlanMessage& m) {
        v.at("session").get_to(m.session);
        v.at("plan_hash").get_to(m.planHash);
        v.at("epoch").get_to(m.epoch);
        v.at("from_trigger").get_to(m.fromTrigger);
        v.at("clock_origin_ns").get_to(m.clockOriginNs);
        v.at("period_ns").get_to(m.periodNs);
    });
}
Result<PlanAnswerMessage> decodePlanAnswer(std::span<const std::byte> bytes) {
    return decodeJson<PlanAnswerMessage>(bytes, "plan answer", [](const json& v, PlanAnswerMessage& m) {
        v.at("accepted").get_to(m.accepted);
        v.at("epoch").get_to(m.epoch);
        v.at("plan_hash").get_to(m.planHash);
        v.at("reason").get_to(m.reason);
    });
}
Result<HostCounts> decodeHostCounts(std::span<const std::byte> bytes) {
    return decodeJson<HostCounts>(bytes, "host counts", [](const json& v, HostCounts& m) {
        v.at("partials_sent").get_to(m.partialsSent);
        v.at("triggers_skipped").get_to(m.triggersSkipped);
        v.at("bytes_sent").get_to(m.bytesSent);
        v.at("beamform_ms_last").get_to(m.beamformMsLast);
    });
}
Result<StopMessage> decodeStop(std::span<const std::byte> bytes) {
    return decodeJson<StopMessage>(bytes, "stop", [](const json& v, StopMessage& m) { v.at("last_trigger").get_to(m.lastTrigger); });
}
Result<TextMessage> decodeText(std::span<const std::byte> bytes) {
    return decodeJson<TextMessage>(bytes, "text", [](const json& v, TextMessage& m) { v.at("text").get_to(m.text); });
}

}  // namespace sonolink::cluster
