// The self-test's QA report in JSON: the station (as configured, else its host name), its operator (the station user the process
// runs as), the software's version and build hash, the front end's serial and firmware, when it
// ran, every step's verdict, figures, limit and fix, the overall verdict, and the SHA-256 of all
// of that (the report's canonical compact form without the hash), so that an edit shows; and
// each step's baseline: its verdict, figures and limit in the last passing report of the folder.
// Thread contract: pure functions, but those that read or write files (main thread: the PDF).
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

namespace sonolink::report {

struct SelfTestRun {
    std::string mode;  // "quick", "full"
    std::chrono::system_clock::time_point started, finished;
    std::vector<engine::SelfTestStep> steps;
    engine::EngineStats stats;  // read when it settled
    bool passed = false;
    std::string problem;
    std::string station;      // dicom.station_name; empty: the host name
    nlohmann::json override;  // the engineer override given after it, if any (null: none)
};

// The engineer override's record for the report: who gave it (re-authenticated), why, what it
// overrode, when, and how they proved who they are.
[[nodiscard]] nlohmann::json overrideRecord(const engine::SelfTestOverridden& given, std::chrono::system_clock::time_point when,
                                            const std::string& authentication);

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
// The operator's electronic signature, after PAM re-authenticated them (sonolink-cli report sign).
struct ReportSignature {
    std::string user;         // the station user who signed
    std::string printedName;  // their full name, from the account
    std::string meaning;      // what the signature means, e.g. "reviewed and approved"
    std::chrono::system_clock::time_point when;
    std::string authentication;  // how they proved who they are
};
// The report with its signature block completed and its hash renewed over both. Refused when
// its hash does not hold (it was edited) or it is signed already.
[[nodiscard]] Result<nlohmann::json> signedReport(const nlohmann::json& report, const ReportSignature& signature);
// Signs the report kept at `file`: its folder locked (a second signer waits, then finds it signed),
// read, signed (signedReport) and rewritten with its PDF. The signed report, or why not.
[[nodiscard]] Result<nlohmann::json> signReportFile(const std::filesystem::path& file, const ReportSignature& signature);
// Replaces the report file at `file` (written whole, then renamed over it) and redraws its PDF.
[[nodiscard]] Status rewriteSelfTestReport(const std::filesystem::path& file, const nlohmann::json& report);

// DIR/selftest-<UTC time>.json (the folder created), and beside it the same report as a PDF
// (selftest-<UTC time>.pdf, sonolink/report/qa_report_pdf.h); the JSON file's path.
[[nodiscard]] Result<std::filesystem::path> writeSelfTestReport(const std::filesystem::path& dir, const nlohmann::json& report);

}  // namespace sonolink::report
