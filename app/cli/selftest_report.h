// The self-test's QA report in JSON: the station, its operator (the station user the process
// runs as), the software's version and build hash, the front end's serial and firmware, when it
// ran, every step's verdict, figures, limit and fix, the overall verdict, and the SHA-256 of all
// of that (the report's canonical compact form without the hash), so that an edit shows; and
// each step's baseline: its verdict, figures and limit in the last passing report of the folder.
// Thread contract: pure functions, but writeSelfTestReport's file.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sonolink/engine/engine_stats.h"
#include "sonolink/engine/engine_types.h"
#include "sonolink/util/result.h"

namespace sonolink::cli {

struct SelfTestRun {
    std::string mode;                                  // "quick", "full"
    std::chrono::system_clock::time_point started, finished;
    std::vector<engine::SelfTestStep> steps;
    engine::EngineStats stats;                         // read when it settled
    bool passed = false;
    std::string problem;
};

// A report kept in the report folder.
struct KeptReport {
    std::filesystem::path file;
    nlohmann::json report;
};
// The newest report in dir that passed and whose hash holds (an edited report is no baseline).
[[nodiscard]] std::optional<KeptReport> lastPassingReport(const std::filesystem::path& dir);

[[nodiscard]] nlohmann::json selfTestReport(const SelfTestRun& run, const std::optional<KeptReport>& baseline = std::nullopt);
// The hex SHA-256 of the report's canonical form without its "sha256" member.
[[nodiscard]] std::string reportHash(const nlohmann::json& report);
// DIR/selftest-<UTC time>.json (the folder created); the file's path.
[[nodiscard]] Result<std::filesystem::path> writeSelfTestReport(const std::filesystem::path& dir, const nlohmann::json& report);

}  // namespace sonolink::cli
