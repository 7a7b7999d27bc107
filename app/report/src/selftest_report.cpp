// The self-test's JSON QA report, its hash (OpenSSL's SHA-256) and its file, written whole to a
// temporary name and linked to its own, so a crash leaves no half report and no report replaces
// another; then its PDF beside it.
#include "sonolink/report/selftest_report.h"

#include <fcntl.h>
#include <openssl/sha.h>
#include <sys/file.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>

#include <fmt/chrono.h>
#include <fmt/format.h>

#include "sonolink/report/engine_event_json.h"
#include "sonolink/report/json_file.h"
#include "sonolink/report/qa_report_pdf.h"
#include "sonolink/util/build_info.h"
#include "sonolink/util/station_user.h"

namespace sonolink::report {
namespace {

std::string utc(std::chrono::system_clock::time_point t) { return fmt::format("{:%Y-%m-%dT%H:%M:%S}Z", std::chrono::floor<std::chrono::seconds>(t)); }

std::string stationName() {
    std::array<char, 256> name{};
    return ::gethostname(name.data(), name.size() - 1) == 0 ? std::string(name.data()) : std::string("unknown");
}

// The report's folder locked (flock) while a signature reads, checks and replaces a report in it
// (after PAM: no one waits on another's typing): two signers at once cannot both sign the same
// version, the later one dropping the earlier's signature; the second waits, then finds the
// report signed already.
class FolderLock {
public:
    explicit FolderLock(const std::filesystem::path& file) {
        const auto dir = file.has_parent_path() ? file.parent_path() : std::filesystem::path(".");
        fd_ = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd_ >= 0 && ::flock(fd_, LOCK_EX) != 0) {
            ::close(fd_);
            fd_ = -1;
        }
    }
    ~FolderLock() {
        if (fd_ >= 0) ::close(fd_);  // closing releases the lock
    }
    FolderLock(const FolderLock&) = delete;
    FolderLock& operator=(const FolderLock&) = delete;
    [[nodiscard]] bool held() const { return fd_ >= 0; }

private:
    int fd_ = -1;
};

}  // namespace

Result<nlohmann::json> signReportFile(const std::filesystem::path& file, const ReportSignature& signature) {
    const FolderLock lock(file);
    if (!lock.held()) return fail(ErrorCode::Unavailable, fmt::format("cannot lock the folder of {}: {}", file.string(), std::strerror(errno)));
    auto report = readJsonFile(file.string(), "the report");
    if (!report) return fail(std::move(report.error()));
    auto signedOne = signedReport(*report, signature);
    if (!signedOne) return fail(std::move(signedOne.error().addContext(file.string())));
    if (auto written = rewriteSelfTestReport(file, *signedOne); !written) return fail(std::move(written.error()));
    return signedOne;
}

nlohmann::json overrideRecord(const engine::SelfTestOverridden& given, std::chrono::system_clock::time_point when, const std::string& authentication) {
    return {{"user", given.by}, {"reason", given.reason}, {"overrode", given.blocked}, {"time_utc", utc(when)}, {"authentication", authentication}};
}

std::optional<KeptReport> lastPassingReport(const std::filesystem::path& dir) {
    std::optional<KeptReport> best;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
        const auto name = entry.path().filename().string();
        if (!name.starts_with("selftest-") || entry.path().extension() != ".json") continue;
        auto read = readJsonFile(entry.path().string(), "report");
        if (!read) continue;
        auto& report = *read;
        if (!report.is_object() || report.value("verdict", "") != "pass" || report.value("sha256", "") != reportHash(report)) continue;
        const auto finished = report.value("finished_utc", "");
        if (!best || std::make_pair(finished, name) > std::make_pair(best->report.value("finished_utc", ""), best->file.filename().string())) {
            best = KeptReport{entry.path(), std::move(report)};
        }
    }
    return best;
}

nlohmann::json selfTestReport(const SelfTestRun& run, const std::optional<KeptReport>& baseline) {
    const auto& build = buildInfo();
    nlohmann::json report{
        {"report", "SonoLink start-up self-test"},
        {"station", run.station.empty() ? stationName() : run.station},
        {"operator", stationUser()},
        {"software", {{"version", build.version}, {"build", build.gitHash}, {"build_type", build.buildType}}},
        {"front_end", {{"serial", run.stats.frontEnd.serial}, {"firmware", run.stats.frontEnd.firmware}}},
        {"link", run.stats.link.description},
        {"mode", run.mode},
        {"started_utc", utc(run.started)},
        {"finished_utc", utc(run.finished)},
        {"steps", nlohmann::json::array()},
        {"verdict", run.passed ? "pass" : "fail"},
        {"problem", run.problem},
        {"streaming_blocked_by", run.stats.selfTestBlock},
    };
    for (const auto& step : run.steps) {
        auto j = toJson(step);
        j.erase("event");
        if (baseline) {
            for (const auto& before : baseline->report["steps"]) {
                if (before.value("step", "") != step.step) continue;
                j["baseline"] = {{"verdict", before.value("verdict", "")}, {"figures", before.value("figures", "")}, {"limit", before.value("limit", "")}};
            }
        }
        report["steps"].push_back(std::move(j));
    }
    if (!run.override.is_null()) report["override"] = run.override;
    if (baseline) {
        report["baseline_report"] = {{"file", baseline->file.filename().string()},
                                     {"finished_utc", baseline->report.value("finished_utc", "")},
                                     {"sha256", baseline->report.value("sha256", "")}};
    }
    report["sha256"] = reportHash(report);
    return report;
}

std::string reportHash(const nlohmann::json& report) {
    auto body = report;
    body.erase("sha256");
    const auto text = body.dump();  // canonical: compact, members in sorted order
    std::array<unsigned char, SHA256_DIGEST_LENGTH> digest{};
    SHA256(reinterpret_cast<const unsigned char*>(text.data()), text.size(), digest.data());
    std::string hex;
    for (const auto byte : digest) hex += fmt::format("{:02x}", byte);
    return hex;
}

Result<nlohmann::json> signedReport(const nlohmann::json& report, const ReportSignature& signature) {
    if (!report.is_object() || report.value("sha256", "") != reportHash(report)) {
        return fail(ErrorCode::FailedPrecondition, "the report's SHA-256 does not hold: it was changed after it was written, and is not signed");
    }
    if (report.contains("signature")) {
        return fail(ErrorCode::FailedPrecondition,
                    fmt::format("the report is signed already (by {})",
                                report["signature"].is_object() ? report["signature"].value("user", std::string("someone")) : std::string("someone")));
    }
    auto out = report;
    out["signature"] = {{"user", signature.user},
                        {"printed_name", signature.printedName},
                        {"meaning", signature.meaning},
                        {"signed_utc", utc(signature.when)},
                        {"authentication", signature.authentication}};
    out["sha256"] = reportHash(out);
    return out;
}

Status rewriteSelfTestReport(const std::filesystem::path& file, const nlohmann::json& report) {
    const auto partial = std::filesystem::path(file).concat(fmt::format(".{}.partial", ::getpid()));
    {
        std::ofstream out(partial, std::ios::binary | std::ios::trunc);
        out << report.dump(2) << '\n';
        if (!out.flush()) return fail(ErrorCode::DataLoss, fmt::format("cannot write the report {}", partial.string()));
    }
    std::error_code ec;
    std::filesystem::rename(partial, file, ec);
    if (ec) {
        std::filesystem::remove(partial, ec);
        return fail(ErrorCode::DataLoss, fmt::format("cannot replace the report {}: {}", file.string(), ec.message()));
    }
    auto pdf = file;
    pdf.replace_extension(".pdf");
    return report::writeQaReportPdf(report, pdf);
}

Result<std::filesystem::path> writeSelfTestReport(const std::filesystem::path& dir, const nlohmann::json& report) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) return fail(ErrorCode::InvalidArgument, fmt::format("cannot create the report folder {}: {}", dir.string(), ec.message()));
    auto stamp = report.value("finished_utc", std::string("unknown"));
    std::erase(stamp, ':');
    const auto partial = dir / fmt::format(".selftest-{}-{}.partial", stamp, ::getpid());  // one per process
    {
        std::ofstream out(partial, std::ios::binary | std::ios::trunc);
        out << report.dump(2) << '\n';
        if (!out.flush()) return fail(ErrorCode::DataLoss, fmt::format("cannot write the report {}", partial.string()));
    }
    // link() never replaces: a report of the same second (another run, another process) is kept.
    for (int n = 1; n < 1000; ++n) {
        const auto path = dir / (n == 1 ? fmt::format("selftest-{}.json", stamp) : fmt::format("selftest-{}-{}.json", stamp, n));
        if (::link(partial.c_str(), path.c_str()) == 0) {
            std::filesystem::remove(partial, ec);
            auto pdf = path;
            pdf.replace_extension(".pdf");
            if (auto drawn = report::writeQaReportPdf(report, pdf); !drawn) return fail(std::move(drawn.error()));
            return path;
        }
        if (errno != EEXIST) {
            const auto why = std::string(std::strerror(errno));
            std::filesystem::remove(partial, ec);
            return fail(ErrorCode::DataLoss, fmt::format("cannot put the report at {}: {}", path.string(), why));
        }
    }
    std::filesystem::remove(partial, ec);
    return fail(ErrorCode::DataLoss, fmt::format("cannot name the report in {}: 999 of this second exist", dir.string()));
}

}  // namespace sonolink::report
