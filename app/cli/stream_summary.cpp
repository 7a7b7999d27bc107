// The summary of a stream, record or replay run: the engine's final stats and the sessions'
// outcome as JSON, and that JSON as text (stream_summary.h).
#include "stream_summary.h"

#include <iostream>

#include <fmt/format.h>

#include "laser_options.h"
#include "sonolink/selftest/ber_statistics.h"

namespace sonolink::cli {

nlohmann::json streamSummaryJson(const engine::EngineStats& s, const StreamOutcome& out, const nlohmann::json& recording, const nlohmann::json& portCounters) {
    const auto& l = s.link;
    auto errors = out.linkErrors;
    errors.insert(errors.end(), l.recentRejections.begin(), l.recentRejections.end());
    const auto ber = selftest::estimateBer(l.patternBitErrors, l.patternBitsChecked, 0.95);
    return {{"ok", out.exitCode == kExitOk},
            {"sessions", out.sessions},
            {"frames_delivered", s.framesDelivered - out.selfTestDelivered},
            {"selftest_frames", out.selfTestFrames},
            {"frames_incomplete", s.framesIncomplete},
            {"frames_missing", s.framesMissing},
            {"frames_dropped_no_buffer", s.framesDroppedNoBuffer},
            {"blocks_ok", l.blocksOk},
            {"bytes_ok", s.bytes},
            {"header_errors", s.headerErrors},
            {"payload_crc_errors", s.crcErrors},
            {"length_mismatches", l.lengthMismatches},
            {"immediate_mismatches", l.immediateMismatches},
            {"completion_errors", l.completionErrors},
            {"credit_violations", l.creditViolations},
            {"sequence_gaps", l.sequenceGaps},
            {"duplicates", l.duplicates},
            {"reordered", l.reordered},
            {"late_blocks", l.lateBlocks},
            {"laser", laserJson(s)},
            {"malformed_control_messages", l.malformedControlMessages},
            {"ber_bits_checked", l.patternBitsChecked},
            {"ber_bit_errors", l.patternBitErrors},
            {"ber", ber.rate},
            {"ber_upper_95", ber.upper},
            {"ber_lock_losses", l.patternLockLosses},
            {"ber_bursts", l.patternBursts},
            {"ber_longest_burst_bits", l.patternLongestBurstBits},
            {"seconds", s.streamingSeconds},
            {"throughput_gbps", s.streamingSeconds > 0 ? s.bytes * 8 / s.streamingSeconds / 1e9 : 0.0},
            {"latency_p50_us", l.latencyP50Us},
            {"latency_p99_us", l.latencyP99Us},
            {"latency_p999_us", l.latencyP999Us},
            {"errors", errors},
            {"device", l.device},
            {"port_counters", portCounters},
            {"recording", recording}};
}

void printStreamSummary(const nlohmann::json& j, const std::string& recordFile) {
    const double seconds = j["seconds"];
    const int sessions = j["sessions"];
    std::cout << fmt::format("{} frames delivered, {} incomplete, {} missing over {} session{} in {:.2f} s ({:.2f} Gb/s payload)\n",
                             j["frames_delivered"].get<std::uint64_t>(), j["frames_incomplete"].get<std::uint64_t>(), j["frames_missing"].get<std::uint64_t>(),
                             sessions, sessions == 1 ? "" : "s", seconds, j["throughput_gbps"].get<double>());
    if (j["selftest_frames"].get<std::uint64_t>() > 0) {
        std::cout << fmt::format("start-up self-test: {} test-pattern frames before streaming (in the block and BER counts below, never recorded)\n",
                                 j["selftest_frames"].get<std::uint64_t>());
    }
    std::cout << fmt::format("blocks: {} ok, {} header errors, {} CRC errors, {} gaps, {} duplicates, {} reordered, {} late\n",
                             j["blocks_ok"].get<std::uint64_t>(), j["header_errors"].get<std::uint64_t>(), j["payload_crc_errors"].get<std::uint64_t>(),
                             j["sequence_gaps"].get<std::uint64_t>(), j["duplicates"].get<std::uint64_t>(), j["reordered"].get<std::uint64_t>(),
                             j["late_blocks"].get<std::uint64_t>());
    if (!j["recording"].is_null()) {
        std::cout << fmt::format("recorded {} frames to {} ({} refused, {} never arrived: gaps in its frame ids)\n",
                                 j["recording"]["frames_recorded"].get<std::uint64_t>(), recordFile, j["recording"]["frames_refused"].get<std::uint64_t>(),
                                 j["recording"]["frames_skipped"].get<std::uint64_t>());
    }
    if (j["ber_bits_checked"].get<std::uint64_t>() > 0) {
        std::cout << fmt::format(
            "test pattern: {} bits compared, {} bit errors (BER {:.3g}, under {:.3g} at 95 % confidence), {} bursts, "
            "longest {} bits, {} losses of lock\n",
            j["ber_bits_checked"].get<std::uint64_t>(), j["ber_bit_errors"].get<std::uint64_t>(), j["ber"].get<double>(), j["ber_upper_95"].get<double>(),
            j["ber_bursts"].get<std::uint64_t>(), j["ber_longest_burst_bits"].get<std::uint64_t>(), j["ber_lock_losses"].get<std::uint64_t>());
    }
    if (const auto& laser = j["laser"]; laser["fired"].get<std::uint64_t>() + laser["missed"].get<std::uint64_t>() + laser["late"].get<std::uint64_t>() > 0) {
        std::cout << fmt::format(
            "laser: {} shots fired, {} missed, {} late ({} scheduled); pulse energy {:.2f} mJ mean, {:.1f} % spread; "
            "worst fire-time error {:.2f} us\n",
            laser["fired"].get<std::uint64_t>(), laser["missed"].get<std::uint64_t>(), laser["late"].get<std::uint64_t>(),
            laser["scheduled"].get<std::uint64_t>(), laser["energy_mean_mj"].get<double>(), laser["energy_spread_percent"].get<double>(),
            laser["worst_fire_error_us"].get<double>());
    }
    std::cout << fmt::format("latency block write -> frame ready: p50 {:.1f} us, p99 {:.1f} us, p99.9 {:.1f} us\n", j["latency_p50_us"].get<double>(),
                             j["latency_p99_us"].get<double>(), j["latency_p999_us"].get<double>());
    for (const auto& e : j["errors"]) std::cout << "  " << e.get<std::string>() << '\n';
    const std::string device = j["device"];
    for (const auto& [port, deltas] : j["port_counters"].items()) {
        std::cout << device << " " << port << " counters during the run:";
        for (const auto& [name, delta] : deltas.items()) std::cout << ' ' << name << " +" << delta.get<std::uint64_t>();
        std::cout << '\n';
    }
}

}  // namespace sonolink::cli
