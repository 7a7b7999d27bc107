#include "sonolink/report/engine_event_json.h"

namespace sonolink::report {
namespace {

using nlohmann::json;
namespace e = sonolink::engine;

json eventJson(const e::StateChanged& s) { return {{"event", "state"}, {"from", e::toString(s.from)}, {"to", e::toString(s.to)}, {"reason", s.reason}}; }
json eventJson(const e::JobUpdate& j) {
    return {{"event", "job"}, {"id", j.id}, {"kind", e::toString(j.kind)}, {"status", e::toString(j.status)}, {"progress", j.progress}, {"message", j.message}};
}
json eventJson(const e::EngineError& x) {
    return {{"event", "error"},
            {"origin", e::toString(x.origin)},
            {"severity", e::toString(x.severity)},
            {"code", toString(x.code)},
            {"message", x.message},
            {"source", x.source},
            {"context", x.context},
            {"details", x.details}};
}
json eventJson(const e::RecordingChanged& r) {
    return {{"event", "recording"},
            {"phase", e::toString(r.phase)},
            {"path", r.path},
            {"frames", r.frames},
            {"bytes", r.bytes},
            {"frames_refused", r.framesRefused},
            {"frames_skipped", r.framesSkipped},
            {"error", r.error}};
}
json eventJson(const e::QueueChanged& q) { return {{"event", "queue"}, {"version", q.version}}; }
json eventJson(const e::SettingsChanged& s) { return {{"event", "settings"}, {"what", s.what}, {"applied", s.applied}, {"reason", s.reason}}; }

json eventJson(const e::WorklistResult& w) { return {{"event", "worklist"}, {"job", w.job}, {"exams", w.exams.size()}}; }
json elementsJson(const std::vector<e::ElementFigures>& elements) {
    json out = json::array();
    for (const auto& c : elements) {
        out.push_back(
            {{"rms", c.rms}, {"snr_db", c.snrDb}, {"neighbour_correlation", c.neighbourCorrelation}, {"fault", c.fault}, {"swapped_with", c.swappedWith}});
    }
    return out;
}
json eventJson(const e::SelfTestStep& t) {
    json out{{"event", "selftest"},
             {"step", t.step},
             {"verdict", e::toString(t.verdict)},
             {"figures", t.figures},
             {"limit", t.limit},
             {"fix", t.fix},
             {"blocks_streaming", t.blocksStreaming},
             {"bits_checked", t.bitsChecked},
             {"bit_errors", t.bitErrors},
             {"lock_losses", t.lockLosses},
             {"crc_errors", t.crcErrors},
             {"ber", t.ber},
             {"ber_upper_bound", t.berUpperBound},
             {"seconds", t.seconds}};
    if (!t.elements.empty()) out["elements"] = elementsJson(t.elements);  // the element check: by channel
    return out;
}
json eventJson(const e::SelfTestOverridden& o) { return {{"event", "selftest_override"}, {"reason", o.reason}, {"by", o.by}, {"blocked", o.blocked}}; }

}  // namespace

json toJson(const engine::EngineEvent& event) {
    return std::visit([](const auto& e) { return eventJson(e); }, event);
}

}  // namespace sonolink::report
