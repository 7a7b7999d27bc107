#include <fmt/format.h>

#include "sonolink/app/metrics_endpoint.h"

namespace sonolink::app {
namespace {

// One metric family: its HELP and TYPE, then a sample per (labels, value).
void family(std::string& out, const char* name, const char* type, const char* help) {
    out += fmt::format("# HELP sonolink_cluster_{0} {1}\n# TYPE sonolink_cluster_{0} {2}\n", name, help, type);
}

void sample(std::string& out, const char* name, const std::string& labels, double value) {
    out += fmt::format("sonolink_cluster_{}{} {}\n", name, labels.empty() ? "" : "{" + labels + "}", value);
}

}  // namespace

std::string clusterPrometheusText(const engine::ClusterHealth& s) {
    std::string out;
    auto n = [](std::uint64_t v) { return static_cast<double>(v); };
    family(out, "frames_total", "counter", "Frames let go by the coordinator, by kind.");
    for (const auto& [kind, value] : {std::pair{"complete", s.framesComplete}, std::pair{"incomplete", s.framesIncomplete},
                                      std::pair{"dropped", s.framesDropped}, std::pair{"never_seen", s.framesNeverSeen}})
        sample(out, "frames_total", fmt::format("kind=\"{}\"", kind), n(value));
    family(out, "partials_unused_total", "counter", "Partials not joined, by why.");
    for (const auto& [kind, value] : {std::pair{"late", s.partsLate}, std::pair{"duplicate", s.partsDuplicate}, std::pair{"refused", s.partsRefused}})
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
        const engine::ClusterHostHealth& host = s.hosts[h];
        const std::string labels = fmt::format("host=\"{}\",name=\"{}\"", h, host.name);
        sample(out, "host_up", labels, host.state == "joined" ? 1 : 0);
        sample(out, "host_partials_total", labels, n(host.partials));
        sample(out, "host_missing_total", labels, n(host.missing));
        sample(out, "host_losses_total", labels, n(host.losses));
        sample(out, "host_received_bytes_total", labels, n(host.bytesReceived));
        sample(out, "host_partial_latency_seconds", labels, host.partialLatencyMs / 1e3);
    }
    return out;
}

}  // namespace sonolink::app
