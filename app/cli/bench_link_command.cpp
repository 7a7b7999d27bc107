// sonolink-cli bench link: the reference design's table (payload 64 KiB / 256 KiB / 1 MiB x
// post batch 1 / 8 / 16) over the verbs link: the simulated front end writes blocks with RDMA
// WRITE WITH IMMEDIATE into the host's ring and the host ingests them (header and CRC checks,
// credits), both in this process over the RDMA device that owns --address. perftest's
// ib_write_bw runs on the same device in the same run, with the same message size and post
// list, for comparison. Under Soft-RoCE it only proves the path works; on a real NIC it is
// the acceptance figure (docs/performance.md).
#include <cstdio>
#include <iostream>
#include <memory>
#include <regex>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "exit_codes.h"
#include "shell_output.h"
#include "link_diagnostics.h"
#include "sonolink/ingest/stream_session.h"
#if SONOLINK_HAVE_RDMA
#include "sonolink/transport/rdma/verbs_front_end_port.h"
#include "sonolink/transport/rdma/verbs_link.h"
#include "sonolink/transport/sim/front_end_simulator.h"
#endif

namespace sonolink::cli {
namespace {

struct BenchLinkOptions {
    std::string address;
    int port = 18600;
    double megabytes = 2000;  // per configuration
    std::vector<std::uint32_t> payloadsKiB{64, 256, 1024};
    std::vector<int> batches{1, 8, 16};
    bool perftest = true;
    double bar = 0.95;
    bool check = false;
    bool json = false;
};

struct Row {
    std::uint32_t payload = 0;
    int batch = 0;
    double sonolinkGbps = 0;
    double perftestGbps = 0;
    std::string error;
};

#if SONOLINK_HAVE_RDMA
class DropSink final : public ingest::FrameSink {
public:
    void onFrame(const ingest::FrameRef&) noexcept override {}
};

// One configuration: host VerbsLink + front end (simulator over VerbsFrontEndPort) on a thread.
Result<double> measureSonolink(const BenchLinkOptions& o, std::uint32_t payload, int batch, int port, std::string& device) {
    const std::uint32_t slotBytes = payload + 4096;  // header + payload, 4 KiB-aligned slots
    auto host = transport::rdma::VerbsLink::create({o.address, port, slotBytes, 64, false, std::chrono::milliseconds(5000)});
    if (!host) return fail(std::move(host.error()));
    Status frontEndResult;
    std::atomic<bool> stop{false};
    std::thread frontEnd([&] {
        auto connected = transport::rdma::VerbsFrontEndPort::connect({o.address, port, std::chrono::milliseconds(5000), 256});
        if (!connected) {
            frontEndResult = fail(std::move(connected.error()));
            return;
        }
        transport::sim::FrontEndOptions options;
        options.postBatch = batch;
        transport::sim::FrontEndSimulator simulator(**connected, options);
        frontEndResult = simulator.run(stop);
    });
    ingest::SessionOptions session;
    session.configure.payloadKind = transport::PayloadKind::Counter;
    session.configure.channelCount = 128;
    session.configure.samplesPerChannel = payload / 256;  // 128 channels x 2 bytes: one block = payload
    session.configure.anglesMilliDeg = {-7000, -5000, -3000, -1000, 1000, 3000, 5000, 7000};
    session.configure.frameRateMilliHz = 0;
    auto opened = ingest::StreamSession::open(**host, session);
    Result<double> result = fail(ErrorCode::Internal, "not measured");
    if (!opened) {
        result = fail(std::move(opened.error()));
    } else {
        device = (*opened)->linkInfo().localDevice;
        DropSink sink;
        (*opened)->ingest().addSink(sink);
        const auto frames = std::max<std::uint32_t>(4, static_cast<std::uint32_t>(o.megabytes * 1e6 / (8.0 * payload)));
        auto summary = (*opened)->run(frames, stop);
        if (!summary) {
            result = fail(std::move(summary.error()));
        } else {
            const auto& s = summary->stats;
            const double seconds = (s.lastCompletionNs - s.firstCompletionNs) / 1e9;
            result = s.blocksRejected() != 0 ? Result<double>(fail(ErrorCode::DataLoss, fmt::format("{} blocks rejected", s.blocksRejected())))
                                             : Result<double>(seconds > 0 ? s.bytesOk * 8 / seconds / 1e9 : 0.0);
        }
    }
    stop.store(true);
    opened = fail(ErrorCode::Cancelled, "done");  // the session goes before the link
    host->reset();                                // closing the link disconnects the front end
    frontEnd.join();
    return result;
}

// perftest's ib_write_bw, server and client on the same device, same size and post list.
Result<double> measurePerftest(const BenchLinkOptions& o, const std::string& device, int gidIndex, std::uint32_t payload, int batch) {
    auto iterations = std::max(100, static_cast<int>(o.megabytes * 1e6 / payload));
    iterations = (iterations + batch - 1) / batch * batch;  // perftest wants a multiple of the post list
    const auto common = fmt::format("ib_write_bw -d {} -x {} -s {} -n {} -l {} -F --report_gbits", device, gidIndex, payload, iterations, batch);
    const auto command = fmt::format("({} >/dev/null 2>&1 &) ; sleep 1; {} {} 2>&1", common, common, o.address);
    auto ran = shellOutput(command);
    if (!ran) return fail(ran.error());
    const std::string& output = ran->text;
    const int rc = ran->status;
    // The result line: bytes, iterations, BW peak, BW average, message rate.
    const std::regex line(fmt::format(R"(^\s*{}\s+\d+\s+([0-9.]+)\s+([0-9.]+))", payload), std::regex::multiline);
    std::smatch match;
    if (rc != 0 || !std::regex_search(output, match, line)) {
        return fail(ErrorCode::Unavailable, fmt::format("ib_write_bw did not report (exit {}): {}", rc, output.substr(0, 300)));
    }
    return std::stod(match[2].str());
}

int gidIndexOf(const std::string& device, const std::string& address) {
    auto report = rdmaDiagnostics(device, 0);
    if (!report) return 1;
    for (const auto& d : (*report)["devices"]) {
        for (const auto& p : d["ports"]) {
            for (const auto& g : p["gids"]) {
                const auto text = g.get<std::string>();
                // "1 0000:...:ffff:0ae9:0001 RoCE v2": the IPv4-mapped RoCE v2 GID of our address
                int a, b, c, e;
                if (std::sscanf(address.c_str(), "%d.%d.%d.%d", &a, &b, &c, &e) == 4 &&
                    text.find(fmt::format("ffff:{:02x}{:02x}:{:02x}{:02x}", a, b, c, e)) != std::string::npos && text.find("v2") != std::string::npos) {
                    return std::stoi(text);
                }
            }
        }
    }
    return 1;
}
#endif

int runBenchLink(const BenchLinkOptions& o) {
#if SONOLINK_HAVE_RDMA
    std::vector<Row> rows;
    std::string device;
    int port = o.port;
    for (auto kib : o.payloadsKiB) {
        for (int batch : o.batches) {
            Row row{kib * 1024u, batch, 0, 0, {}};
            auto measured = measureSonolink(o, row.payload, batch, port++, device);
            if (measured) row.sonolinkGbps = *measured;
            else row.error = measured.error().message();
            if (o.perftest && !device.empty()) {
                auto reference = measurePerftest(o, device, gidIndexOf(device, o.address), row.payload, batch);
                if (reference) row.perftestGbps = *reference;
                else row.error += (row.error.empty() ? "" : "; ") + reference.error().message();
            }
            rows.push_back(row);
        }
    }
    const Row* reference = nullptr;
    for (const auto& r : rows) {
        if (r.payload == 256u * 1024 && r.batch == 8) reference = &r;
    }
    const double ratio = reference && reference->perftestGbps > 0 ? reference->sonolinkGbps / reference->perftestGbps : 0;
    const bool errors = std::any_of(rows.begin(), rows.end(), [](const Row& r) { return !r.error.empty(); });
    if (o.json) {
        nlohmann::json out{{"device", device}, {"ratio_256k_batch8", ratio}, {"bar", o.bar}};
        for (const auto& r : rows) {
            out["rows"].push_back({{"payload_bytes", r.payload},
                                   {"batch", r.batch},
                                   {"sonolink_gbps", r.sonolinkGbps},
                                   {"ib_write_bw_gbps", r.perftestGbps},
                                   {"error", r.error}});
        }
        std::cout << out.dump(2) << '\n';
    } else {
        std::cout << fmt::format("verbs link on {} ({}): SonoLink (front end -> host ring, header + CRC checked) vs ib_write_bw, Gb/s\n\n", device, o.address);
        std::cout << "| payload | batch | SonoLink | ib_write_bw | ratio |\n|---|---|---|---|---|\n";
        for (const auto& r : rows) {
            std::cout << fmt::format("| {} KiB | {} | {:.2f} | {:.2f} | {:.2f} |{}\n", r.payload / 1024, r.batch, r.sonolinkGbps, r.perftestGbps,
                                     r.perftestGbps > 0 ? r.sonolinkGbps / r.perftestGbps : 0.0, r.error.empty() ? "" : " " + r.error);
        }
        std::cout << fmt::format("\n256 KiB, batch 8: {:.2f} x ib_write_bw (bar {:.2f} on a real NIC)\n", ratio, o.bar);
    }
    if (errors) return kExitFailed;
    return (!o.check || ratio >= o.bar) ? kExitOk : kExitFailed;
#else
    (void)o;
    std::cerr << "sonolink-cli bench link: this build has no RDMA verbs backend\n";
    return kExitFailed;
#endif
}

}  // namespace

void addBenchLinkCommand(CLI::App& bench, int& exitCode) {
    auto o = std::make_shared<BenchLinkOptions>();
    auto* cmd = bench.add_subcommand("link", "Verbs link bandwidth, payload x batch, beside perftest's ib_write_bw on the same device");
    cmd->add_option("--address", o->address, "Local IP address of the RDMA interface")->required();
    cmd->add_option("--port", o->port, "First port to use (one per configuration)")->capture_default_str();
    cmd->add_option("--megabytes", o->megabytes, "Data per configuration")->capture_default_str();
    cmd->add_option("--payloads-kib", o->payloadsKiB, "Payload sizes in KiB")->capture_default_str();
    cmd->add_option("--batches", o->batches, "Post batches")->capture_default_str();
    cmd->add_flag("!--no-perftest", o->perftest, "Do not run ib_write_bw");
    cmd->add_flag("--check", o->check, "Exit 1 unless SonoLink reaches --bar x ib_write_bw at 256 KiB, batch 8");
    cmd->add_option("--bar", o->bar, "Required ratio for --check")->capture_default_str();
    cmd->add_flag("--json", o->json, "Print JSON");
    cmd->callback([o, &exitCode] { exitCode = runBenchLink(*o); });
}

}  // namespace sonolink::cli
