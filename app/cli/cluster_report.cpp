#include "cluster_report.h"

#include <algorithm>
#include <iostream>

#include <fmt/format.h>

#include "sonolink/cluster/partial_image.h"

namespace sonolink::cli {
namespace {

using nlohmann::json;

double percentile(std::vector<double> values, double p) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    const auto i = static_cast<std::size_t>(p * static_cast<double>(values.size() - 1) + 0.5);
    return values[std::min(i, values.size() - 1)];
}

json hostJson(const cluster::HostHealth& h, std::size_t partialBytes) {
    const std::uint64_t parts = h.bytesReceived / std::max<std::size_t>(partialBytes, 1);
    return {{"name", h.name},
            {"address", h.address},
            {"state", cluster::toString(h.state)},
            {"last_problem", h.lastProblem},
            {"losses", h.losses},
            {"bytes_received", h.bytesReceived},
            {"bytes_per_partial", parts > 0 ? h.bytesReceived / parts : 0},
            {"partial_latency_ms_last", h.partialLatencyMsLast},
            {"partials_sent", h.reported.partialsSent},
            {"triggers_skipped", h.reported.triggersSkipped},
            {"beamform_ms_last", h.reported.beamformMsLast},
            {"said_bye", h.saidBye}};
}

json summaryJson(const cluster::ClusterFile& file, const cluster::CoordinatorSummary& s, const FrameTally& tally) {
    const std::size_t partialBytes = file.plan.partialValues() * sizeof(float) + cluster::kPartialHeaderBytes;
    json hosts = json::array();
    for (std::size_t h = 0; h < s.hosts.size(); ++h) {
        json one = hostJson(s.hosts[h], partialBytes);
        one["partials"] = s.counts.hosts[h].partials;
        one["missing"] = s.counts.hosts[h].missing;
        one["late"] = s.counts.hosts[h].late;
        one["refused"] = s.counts.hosts[h].refused;
        hosts.push_back(std::move(one));
    }
    const double seconds = static_cast<double>(tally.lastReadyNs - tally.firstReadyNs) / 1e9;
    return {{"frames",
             {{"complete", s.counts.complete},
              {"incomplete", s.counts.incomplete},
              {"dropped", s.counts.dropped},
              {"never_seen", s.counts.neverSeen},
              {"first_trigger", s.firstTrigger},
              {"last_trigger", s.lastTrigger},
              {"shown", tally.shown},
              {"shown_per_s", seconds > 0 ? static_cast<double>(tally.shown - 1) / seconds : 0}}},
            {"partials", {{"late", s.counts.late}, {"duplicate", s.counts.duplicate}, {"refused", s.counts.refused}, {"corrupt", s.corrupt}}},
            {"partial_bytes", partialBytes},
            {"raw_bytes_per_host_frame", file.plan.geometry.samplesPerFrame() * sizeof(std::int16_t) / file.plan.hosts.size()},
            {"added_latency_ms", {{"p50", percentile(s.latencyMs, 0.5)}, {"p99", percentile(s.latencyMs, 0.99)}, {"max", percentile(s.latencyMs, 1.0)}}},
            {"held_ms_max", s.heldMsMax},
            {"deadline_ms", static_cast<double>(file.timing.deadlineNs()) / 1e6},
            {"counts_agree", s.countsAgree},
            {"disagreement", s.disagreement},
            {"hosts", hosts}};
}

}  // namespace

void FrameTally::add(const cluster::FinishedFrame& frame) {
    if (shown == 0) firstReadyNs = frame.readyNs;
    lastReadyNs = frame.readyNs;
    ++shown;
    ++(frame.complete ? complete : incomplete);
}

json eventJson(const cluster::CoordinatorEvent& e) {
    json out{{"at_ns", e.atNs}, {"epoch", e.epoch}, {"text", e.text}};
    if (e.host >= 0) out["host"] = e.host;
    if (e.trigger > 0 || e.kind == "frame_incomplete") out["trigger"] = e.trigger;
    return out;
}

void printSummary(const cluster::ClusterFile& file, const cluster::CoordinatorSummary& s, const FrameTally& tally, bool asJson) {
    const json summary = summaryJson(file, s, tally);
    if (asJson) {
        std::cout << summary.dump() << std::endl;  // one line, after the event lines
        return;
    }
    std::cout << fmt::format("frames: {} complete, {} incomplete, {} dropped, {} never seen (triggers {}..{})\n", s.counts.complete, s.counts.incomplete,
                             s.counts.dropped, s.counts.neverSeen, s.firstTrigger, s.lastTrigger);
    std::cout << fmt::format("added latency (last part in -> image ready): p50 {:.2f} ms, p99 {:.2f} ms\n", summary["added_latency_ms"]["p50"].get<double>(),
                             summary["added_latency_ms"]["p99"].get<double>());
    for (const json& h : summary["hosts"])
        std::cout << fmt::format("  {:<12} {:<8} {} partials, {} missing, {} late, {} refused; {}\n", h["name"].get<std::string>(),
                                 h["state"].get<std::string>(), h["partials"].get<std::uint64_t>(), h["missing"].get<std::uint64_t>(),
                                 h["late"].get<std::uint64_t>(), h["refused"].get<std::uint64_t>(), h["last_problem"].get<std::string>());
    std::cout << (s.countsAgree ? "counts agree\n" : "COUNTS DISAGREE: " + s.disagreement + "\n");
}

}  // namespace sonolink::cli
