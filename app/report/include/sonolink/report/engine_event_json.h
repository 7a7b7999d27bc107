// toJson(EngineEvent): one engine event as a JSON object ({"event": "state", "from": ..., ...}),
// what `--json-events` prints one per line, so scripts and tests read fields, not wording.
// Thread contract: pure function.
#pragma once

#include <nlohmann/json.hpp>

#include "sonolink/engine/engine_types.h"

namespace sonolink::report {

[[nodiscard]] nlohmann::json toJson(const engine::EngineEvent& event);

}  // namespace sonolink::report
