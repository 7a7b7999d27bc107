// Loads SonoLink's JSON configuration and validates every value, collecting all problems
// (file, key as a JSON pointer, reason) instead of stopping at the first. Unknown keys are
// problems too, so a typo never silently falls back to a default.
// Thread contract: pure functions; call from any thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sonolink/config/app_config.h"
#include "sonolink/util/result.h"

namespace sonolink::config {

struct ConfigIssue {
    std::string file;    // the file (or source name) that holds the value
    std::string key;     // JSON pointer of the value, "/link/slot_size_bytes"; "" = whole file
    std::string reason;  // what is wrong and what is allowed
    [[nodiscard]] std::string describe() const;  // "file: /key: reason"
};

struct ConfigParse {
    AppConfig config;                 // defaults where a value was missing or bad
    std::vector<ConfigIssue> issues;  // empty = valid
    [[nodiscard]] bool ok() const noexcept { return issues.empty(); }
};

// Parses JSON text; sourceName is used in issues (usually the file path).
[[nodiscard]] ConfigParse parseConfig(std::string_view jsonText, const std::string& sourceName);

// Reads and parses a file. An unreadable file, bad JSON or any invalid value is an
// InvalidArgument (NotFound for a missing file) Error whose details() list every issue.
[[nodiscard]] Result<AppConfig> loadConfigFile(const std::string& path);

}  // namespace sonolink::config
