// rdmaDiagnostics(): the RDMA devices (capabilities, ports, GIDs, counters) and the memlock
// limit, as JSON for `sonolink-cli link diag` and for counter deltas around a stream. Unimplemented
// when this build has no verbs backend. Thread contract: call from one thread.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "sonolink/util/result.h"

namespace sonolink::cli {

[[nodiscard]] Result<nlohmann::json> rdmaDiagnostics(const std::string& device, std::uint64_t ringBytes);
// Counter increases of one device between two rdmaDiagnostics() results: {"port 1": {"name": delta}}.
[[nodiscard]] nlohmann::json counterDeltas(const nlohmann::json& before, const nlohmann::json& after, const std::string& device);

}  // namespace sonolink::cli
