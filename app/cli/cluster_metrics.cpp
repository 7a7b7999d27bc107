#include "cluster_metrics.h"

#include <fmt/format.h>

namespace sonolink::cli {
namespace {

// One metric family: its HELP and TYPE, then a sample per (labels, value).
void family(std::string& out, const char* name, const char* type, const char* help) {
    out += fmt::format("# HELP sonolink_cluster_{0} {1}\n# TYPE sonolink_cluster_{0} {2}\n", name, help, type);
}

void sample(std::string& out, const char* name, const std::string& labels, double value) {
    out += fmt::format("sonolink_cluster_{}{} {}\n", name, labels.empty() ? "" : "{" + labels + "}", value);
}

}  // namespace

std::string clusterPrometheusText(const cluster::CoordinatorStats& s) {
    std::string out;
    auto n = [](std::uint64_t v) { return static_cast<double>(v); };
    family(out, "frames_total", "counter", "Frames let go by the coordinator, by kind.");
    for (const auto& [kind, value] : {std::pair{"complete", s.counts.complete}, std::pair{"incomplete", s.counts.incomplete},
                                      std::pair{"dropped", s.counts.dropped}, std::pair{"never_seen", s.counts.neverSeen}})
        sample(out, "frames_total", fmt::format("kind=\"{}\"", kind), n(value));
    family(out, "partials_unused_total", "counter", "Partials not joined, by why.");
    for (const auto& [kind, value] : {std::pair{"late", s.counts.late}, std::pair{"duplicate", s.counts.duplicate}, std::pair{"refused", s.counts.refused}})
        sample(out, "partials_unused_total", fmt::format("why=\"{}\"", kind), n(value));
    family(out, "epoch", "gauge", "The plan epoch in effect.");
    sample(out, "epoch", "", s.epoch);
    family(out, "added_latency_seconds", "gauge", "Last partial in to image ready, over the last 1,024 frames.");
    sample(out, "added_latency_seconds", "quantile=\"0.5\"", s.addedLatencyMsP50 / 1e3);
    sample(out, "added_latency_seconds", "quantile=\"0.99\"", s.addedLatencyMsP99 / 1e3);
    family(out, "host_up", "gauge", "1 while a host is joined, 0 when lost, refused, done or not yet in.");
    family(out, "host_partials_total", "counter", "Partials joined, per host.");
    family(out, "host_missing_total", "counter", "Frames let go without this host's part.");
    family(out, "host_losses_total", "counter", "Times this host was lost.");
    family(out, "host_received_bytes_total", "counter", "Partial bytes received from this host (header and values).");
    family(out, "host_partial_latency_seconds", "gauge", "Beamformed on the host to in at the coordinator, the last partial.");
    for (std::size_t h = 0; h < s.hosts.size(); ++h) {
        const cluster::HostHealth& host = s.hosts[h];
        const std::string labels = fmt::format("host=\"{}\",name=\"{}\"", h, host.name);
        const cluster::HostTally tally = h < s.counts.hosts.size() ? s.counts.hosts[h] : cluster::HostTally{};
        sample(out, "host_up", labels, host.state == cluster::HostState::Joined ? 1 : 0);
        sample(out, "host_partials_total", labels, n(tally.partials));
        sample(out, "host_missing_total", labels, n(tally.missing));
        sample(out, "host_losses_total", labels, n(host.losses));
        sample(out, "host_received_bytes_total", labels, n(host.bytesReceived));
        sample(out, "host_partial_latency_seconds", labels, host.partialLatencyMsLast / 1e3);
    }
    return out;
}

}  // namespace sonolink::cli
