// Loads SonoLink's JSON configuration and validates every value, collecting all problems
// (file, key as a JSON pointer, reason) instead of stopping at the first. Unknown keys are
// problems too, so a typo never silently falls back to a default.
// Thread contract: pure functions; call from any thread.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "sonolink/config/app_config.h"
#include "sonolink/util/result.h"

namespace sonolink::config {

struct ConfigIssue {
    std::string file;                            // the file (or source name) that holds the value
    std::string key;                             // JSON pointer of the value, "/link/slot_size_bytes"; "" = whole file
    std::string reason;                          // what is wrong and what is allowed
    [[nodiscard]] std::string describe() const;  // "file: /key: reason"
};

struct ConfigParse {
    AppConfig config;                 // defaults where a value was missing or bad
    std::vector<ConfigIssue> issues;  // empty = valid
    [[nodiscard]] bool ok() const noexcept { return issues.empty(); }
};

// A value given on the command line for a configuration key, checked by the file's own rules.
struct ConfigOverride {
    std::string key;     // JSON pointer, "/probe/element_count"
    std::string value;   // JSON text: 65600, "verbs", true
    std::string source;  // what gave it ("--channels"): its issues name it, not the file
};

// A configuration file is small: a bigger one (or a device, a FIFO) is refused unread.
inline constexpr std::size_t kMaxConfigBytes = 1 << 20;

// Parses JSON text with the overrides applied over it; sourceName is used in issues (usually
// the file path). Bad JSON, numbers out of any type's range included, is an issue, never a throw.
[[nodiscard]] ConfigParse parseConfig(std::string_view jsonText, const std::string& sourceName, const std::vector<ConfigOverride>& overrides = {});

// The self-test's steps file: {"schema_version": 1, "steps": [{"name", "blocks_streaming",
// "timeout_s", "limits": {...}}, ...]}, the steps in the engine's order (engine::kSelfTestSteps;
// one left out keeps its defaults), each limit under its own step, a timeout only where the step
// has one (link BER, element check). Applied over out; the issues name sourceName.
[[nodiscard]] std::vector<ConfigIssue> parseSelfTestSteps(std::string_view jsonText, const std::string& sourceName, SelfTestSettings& out);

// Reads and parses a file. An unreadable file, bad JSON or any invalid value is an
// InvalidArgument (NotFound for a missing file) Error whose details() list every issue.
[[nodiscard]] Result<AppConfig> loadConfigFile(const std::string& path);
// The file (the defaults where path is empty) with the overrides, validated as one: a value
// given on the command line is held to the same ranges as one in the file. With
// selftest.steps_file, that file too (NotFound names it).
[[nodiscard]] Result<AppConfig> loadConfig(const std::string& path, const std::vector<ConfigOverride>& overrides);

}  // namespace sonolink::config
