#include "sonolink/selftest/hardware_diagnostics.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <regex>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace sonolink::selftest {
namespace {

bool isActive(const std::string& state) {
    std::string upper;
    for (const char c : state) upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return upper.find("ACTIVE") != std::string::npos;
}

// An IPv4 address as sysfs shows it in a GID: IPv4-mapped IPv6, 8 groups of 4 hex digits
// ("10.233.0.1" -> "0000:0000:0000:0000:0000:ffff:0ae9:0001"); empty for anything else.
std::string mappedGid(const std::string& address) {
    unsigned a = 0, b = 0, c = 0, d = 0;
    char tail = 0;
    if (std::sscanf(address.c_str(), "%u.%u.%u.%u%c", &a, &b, &c, &d, &tail) != 4 || a > 255 || b > 255 || c > 255 || d > 255) return {};
    return fmt::format("0000:0000:0000:0000:0000:ffff:{:02x}{:02x}:{:02x}{:02x}", a, b, c, d);
}

// The port that serves the link's address: the one with it among its GIDs (no address: any
// address, the first port that is up, else the first).
const RdmaPortFacts* portFor(const HardwareFacts& facts, const std::string& address) {
    if (address.empty()) {
        const auto up = std::find_if(facts.rdmaPorts.begin(), facts.rdmaPorts.end(), [](const RdmaPortFacts& p) { return isActive(p.state); });
        return up != facts.rdmaPorts.end() ? &*up : facts.rdmaPorts.empty() ? nullptr : &facts.rdmaPorts.front();
    }
    const auto mapped = mappedGid(address);
    for (const auto& p : facts.rdmaPorts) {
        for (const auto& gid : p.gids) {  // "<index> <gid> [<type>]"
            const auto first = gid.find(' ');
            const auto last = gid.find(' ', first + 1);
            const auto value = first == std::string::npos ? gid : gid.substr(first + 1, last == std::string::npos ? std::string::npos : last - first - 1);
            if (value == mapped || value == address || value == "::ffff:" + address) return &p;
        }
    }
    return nullptr;
}

bool isErrorCounter(const std::string& name) {
    static const std::set<std::string> errors{"symbol_error",
                                              "link_error_recovery",
                                              "link_downed",
                                              "port_rcv_errors",
                                              "port_rcv_remote_physical_errors",
                                              "port_xmit_discards",
                                              "local_link_integrity_errors",
                                              "excessive_buffer_overrun_errors",
                                              "out_of_sequence",
                                              "duplicate_request",
                                              "rnr_nak_retry_err",
                                              "packet_seq_err",
                                              "implied_nak_seq_err",
                                              "local_ack_timeout_err",
                                              "retry_exceeded_err",
                                              "req_cqe_error",
                                              "resp_cqe_error",
                                              "rcvd_seq_err"};
    return errors.count(name) > 0;
}

}  // namespace

Diagnostic checkGpu(const HardwareFacts& facts) {
    Diagnostic d{"GPU", DiagnosticVerdict::Pass, {}, "a GPU with ECC on (the live image beamformed there)", {}};
    if (facts.gpus.empty()) {
        d.verdict = DiagnosticVerdict::Warn;
        d.figures =
            facts.cudaBuilt ? fmt::format("no usable GPU: {}", facts.gpuStatus) : std::string("this build has no CUDA module: the CPU beamformer images");
        d.fix = facts.cudaBuilt ? "check the NVIDIA driver (nvidia-smi) and the GPU's seating; the CPU beamformer images meanwhile, slower"
                                : "build with the CUDA toolkit for live imaging on the GPU; the CPU beamformer images meanwhile, slower";
        return d;
    }
    std::vector<std::string> named, noEcc;
    for (const auto& g : facts.gpus) {
        named.push_back(fmt::format("{} (ECC {})", g.name, g.eccEnabled ? "on" : "off"));
        if (!g.eccEnabled) noEcc.push_back(g.name);
    }
    d.figures = fmt::format("{}: {}", facts.gpuStatus, fmt::join(named, ", "));
    if (!noEcc.empty()) {
        d.verdict = DiagnosticVerdict::Warn;
        d.fix = "turn ECC on (nvidia-smi -e 1, then a reboot): a memory error on the GPU would change the image unseen";
    }
    return d;
}

Diagnostic checkRdmaPort(const HardwareFacts& facts, const std::string& address) {
    Diagnostic d{"RDMA port",
                 DiagnosticVerdict::Pass,
                 {},
                 fmt::format("the port serving {} ACTIVE, MTU 4096, error counters at 0", address.empty() ? "the link" : address),
                 {}};
    const auto* p = portFor(facts, address);
    if (p == nullptr) {
        d.verdict = DiagnosticVerdict::Fail;
        std::vector<std::string> seen;
        for (const auto& q : facts.rdmaPorts) seen.push_back(fmt::format("{} port {} ({})", q.device, q.port, q.state));
        d.figures = facts.rdmaPorts.empty() ? fmt::format("no RDMA port: {}", facts.rdmaStatus)
                                            : fmt::format("no RDMA port has {} among its addresses; ports: {}", address, fmt::join(seen, ", "));
        d.fix =
            "give the NIC's interface the address in link.address (ip addr), or set link.address to the NIC's; for Soft-RoCE, "
            "`rdma link add rxe0 type rxe netdev <interface>`";
        return d;
    }
    std::vector<std::string> errors;
    for (const auto& [name, value] : p->counters) {
        if (value != 0 && isErrorCounter(name)) errors.push_back(fmt::format("{} {}", name, value));
    }
    d.figures =
        fmt::format("{} port {}: {}, {}, {}, MTU {}; {}", p->device, p->port, p->state, p->linkLayer, p->rate.empty() ? "rate not shown" : p->rate,
                    p->activeMtuBytes, errors.empty() ? std::string("error counters at 0") : fmt::format("error counters: {}", fmt::join(errors, ", ")));
    if (!isActive(p->state)) {
        d.verdict = DiagnosticVerdict::Fail;
        d.fix = "the port is not up: check the cable or fibre, the transceiver and the switch port; `rdma link` shows its state";
    } else if (p->activeMtuBytes < 4096 || !errors.empty()) {
        d.verdict = DiagnosticVerdict::Warn;
        d.fix = p->activeMtuBytes < 4096 ? "set the interface's MTU to 9000 (RoCE: the RDMA MTU follows it up to 4096): smaller packets cost throughput"
                                         : "errors on the port since it came up: check the cable, the transceiver and the switch; the link BER test "
                                           "says whether payload bits suffered";
    }
    return d;
}

Diagnostic checkNumaLocality(const HardwareFacts& facts, const std::optional<std::string>& nicAddress) {
    Diagnostic d{"NUMA locality", DiagnosticVerdict::Pass, {}, "the link's NIC and the GPUs on one NUMA node", {}};
    const auto* p = nicAddress ? portFor(facts, *nicAddress) : nullptr;
    std::set<int> nodes;
    std::vector<std::string> where;
    if (p != nullptr) {
        where.push_back(fmt::format("{} on node {}", p->device, p->numaNode));
        if (p->numaNode >= 0) nodes.insert(p->numaNode);
    }
    for (const auto& g : facts.gpus) {
        where.push_back(fmt::format("{} on node {}", g.name, g.numaNode));
        if (g.numaNode >= 0) nodes.insert(g.numaNode);
    }
    if (nodes.empty()) {
        d.figures = where.empty() ? std::string("no NIC or GPU to place") : fmt::format("not visible ({}): one node, or not shown", fmt::join(where, ", "));
        return d;
    }
    d.figures = fmt::format("{}", fmt::join(where, ", "));
    if (nodes.size() > 1) {
        d.verdict = DiagnosticVerdict::Warn;
        d.fix =
            "the NIC and the GPU sit on different NUMA nodes: every frame crosses the socket link; move the GPU or the NIC to slots of one "
            "node, and pin the rx thread there (link.rx_cpu)";
    }
    return d;
}

Diagnostic checkPtp(const HardwareFacts& facts, double maxOffsetNs) {
    Diagnostic d{"PTP clock", DiagnosticVerdict::Pass, {}, fmt::format("each PTP clock within {:.0f} us of the system clock", maxOffsetNs / 1e3), {}};
    if (facts.ptpClocks.empty()) {
        d.figures = "no PTP clock: frame times come from the system clock";
        return d;
    }
    std::vector<std::string> figures;
    for (const auto& c : facts.ptpClocks) {
        if (!c.offsetNs) {
            figures.push_back(fmt::format("{} ({}): offset not measured ({})", c.device, c.name, c.why));
            if (d.verdict == DiagnosticVerdict::Pass) d.verdict = DiagnosticVerdict::Warn;
            d.fix = "install linuxptp (phc_ctl) and run as a user that may read the clock, so that its offset can be measured";
            continue;
        }
        figures.push_back(fmt::format("{} ({}): {:.1f} us from the system clock", c.device, c.name, *c.offsetNs / 1e3));
        if (std::abs(*c.offsetNs) > maxOffsetNs) {
            d.verdict = DiagnosticVerdict::Warn;
            d.fix = "the PTP clock is not synchronised with the system clock: run phc2sys (linuxptp) so that frame times agree with the front end's";
        }
    }
    d.figures = fmt::format("{}", fmt::join(figures, "; "));
    return d;
}

std::optional<double> parsePhcCtlOffset(const std::string& output) {
    static const std::regex offset(R"(offset from CLOCK_REALTIME is (-?[0-9]+)ns)");
    std::smatch m;
    if (!std::regex_search(output, m, offset)) return std::nullopt;
    return std::stod(m[1].str());
}

}  // namespace sonolink::selftest
