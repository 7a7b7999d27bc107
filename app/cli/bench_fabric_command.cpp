// sonolink-cli bench fabric: the partial exchange's throughput. Partials of each size go from one
// UCX fabric to another over the chosen transports (both in this process, each with its own UCX
// context and progress thread, as a host and the coordinator), as many in flight as the window
// allows; beside it, in the same run, ucx_perftest's active-message bandwidth (ucp_am_bw) on the
// same transports and message size, its best of with and without error handling (the fabric's
// endpoints have it). The bar: the fabric >= 0.8 x ucx_perftest at every size.
// Like ucx_perftest (one send buffer, one receive buffer, reused), neither side allocates per
// message: the sender takes each payload from Fabric::buffer() (a host fills it with a partial)
// and the receiver hands each one back with Fabric::recycle() (the coordinator, once reduced).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <regex>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "exit_codes.h"
#include "shell_output.h"
#include "sonolink/transport/ucx/ucx_fabric.h"

namespace sonolink::cli {
namespace {

namespace ucx = transport::ucx;

struct BenchFabricOptions {
    std::vector<std::size_t> sizes{24'640, 1 << 20, 2 << 20};
    std::string transports = "tcp";
    double gibPerRun = 1;
    int attempts = 3;
    double bar = 0.8;
    bool json = false;
};

struct Received {
    std::mutex mutex;
    std::condition_variable done;
    std::uint64_t messages = 0;
    std::chrono::steady_clock::time_point first, last;
};

// MiB/s from the first message in to the last, `count` messages of `size` bytes, at most
// `window` in flight.
Result<double> fabricOnce(const std::string& transports, std::size_t size, std::uint64_t count, std::size_t window) {
    Received in;
    ucx::Fabric* receivingFabric = nullptr;  // set before any message can arrive (listen())
    ucx::FabricCallbacks receiving;
    receiving.onMessage = [&](ucx::PeerId, std::uint16_t, std::span<const std::byte>, std::vector<std::byte> payload) {
        receivingFabric->recycle(std::move(payload));
        std::lock_guard lock(in.mutex);
        const auto now = std::chrono::steady_clock::now();
        if (in.messages++ == 0) in.first = now;
        in.last = now;
        if (in.messages == count) in.done.notify_one();
    };
    ucx::FabricOptions options;
    options.transports = transports;
    auto receiver = ucx::Fabric::create(options, std::move(receiving));
    auto sender = ucx::Fabric::create(options, {});
    if (!receiver || !sender) return fail(receiver ? sender.error() : receiver.error());
    receivingFabric = receiver->get();
    auto port = (*receiver)->listen("127.0.0.1", 0);
    if (!port) return fail(port.error());
    auto peer = (*sender)->connect("127.0.0.1", *port);
    if (!peer) return fail(peer.error());
    for (std::uint64_t m = 0; m < count; ++m) {
        while ((*sender)->pendingSends() >= window) std::this_thread::sleep_for(std::chrono::microseconds(20));
        if (auto ok = (*sender)->send(*peer, 4, std::vector<std::byte>(64), (*sender)->buffer(size)); !ok) return fail(ok.error());
    }
    std::unique_lock lock(in.mutex);
    if (!in.done.wait_for(lock, std::chrono::seconds(60), [&] { return in.messages == count; }))
        return fail(ErrorCode::DeadlineExceeded, fmt::format("{} of {} messages arrived", in.messages, count));
    const double seconds = std::chrono::duration<double>(in.last - in.first).count();
    return static_cast<double>(size) * static_cast<double>(count - 1) / seconds / (1 << 20);
}

// ucx_perftest's ucp_am_bw, server and client on loopback, UCX_TLS as ours; MB/s as it prints it.
Result<double> perftestOnce(const std::string& transports, std::size_t size, std::uint64_t count, bool errorHandling) {
    const int port = 20000 + static_cast<int>(std::chrono::steady_clock::now().time_since_epoch().count() % 20000);
    const std::string env =
        fmt::format("UCX_TLS={}{}", transports, errorHandling && transports.find("shm") != std::string::npos ? " UCX_MM_ERROR_HANDLING=y" : "");
    const std::string flags = fmt::format("-t ucp_am_bw -s {} -n {} -w {}{}", size, count, std::max<std::uint64_t>(count / 10, 10), errorHandling ? " -e" : "");
    // The server ends after its one test, or at the latest after 120 s (a client that never came).
    const auto command = fmt::format("({} timeout 120 ucx_perftest -p {} >/dev/null 2>&1 &) ; sleep 0.5; {} timeout 120 ucx_perftest 127.0.0.1 -p {} {} 2>&1",
                                     env, port, env, port, flags);
    auto ran = shellOutput(command);
    if (!ran) return fail(ran.error());
    const std::string& output = ran->text;
    const int rc = ran->status;
    // "Final: iterations p50 average overall bw-average bw-overall rate-average rate-overall"
    const std::regex line(R"(Final:\s+\d+\s+[0-9.]+\s+[0-9.]+\s+[0-9.]+\s+[0-9.]+\s+([0-9.]+))");
    std::smatch match;
    if (rc != 0 || !std::regex_search(output, match, line))
        return fail(ErrorCode::Unavailable, fmt::format("ucx_perftest did not report (exit {}): {}", rc, output.substr(0, 300)));
    return std::stod(match[1].str());
}

struct FabricRow {
    std::size_t size = 0;
    double fabricMiBps = 0;
    double perftestMiBps = 0;
    double perftestErrorHandlingMiBps = 0;
    [[nodiscard]] double ratio() const { return fabricMiBps / std::max(perftestMiBps, perftestErrorHandlingMiBps); }
};

Result<FabricRow> measure(const BenchFabricOptions& o, std::size_t size) {
    FabricRow row{.size = size, .fabricMiBps = 0, .perftestMiBps = 0, .perftestErrorHandlingMiBps = 0};
    const auto count = std::clamp<std::uint64_t>(static_cast<std::uint64_t>(o.gibPerRun * (1 << 30) / static_cast<double>(size)), 200, 200'000);
    for (int a = 0; a < o.attempts; ++a) {
        for (const std::size_t window : {std::size_t{4}, std::size_t{16}, std::size_t{64}}) {
            auto mine = fabricOnce(o.transports, size, count, window);
            if (!mine) return fail(mine.error());
            row.fabricMiBps = std::max(row.fabricMiBps, *mine);
        }
        auto plain = perftestOnce(o.transports, size, count, false);
        auto handled = perftestOnce(o.transports, size, count, true);
        if (!plain || !handled) return fail(plain ? handled.error() : plain.error());
        row.perftestMiBps = std::max(row.perftestMiBps, *plain);
        row.perftestErrorHandlingMiBps = std::max(row.perftestErrorHandlingMiBps, *handled);
    }
    return row;
}

int run(const BenchFabricOptions& o) {
    std::vector<FabricRow> rows;
    for (const std::size_t size : o.sizes) {
        auto row = measure(o, size);
        if (!row) return reportError("bench fabric", row.error());
        rows.push_back(*row);
    }
    const bool pass = std::all_of(rows.begin(), rows.end(), [&](const FabricRow& r) { return r.ratio() >= o.bar; });
    nlohmann::json out{{"transports", o.transports}, {"bar", o.bar}, {"pass", pass}, {"rows", nlohmann::json::array()}};
    for (const FabricRow& r : rows) {
        out["rows"].push_back({{"size_bytes", r.size},
                               {"fabric_mib_s", r.fabricMiBps},
                               {"ucx_perftest_mib_s", r.perftestMiBps},
                               {"ucx_perftest_error_handling_mib_s", r.perftestErrorHandlingMiBps},
                               {"ratio", r.ratio()}});
        if (!o.json)
            std::cout << fmt::format("{:>9} B: fabric {:8.0f} MiB/s, ucx_perftest {:8.0f} ({:.0f} with error handling): {:.2f} x\n", r.size, r.fabricMiBps,
                                     r.perftestMiBps, r.perftestErrorHandlingMiBps, r.ratio());
    }
    if (o.json) std::cout << out.dump(2) << '\n';
    else std::cout << (pass ? "pass" : "FAIL") << fmt::format(": bar {} x ucx_perftest (UCX_TLS={})\n", o.bar, o.transports);
    return pass ? kExitOk : kExitFailed;
}

}  // namespace

void addBenchFabricCommand(CLI::App& bench, int& exitCode) {
    static BenchFabricOptions o;
    CLI::App* fabric = bench.add_subcommand("fabric", "The partial exchange's throughput over UCX beside ucx_perftest's (same transports and sizes)");
    fabric->add_option("--sizes", o.sizes, "Message sizes in bytes (partials)")->delimiter(',');
    fabric->add_option("--transports", o.transports, "UCX_TLS for both, e.g. tcp or tcp,shm,self");
    fabric->add_option("--gib", o.gibPerRun, "GiB sent per measurement")->check(CLI::PositiveNumber);
    fabric->add_option("--attempts", o.attempts, "Measurements of each, the best kept")->check(CLI::PositiveNumber);
    fabric->add_option("--bar", o.bar, "Exit 1 below this ratio at any size");
    fabric->add_flag("--json", o.json, "JSON output");
    fabric->callback([&] { exitCode = run(o); });
}

}  // namespace sonolink::cli
