// sonolink-cli soak: the link, the simulated front end and ingest for a long time with every
// fault kind injected: bit flips, drops, duplicates, reorders and stalls in every session, and
// every third session a front end that vanishes mid-stream. Each session is a fresh in-process
// link and front end (a reconnect). Checked on every block and frame:
// - no silent corruption (every delivered block byte-equal to what the front end generated);
// - frames delivered in order;
// - each injected fault detected as its kind, the accounting exact (sessions that end
//   normally);
// - each vanishing front end detected as lost;
// - memory flat (RSS drift after warm-up).
// A service tool below the engine, like bench ingest.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "exit_codes.h"
#include "sonolink/ingest/stream_session.h"
#include "sonolink/transport/sim/in_process_front_end.h"

namespace sonolink::cli {
namespace {

struct SoakOptions {
    double seconds = 120;
    double hours = 0;  // > 0: instead of seconds (the 3-hour and 72-hour runs)
    double sessionSeconds = 3;
    double rssDriftBar = 0.01;    // at most 1 % growth after warm-up
    std::uint64_t minBlocks = 0;  // the run must stream at least this many blocks (CI: 1e7 in 2 minutes)
    bool json = false;
};

// Every delivered block against the front end's own frame, and the order of frames.
class VerifyingSink final : public ingest::FrameSink {
public:
    explicit VerifyingSink(const transport::sim::FrontEndSimulator& simulator) : simulator_(simulator) {}
    void onFrame(const ingest::FrameRef& frame) noexcept override {
        if (frames > 0 && frame->frameId() <= lastFrameId) ++outOfOrder;
        lastFrameId = frame->frameId();
        ++frames;
        const auto expected = simulator_.framePayload(frame->frameId());
        const auto& layout = simulator_.layout();
        for (std::uint16_t b = 0; b < frame->blockCount(); ++b) {
            const auto& block = frame->block(b);
            const auto& where = layout.blocks[b];
            ++blocks;
            if (block.payload.size() != where.payloadBytes || std::memcmp(block.payload.data(), expected.data() + where.frameOffset, where.payloadBytes) != 0) {
                ++silentlyCorrupt;
            }
        }
    }
    std::uint64_t frames = 0, blocks = 0, silentlyCorrupt = 0, outOfOrder = 0;
    std::uint32_t lastFrameId = 0;

private:
    const transport::sim::FrontEndSimulator& simulator_;
};

std::uint64_t rssBytes() {
    std::ifstream statm("/proc/self/statm");
    std::uint64_t size = 0, resident = 0;
    statm >> size >> resident;
    return resident * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
}

struct Totals {
    std::uint64_t sessions = 0, vanished = 0, vanishDetected = 0;
    std::uint64_t blocksSent = 0, blocksVerified = 0, framesDelivered = 0;
    std::uint64_t silentlyCorrupt = 0, outOfOrder = 0, accountingMismatches = 0;
    transport::sim::FaultCounts injected;
    std::uint64_t gaps = 0, duplicates = 0, reordered = 0, headerErrors = 0, crcErrors = 0, incomplete = 0, missing = 0;
    std::vector<std::string> problems;
};

void add(transport::sim::FaultCounts& into, const transport::sim::FaultCounts& c) {
    into.blocksDropped += c.blocksDropped;
    into.blocksDuplicated += c.blocksDuplicated;
    into.blocksReordered += c.blocksReordered;
    into.headersCorrupted += c.headersCorrupted;
    into.payloadsCorrupted += c.payloadsCorrupted;
    into.bitsFlipped += c.bitsFlipped;
    into.stalls += c.stalls;
    into.framesLostWhole += c.framesLostWhole;
    into.framesLostPart += c.framesLostPart;
}

// The front end of session `id`: every fault kind, seeded by the session; vanish: gone without
// a word halfway through its frames (a little later each session).
transport::sim::FrontEndOptions soakFrontEndOptions(std::uint64_t id, std::uint32_t frames, bool vanish) {
    transport::sim::FrontEndOptions fe;
    fe.faults.bitErrorRate = 1e-7;
    fe.faults.dropRate = fe.faults.duplicateRate = fe.faults.reorderRate = 1e-4;
    fe.faults.stallEveryBlocks = 50'000;
    fe.faults.stallDuration = std::chrono::milliseconds(20);
    fe.faults.seed = id + 1;
    if (vanish) fe.faults.disconnectAfterBlocks = frames * 8ull / 2 + id % 1000;
    fe.postBatch = 8;
    return fe;
}

// A session that ended normally: what ingest detected, added to the totals, must be exactly
// what the front end injected and sent; a session that differs is a problem.
void checkSoakAccounting(Totals& t, std::uint64_t id, const ingest::IngestStats& s, const transport::sim::FaultCounts& injected,
                         const transport::sim::FrontEndCounters& sent, const VerifyingSink& sink) {
    t.gaps += s.sequenceGaps;
    t.duplicates += s.duplicates;
    t.reordered += s.reordered;
    t.headerErrors += s.headerErrors;
    t.crcErrors += s.payloadCrcErrors;
    t.incomplete += s.framesIncomplete;
    t.missing += s.framesMissing;
    const bool exact = s.sequenceGaps == injected.blocksDropped && s.duplicates == injected.blocksDuplicated && s.reordered == injected.blocksReordered &&
                       s.headerErrors == injected.headersCorrupted && s.payloadCrcErrors == injected.payloadsCorrupted &&
                       s.framesIncomplete == injected.framesLostPart && s.framesMissing == injected.framesLostWhole + sent.framesDroppedNoCredit &&
                       s.framesDelivered == sink.frames &&
                       s.blocksOk == sent.blocksSent - injected.blocksDropped - injected.headersCorrupted - injected.payloadsCorrupted;
    if (!exact) {
        ++t.accountingMismatches;
        t.problems.push_back(
            fmt::format("session {}: detected gaps {} dup {} reorder {} header {} crc {} incomplete {} missing {}; injected "
                        "{} {} {} {} {} {} {}",
                        id, s.sequenceGaps, s.duplicates, s.reordered, s.headerErrors, s.payloadCrcErrors, s.framesIncomplete, s.framesMissing,
                        injected.blocksDropped, injected.blocksDuplicated, injected.blocksReordered, injected.headersCorrupted, injected.payloadsCorrupted,
                        injected.framesLostPart, injected.framesLostWhole));
    }
}

// One session: a fresh link and front end with every fault kind; vanish: the front end is gone
// without a word after some blocks, and the host must see it.
void runSession(const SoakOptions& o, Totals& t, bool vanish) {
    const auto id = t.sessions++;
    auto link = transport::sim::SimLink::create({"", 4096, 256, std::chrono::milliseconds(5000)});
    if (!link) return t.problems.push_back(fmt::format("session {}: {}", id, link.error().message()));
    const std::uint32_t frames = static_cast<std::uint32_t>(o.sessionSeconds * 25'000);  // ~200k blocks/s at 8 blocks a frame
    auto started = transport::sim::InProcessFrontEnd::start(**link, soakFrontEndOptions(id, frames, vanish));
    if (!started) return t.problems.push_back(fmt::format("session {}: {}", id, started.error().message()));
    auto& frontEnd = **started;
    ingest::SessionOptions options;
    options.configure.channelCount = 64;
    options.configure.samplesPerChannel = 124;  // 16 channels per 4 KiB slot: 8 blocks a frame
    options.configure.anglesMilliDeg = {-5000, 5000};
    options.configure.frameRateMilliHz = 0;
    auto session = ingest::StreamSession::open(**link, options);
    if (!session) return t.problems.push_back(fmt::format("session {}: {}", id, session.error().message()));
    VerifyingSink sink(frontEnd.simulator());
    (*session)->ingest().addSink(sink);
    std::atomic<bool> stop{false};
    auto summary = (*session)->run(frames, stop);
    frontEnd.join();
    const auto& injected = frontEnd.simulator().faults();
    const auto& sent = frontEnd.simulator().counters();
    add(t.injected, injected);
    t.blocksSent += sent.blocksSent;
    t.blocksVerified += sink.blocks;
    t.framesDelivered += sink.frames;
    t.silentlyCorrupt += sink.silentlyCorrupt;
    t.outOfOrder += sink.outOfOrder;
    if (vanish) {
        ++t.vanished;
        if (!summary && summary.error().code() == ErrorCode::Unavailable) ++t.vanishDetected;
        else t.problems.push_back(fmt::format("session {}: the front end vanished and the host did not notice", id));
        return;
    }
    if (!summary) return t.problems.push_back(fmt::format("session {}: {}", id, summary.error().message()));
    checkSoakAccounting(t, id, summary->stats, injected, sent, sink);
}

// The resident memory after the warm-up sessions, its peak after them, and the drift between.
struct SoakMemory {
    std::uint64_t warm = 0, peak = 0;
    double drift = 0;
};

nlohmann::json soakJson(const Totals& t, double seconds, const SoakMemory& memory, bool ok) {
    return nlohmann::json{{"seconds", seconds},
                          {"sessions", t.sessions},
                          {"blocks_sent", t.blocksSent},
                          {"blocks_verified", t.blocksVerified},
                          {"frames_delivered", t.framesDelivered},
                          {"silently_corrupt_blocks", t.silentlyCorrupt},
                          {"frames_out_of_order", t.outOfOrder},
                          {"front_ends_vanished", t.vanished},
                          {"vanished_detected", t.vanishDetected},
                          {"injected",
                           {{"drops", t.injected.blocksDropped},
                            {"duplicates", t.injected.blocksDuplicated},
                            {"reorders", t.injected.blocksReordered},
                            {"headers_corrupted", t.injected.headersCorrupted},
                            {"payloads_corrupted", t.injected.payloadsCorrupted},
                            {"bits_flipped", t.injected.bitsFlipped},
                            {"stalls", t.injected.stalls}}},
                          {"detected_in_sessions_that_ended",
                           {{"gaps", t.gaps},
                            {"duplicates", t.duplicates},
                            {"reordered", t.reordered},
                            {"header_errors", t.headerErrors},
                            {"crc_errors", t.crcErrors},
                            {"frames_incomplete", t.incomplete},
                            {"frames_missing", t.missing}}},
                          {"accounting_mismatches", t.accountingMismatches},
                          {"rss_after_warm_up_bytes", memory.warm},
                          {"rss_peak_bytes", memory.peak},
                          {"rss_drift", memory.drift},
                          {"problems", t.problems},
                          {"ok", ok}};
}

void printSoakSummary(const Totals& t, double seconds, const SoakMemory& memory, bool ok) {
    std::cerr << '\n';
    std::cout << fmt::format("soak: {:.0f} s, {} sessions ({} front ends vanished, {} seen lost), {} blocks sent, {} verified byte for byte\n", seconds,
                             t.sessions, t.vanished, t.vanishDetected, t.blocksSent, t.blocksVerified);
    std::cout << fmt::format("injected: {} drops, {} duplicates, {} reorders, {} headers and {} payloads corrupted ({} bits), {} stalls\n",
                             t.injected.blocksDropped, t.injected.blocksDuplicated, t.injected.blocksReordered, t.injected.headersCorrupted,
                             t.injected.payloadsCorrupted, t.injected.bitsFlipped, t.injected.stalls);
    std::cout << fmt::format("silently corrupt blocks {}, frames out of order {}, sessions whose accounting differs {}, RSS drift {:+.2f} %\n",
                             t.silentlyCorrupt, t.outOfOrder, t.accountingMismatches, memory.drift * 100);
    for (const auto& p : t.problems) std::cout << "  " << p << '\n';
    std::cout << (ok ? "PASS\n" : "FAIL\n");
}

int runSoak(const SoakOptions& o) {
    const auto total = std::chrono::duration<double>(o.hours > 0 ? o.hours * 3600 : o.seconds);
    const auto start = std::chrono::steady_clock::now();
    Totals t;
    std::uint64_t rssWarm = 0, rssPeakAfterWarm = 0;
    while (std::chrono::steady_clock::now() - start < total) {
        runSession(o, t, t.sessions % 3 == 2);
        const auto rss = rssBytes();
        if (t.sessions == 3) rssWarm = rss;  // after the first of each kind of session
        if (t.sessions > 3) rssPeakAfterWarm = std::max(rssPeakAfterWarm, rss);
        if (!o.json) {
            std::cerr << fmt::format("\rsoak: {} sessions, {} blocks, {} corrupt, {} accounting mismatches, RSS {:.1f} MiB", t.sessions, t.blocksSent,
                                     t.silentlyCorrupt, t.accountingMismatches, static_cast<double>(rss) / (1 << 20))
                      << std::flush;
        }
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double drift =
        rssWarm > 0 && rssPeakAfterWarm > 0 ? (static_cast<double>(rssPeakAfterWarm) - static_cast<double>(rssWarm)) / static_cast<double>(rssWarm) : 0;
    if (t.blocksSent < o.minBlocks) t.problems.push_back(fmt::format("{} blocks streamed, fewer than the {} asked for", t.blocksSent, o.minBlocks));
    const bool ok = t.problems.empty() && t.silentlyCorrupt == 0 && t.outOfOrder == 0 && t.vanishDetected == t.vanished && drift <= o.rssDriftBar;
    const SoakMemory memory{rssWarm, rssPeakAfterWarm, drift};
    if (o.json) {
        std::cout << soakJson(t, seconds, memory, ok).dump(2) << '\n';
    } else {
        printSoakSummary(t, seconds, memory, ok);
    }
    return ok ? kExitOk : kExitFailed;
}

}  // namespace

void addSoakCommand(CLI::App& app, int& exitCode) {
    auto o = std::make_shared<SoakOptions>();
    auto* cmd = app.add_subcommand("soak", "Stream for a long time with every fault kind injected, checking every block, the accounting and memory");
    auto* seconds = cmd->add_option("--seconds", o->seconds, "How long")->check(CLI::Range(1.0, 1e7))->capture_default_str();
    cmd->add_option("--hours", o->hours, "How long, in hours (the 3-hour and 72-hour runs)")->check(CLI::Range(0.001, 1000.0))->excludes(seconds);
    cmd->add_option("--session-seconds", o->sessionSeconds, "About how long each session (link and front end) lasts")
        ->check(CLI::Range(0.2, 3600.0))
        ->capture_default_str();
    cmd->add_option("--rss-drift", o->rssDriftBar, "Largest RSS growth allowed after warm-up (fraction)")->check(CLI::Range(0.0, 1.0))->capture_default_str();
    cmd->add_option("--min-blocks", o->minBlocks, "Fail unless at least this many blocks were streamed");
    cmd->add_flag("--json", o->json, "Print the summary as JSON");
    cmd->callback([o, &exitCode] { exitCode = runSoak(*o); });
}

}  // namespace sonolink::cli
