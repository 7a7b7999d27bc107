#include "sonolink/app/metrics_endpoint.h"

#include <map>

#include <fmt/format.h>

#include "metrics_server.h"

namespace sonolink::app {

std::string prometheusText(const engine::EngineStats& s, const std::vector<engine::QueueItem>& queue, bool queueConfigured) {
    std::string out;
    auto metric = [&](const char* name, const char* type, const char* help, double value) {
        out += fmt::format("# HELP sonolink_{0} {1}\n# TYPE sonolink_{0} {2}\nsonolink_{0} {3}\n", name, help, type, value);
    };
    auto count = [](std::uint64_t n) { return static_cast<double>(n); };
    metric("frames_delivered_total", "counter", "Frames delivered intact by ingest.", count(s.framesDelivered));
    metric("frames_incomplete_total", "counter", "Frames with blocks missing or rejected.", count(s.framesIncomplete));
    metric("frames_missing_total", "counter", "Frames of which no block arrived.", count(s.framesMissing));
    metric("frames_dropped_no_buffer_total", "counter", "Frames dropped because consumers held every buffer.", count(s.framesDroppedNoBuffer));
    metric("crc_errors_total", "counter", "Blocks whose payload failed its CRC-32C.", count(s.crcErrors));
    metric("header_errors_total", "counter", "Blocks whose header failed its checks.", count(s.headerErrors));
    metric("payload_bytes_total", "counter", "Payload bytes of intact blocks.", count(s.bytes));
    metric("frames_displayed_total", "counter", "Frames beamformed and published.", count(s.framesDisplayed));
    metric("display_skipped_total", "counter", "Frames a newer one replaced before the display took them (lossy by design).", count(s.displaySkipped));
    metric("frames_recorded_total", "counter", "Frames written to the recording.", count(s.framesRecorded));
    metric("frames_record_refused_total", "counter", "Frames the recorder could not take (recording failed).", count(s.framesRecordRefused));
    metric("frames_record_skipped_total", "counter", "Frames that never arrived between recorded ones (gaps in the recordings' frame ids).",
           count(s.framesRecordSkipped));
    metric("front_end_frames_dropped", "gauge", "Whole frames the front end dropped for want of a credit (this session).", count(s.frontEnd.framesDropped));
    metric("front_end_error_reports_total", "counter", "Error reports the front end sent.", count(s.frontEnd.errorReports));
    metric("front_end_temperature_celsius", "gauge", "The front end's temperature.", s.frontEnd.temperatureC);
    metric("latency_p50_seconds", "gauge", "Last block written to image published, median.", s.latencyP50Us / 1e6);
    metric("latency_p99_seconds", "gauge", "Last block written to image published, 99th percentile.", s.latencyP99Us / 1e6);
    metric("sessions_total", "counter", "Link sessions (a reconnect adds one).", count(s.sessions));
    metric("imager_seconds_total", "counter", "Time the display imager (CPU or GPU) spent on frames.", s.imagerSeconds);
    out += "# HELP sonolink_state The engine's state (1 for the current one).\n# TYPE sonolink_state gauge\n";
    for (auto state : {engine::EngineState::Idle, engine::EngineState::Connecting, engine::EngineState::SelfTest, engine::EngineState::Ready,
                       engine::EngineState::Streaming, engine::EngineState::Frozen, engine::EngineState::Error}) {
        out += fmt::format("sonolink_state{{state=\"{}\"}} {}\n", engine::toString(state), state == s.state ? 1 : 0);
    }
    out += "# HELP sonolink_thread_cpu_seconds_total CPU time per named thread.\n# TYPE sonolink_thread_cpu_seconds_total counter\n";
    for (const auto& t : s.threads) out += fmt::format("sonolink_thread_cpu_seconds_total{{thread=\"{}\"}} {}\n", t.name, t.cpuSeconds);
    if (queueConfigured) {
        std::map<std::string, int> byState;
        for (const auto& item : queue) ++byState[std::string(engine::toString(item.state))];
        out += "# HELP sonolink_dicom_queue_items PACS queue items by state.\n# TYPE sonolink_dicom_queue_items gauge\n";
        for (const auto& [state, n] : byState) out += fmt::format("sonolink_dicom_queue_items{{state=\"{}\"}} {}\n", state, n);
    }
    if (!s.cluster.file.empty()) out += clusterPrometheusText(s.cluster);
    return out;
}

Result<std::unique_ptr<MetricsEndpoint>> MetricsEndpoint::start(const engine::Engine& engine, int port, bool queueConfigured) {
    return serve(port, [&engine, queueConfigured] {
        return prometheusText(engine.stats(), queueConfigured ? engine.dicomQueue() : std::vector<engine::QueueItem>{}, queueConfigured);
    });
}

Result<std::unique_ptr<MetricsEndpoint>> MetricsEndpoint::serve(int port, std::function<std::string()> render) {
    auto server = MetricsServer::start(port, std::move(render));
    if (!server) return fail(std::move(server.error()));
    return std::unique_ptr<MetricsEndpoint>(new MetricsEndpoint(std::move(*server)));
}

MetricsEndpoint::MetricsEndpoint(std::unique_ptr<MetricsServer> server) : server_(std::move(server)) {}
MetricsEndpoint::~MetricsEndpoint() = default;
int MetricsEndpoint::port() const noexcept { return server_->port(); }

Result<std::unique_ptr<MetricsEndpoint>> startMetrics(const config::AppConfig& config, const engine::Engine& engine) {
    if (config.metrics.prometheusPort < 0) return std::unique_ptr<MetricsEndpoint>();
    return MetricsEndpoint::start(engine, config.metrics.prometheusPort, !config.dicom.queueDirectory.empty());
}

}  // namespace sonolink::app
