// readJsonFile: a JSON document read from a file the user names (a report, a worklist answer):
// a regular file within a size budget (a FIFO or a device refused before it is opened for
// reading), nested no deeper than kMaxJsonNesting, then parsed. Every failure names the file.
// Thread contract: a pure function.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "sonolink/util/result.h"

namespace sonolink::report {

inline constexpr std::size_t kMaxJsonFileBytes = std::size_t(64) << 20;

// NotFound; InvalidArgument (no regular file, too large, too deep, not JSON), each naming `what` and path.
[[nodiscard]] Result<nlohmann::json> readJsonFile(const std::string& path, std::string_view what, std::size_t maxBytes = kMaxJsonFileBytes);

}  // namespace sonolink::report
