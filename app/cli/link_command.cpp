// sonolink-cli link diag: what an engineer checks first when a link will not come up.
#include <iostream>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "exit_codes.h"
#include "link_diagnostics.h"

namespace sonolink::cli {
namespace {

struct DiagOptions {
    std::string device;
    std::uint64_t ringMiB = 64;
    bool json = false;
    bool allCounters = false;
};

int runDiag(const DiagOptions& o) {
    auto report = rdmaDiagnostics(o.device, o.ringMiB << 20);
    if (!report) {
        std::cerr << "sonolink-cli link diag: " << report.error().describe() << '\n';
        return report.error().code() == ErrorCode::Unimplemented ? kExitFailed : kExitUnavailable;
    }
    if (o.json) {
        std::cout << report->dump(2) << '\n';
        return kExitOk;
    }
    const auto& r = *report;
    if (r["devices"].empty()) std::cout << "no RDMA device (no NIC, no rdma_rxe): check `rdma link show`, the driver, and dmesg\n";
    for (const auto& d : r["devices"]) {
        std::cout << fmt::format("{}  node GUID {}  firmware {}\n", d["name"].get<std::string>(), d["node_guid"].get<std::string>(),
                                 d["caps"]["firmware"].get<std::string>());
        if (!d["error"].get<std::string>().empty()) std::cout << "  error: " << d["error"].get<std::string>() << '\n';
        const auto& c = d["caps"];
        std::cout << fmt::format("  caps: {} QPs, {} WRs per QP, {} CQEs, {} SGEs, MR up to {} MiB, CQ moderation {}, completion timestamps {}\n",
                                 c["max_qp"].get<std::uint32_t>(), c["max_qp_wr"].get<std::uint32_t>(), c["max_cqe"].get<std::uint32_t>(),
                                 c["max_sge"].get<std::uint32_t>(), c["max_mr_size"].get<std::uint64_t>() >> 20,
                                 c["cq_moderation_max_count"].get<int>() > 0 ? fmt::format("up to {} CQEs / {} us", c["cq_moderation_max_count"].get<int>(),
                                                                                           c["cq_moderation_max_period_us"].get<int>())
                                                                             : "not supported",
                                 c["completion_timestamps"].get<bool>() ? "yes" : "no");
        for (const auto& p : d["ports"]) {
            std::cout << fmt::format("  port {}: {}  active MTU {}  {}  {}\n", p["port"].get<int>(), p["state"].get<std::string>(), p["active_mtu"].get<int>(),
                                     p["link_layer"].get<std::string>(), p["rate"].get<std::string>());
            for (const auto& g : p["gids"]) std::cout << "    GID " << g.get<std::string>() << '\n';
            for (const auto& [name, value] : p["counters"].items()) {
                if (o.allCounters || value.get<std::uint64_t>() != 0) std::cout << fmt::format("    {} = {}\n", name, value.get<std::uint64_t>());
            }
        }
    }
    const auto& m = r["memlock"];
    std::cout << fmt::format("memlock: {}{} ({} for a {} MiB ring){}\n",
                             m["unlimited"].get<bool>() ? std::string("unlimited") : fmt::format("{} KiB", m["limit_bytes"].get<std::uint64_t>() / 1024),
                             m["cap_ipc_lock"].get<bool>() ? " (CAP_IPC_LOCK: it does not apply)" : "", m["sufficient"].get<bool>() ? "enough" : "NOT enough",
                             o.ringMiB, m["advice"].get<std::string>().empty() ? "" : ": " + m["advice"].get<std::string>());
    return m["sufficient"].get<bool>() ? kExitOk : kExitFailed;
}

}  // namespace

void addLinkCommand(CLI::App& app, int& exitCode) {
    auto* link = app.add_subcommand("link", "Link diagnostics");
    link->require_subcommand(1);
    auto o = std::make_shared<DiagOptions>();
    auto* diag = link->add_subcommand("diag", "RDMA devices: capabilities, port state, MTU, link layer, GIDs, rate, counters; the memlock limit");
    diag->add_option("--device", o->device, "Only this device (e.g. mlx5_0, rxe0)");
    diag->add_option("--ring-mib", o->ringMiB, "Ring size to check the memlock limit against")->capture_default_str();
    diag->add_flag("--all-counters", o->allCounters, "Also print counters that are zero");
    diag->add_flag("--json", o->json, "Print JSON");
    diag->callback([o, &exitCode] { exitCode = runDiag(*o); });
}

}  // namespace sonolink::cli
