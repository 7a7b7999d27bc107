// Built against sonolink_engine_api alone (util's include path and nothing else of ours): the
// facade headers a GUI includes compile without transport, ingest, record, beamform, dicom or
// DCMTK on the include path. Including one of those here fails this build; the include checker
// (check_includes.py) names such a line in gui/ before any build.
#include "sonolink/engine/engine.h"

namespace {

[[maybe_unused]] std::size_t facadeValuesAreUsable(const sonolink::engine::EngineStats& a, const sonolink::engine::EngineStats& b) {
    sonolink::engine::EngineEvent event = sonolink::engine::RecordingChanged{};
    return sonolink::engine::rates(a, b).threads.size() + event.index();
}

}  // namespace
