#include "link_diagnostics.h"

#if SONOLINK_HAVE_RDMA
#include "sonolink/transport/rdma/rdma_devices.h"
#endif

namespace sonolink::cli {

Result<nlohmann::json> rdmaDiagnostics([[maybe_unused]] const std::string& device, [[maybe_unused]] std::uint64_t ringBytes) {
#if SONOLINK_HAVE_RDMA
    auto devices = transport::rdma::listRdmaDevices();
    if (!devices) return fail(std::move(devices.error()));
    nlohmann::json out;
    out["devices"] = nlohmann::json::array();
    for (const auto& d : *devices) {
        if (!device.empty() && d.name != device) continue;
        nlohmann::json j{{"name", d.name}, {"node_guid", d.nodeGuid}, {"error", d.error}};
        j["caps"] = {{"firmware", d.caps.firmware},
                     {"max_qp", d.caps.maxQp},
                     {"max_qp_wr", d.caps.maxQpWr},
                     {"max_cqe", d.caps.maxCqe},
                     {"max_sge", d.caps.maxSge},
                     {"max_mr", d.caps.maxMr},
                     {"max_mr_size", d.caps.maxMrSize},
                     {"completion_timestamps", d.caps.completionTimestamps},
                     {"cq_moderation_max_count", d.caps.maxCqModerationCount},
                     {"cq_moderation_max_period_us", d.caps.maxCqModerationPeriodUs}};
        j["ports"] = nlohmann::json::array();
        for (const auto& p : d.ports) {
            j["ports"].push_back({{"port", p.portNumber},
                                  {"state", p.state},
                                  {"active_mtu", p.activeMtuBytes},
                                  {"link_layer", p.linkLayer},
                                  {"rate", p.rate},
                                  {"gids", p.gids},
                                  {"counters", p.counters}});
        }
        out["devices"].push_back(std::move(j));
    }
    if (!device.empty() && out["devices"].empty()) {
        return fail(ErrorCode::NotFound, "no RDMA device named '" + device + "' (see `sonolink-cli link diag` for the list)");
    }
    const auto memlock = transport::rdma::checkMemlock(ringBytes);
    out["memlock"] = {{"sufficient", memlock.sufficient},
                      {"unlimited", memlock.limitBytes == ~std::uint64_t(0)},
                      {"limit_bytes", memlock.limitBytes},
                      {"cap_ipc_lock", memlock.capIpcLock},
                      {"advice", memlock.advice}};
    return out;
#else
    return fail(ErrorCode::Unimplemented, "this build has no RDMA verbs backend (libibverbs-dev/librdmacm-dev were missing at configure time)");
#endif
}

nlohmann::json counterDeltas(const nlohmann::json& before, const nlohmann::json& after, const std::string& device) {
    nlohmann::json out = nlohmann::json::object();
    auto find = [&](const nlohmann::json& report) -> const nlohmann::json* {
        for (const auto& d : report["devices"]) {
            if (d["name"] == device) return &d;
        }
        return nullptr;
    };
    const auto* b = find(before);
    const auto* a = find(after);
    if (!a || !b) return out;
    for (std::size_t i = 0; i < a->at("ports").size() && i < b->at("ports").size(); ++i) {
        const auto& pa = a->at("ports")[i];
        const auto& pb = b->at("ports")[i];
        nlohmann::json deltas = nlohmann::json::object();
        for (const auto& [name, value] : pa["counters"].items()) {
            const auto old = pb["counters"].value(name, std::uint64_t(0));
            const auto now = value.get<std::uint64_t>();
            if (now != old) deltas[name] = now - old;
        }
        out["port " + std::to_string(pa["port"].get<int>())] = deltas;
    }
    return out;
}

}  // namespace sonolink::cli
