#include "reprocess_task.h"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <thread>

#include <fmt/chrono.h>
#include <fmt/format.h>

#include "sonolink/app/archive_source.h"
#include "sonolink/archive/content_sha256.h"
#include "sonolink/config/config_loader.h"
#include "sonolink/util/build_info.h"

namespace sonolink::cli {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

std::string utcNow() { return fmt::format("{:%FT%TZ}", fmt::gmtime(std::chrono::system_clock::to_time_t(std::chrono::system_clock::now()))); }

double msSince(Clock::time_point start) { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); }

// The whole text under a temporary name, then renamed into place: a reader sees all or nothing.
Status writeWhole(const fs::path& path, const std::string& text) {
    const fs::path part = path.string() + ".part";
    {
        std::ofstream out(part, std::ios::binary | std::ios::trunc);
        out << text;
        out.flush();
        if (!out) return fail(ErrorCode::DataLoss, fmt::format("cannot write {} ({} bytes)", path.string(), text.size()));
    }
    std::error_code ec;
    fs::rename(part, path, ec);
    if (ec) return fail(ErrorCode::DataLoss, fmt::format("cannot put {} in place: {}", path.string(), ec.message()));
    return {};
}

// Each file the task wrote, by name, with its size and SHA-256.
Result<nlohmann::json> outputsOf(const fs::path& folder) {
    std::vector<fs::path> files;
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec))
        if (it->is_regular_file(ec)) files.push_back(it->path());
    if (ec) return fail(ErrorCode::DataLoss, fmt::format("cannot list {}: {}", folder.string(), ec.message()));
    std::sort(files.begin(), files.end());
    nlohmann::json out = nlohmann::json::array();
    for (const auto& file : files) {
        auto source = mapFile(file);
        if (!source) return fail(std::move(source.error()));
        auto digest = archive::contentSha256(**source);
        if (!digest) return fail(std::move(digest.error()));
        out.push_back({{"file", file.filename().string()}, {"bytes", (*source)->size()}, {"sha256", *digest}});
    }
    return out;
}

// The test hook (SONOLINK_REPROCESS_FAIL_ONCE_DIR): a task whose input's file name is armed there
// (a file of that name) fails once after beamforming, as a node lost mid-task would, and
// disarms it, so the next attempt goes on.
bool failsOnceByTestHook(const std::string& input) {
    const char* dir = std::getenv("SONOLINK_REPROCESS_FAIL_ONCE_DIR");
    if (!dir || !*dir) return false;
    std::error_code ec;
    return fs::remove(fs::path(dir) / fs::path(input).filename(), ec);
}

std::string taskName(const ReprocessTask& task) { return task.frame ? fmt::format("{} frame {}", task.input, *task.frame) : task.input; }

void writeRecord(const ReprocessTask& task, const Recipe& recipe, const TaskOutcome& outcome, const std::string& inputSha256) {
    const auto path = taskRecordPath(task.root, recipe, task.input, task.frame);
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    const nlohmann::json record{{"input", task.input},
                                {"frame", task.frame ? nlohmann::json(*task.frame) : nlohmann::json()},
                                {"status", outcome.status},
                                {"reason", outcome.reason},
                                {"input_sha256", inputSha256},
                                {"folder", outcome.folder.empty() ? "" : outcome.folder.lexically_relative(task.root).string()},
                                {"host", fmt::format("{}", std::getenv("HOSTNAME") ? std::getenv("HOSTNAME") : "")},
                                {"at_utc", utcNow()}};
    (void)writeWhole(path, record.dump(2) + "\n");  // a record that cannot be written: the marker still says what was done
}

TaskOutcome failed(const ReprocessTask& task, const Recipe& recipe, std::string reason, const fs::path& folder, const std::string& inputSha256) {
    TaskOutcome outcome{.status = "failed", .reason = std::move(reason), .folder = folder, .provenance = {}};
    writeRecord(task, recipe, outcome, inputSha256);
    return outcome;
}

// Committed before (by this task, or another with the same bytes): its record says done, so the
// batch counts it whichever attempt wrote the folder.
TaskOutcome skipped(const ReprocessTask& task, const Recipe& recipe, const fs::path& folder, const std::string& inputSha256) {
    TaskOutcome outcome{.status = "skipped", .reason = "", .folder = folder, .provenance = {}};
    writeRecord(task, recipe, {.status = "done", .reason = "", .folder = folder, .provenance = {}}, inputSha256);
    return outcome;
}

struct Beamformed {
    nlohmann::json report;
    double firstFrameMs = 0;  // the task's start -> its first frame beamformed and written
};

Result<Beamformed> beamformInto(const ReprocessTask& task, const Recipe& recipe, const fs::path& staging, Clock::time_point start) {
    BeamformOptions b = recipe.beamform;
    b.file = task.input;
    b.configFile = task.configFile;
    b.outputDir = staging.string();
    b.name = "image";
    b.frame = task.frame.value_or(-1);
    b.json = true;
    b.threads = task.threads;
    if (recipe.dicom) b.dicom.file = (staging / "cine.dcm").string();
    Beamformed out;
    auto report = beamformRecording(b, [&](const std::string&) {
        if (out.firstFrameMs == 0) out.firstFrameMs = msSince(start);
    });
    if (!report) return fail(std::move(report.error()));
    out.report = std::move(*report);
    return out;
}

nlohmann::json provenanceOf(const ReprocessTask& task, const Recipe& recipe, const std::string& inputSha256, std::uint64_t inputBytes, const Beamformed& done,
                            const nlohmann::json& outputs, double checksumMs, double totalMs) {
    const auto& build = buildInfo();
    return {{"input", task.input},
            {"frame", task.frame ? nlohmann::json(*task.frame) : nlohmann::json()},
            {"input_sha256", inputSha256},
            {"input_bytes", inputBytes},
            {"recipe", recipe.canonical},
            {"recipe_sha256", recipe.sha256},
            {"same_as", "sonolink-cli beamform INPUT " + beamformArguments(recipe) + (task.frame ? fmt::format(" --frame {}", *task.frame) : "") +
                            (recipe.dicom ? " --dicom DIR/cine.dcm" : "") + fmt::format(" --threads {} --name image", task.threads)},
            {"software", {{"version", build.version}, {"git", build.gitHash}, {"build_type", build.buildType}, {"compiler", build.compiler}}},
            {"device", fmt::format("CPU reference beamformer, {} of {} hardware threads",
                                   task.threads == 0 ? std::thread::hardware_concurrency() : task.threads, std::thread::hardware_concurrency())},
            {"timings_ms", {{"checksum", checksumMs}, {"first_frame", done.firstFrameMs}, {"total", totalMs}}},
            {"frames", done.report["frames"].size()},
            {"outputs", outputs},
            {"process", {{"pid", ::getpid()}, {"finished_utc", utcNow()}}}};
}

}  // namespace

fs::path batchFolder(const fs::path& root, const Recipe& recipe) { return root / "derived" / recipe.sha256.substr(0, 16); }

fs::path taskRecordPath(const fs::path& root, const Recipe& recipe, const std::string& input, std::optional<int> frame) {
    const std::string identity = frame ? fmt::format("{}#frame={}", input, *frame) : input;
    return batchFolder(root, recipe) / "tasks" / (archive::textSha256(identity).substr(0, 16) + ".json");
}

TaskOutcome runReprocessTask(const ReprocessTask& task, const Recipe& recipe) {
    const auto start = Clock::now();
    auto settings = config::loadConfig(task.configFile, {});
    if (!settings) return failed(task, recipe, settings.error().describe(), {}, "");
    auto source = app::openSource(task.input, settings->archive);
    if (!source) return failed(task, recipe, source.error().describe(), {}, "");
    auto inputSha256 = archive::contentSha256(**source);
    if (!inputSha256) return failed(task, recipe, inputSha256.error().describe(), {}, "");
    const double checksumMs = msSince(start);
    const fs::path folder = batchFolder(task.root, recipe) / (inputSha256->substr(0, 16) + (task.frame ? fmt::format("_frame{}", *task.frame) : ""));
    std::error_code ec;
    if (fs::exists(folder / "COMMITTED", ec)) return skipped(task, recipe, folder, *inputSha256);
    const fs::path staging = folder.string() + fmt::format(".part-{}", ::getpid());
    fs::remove_all(staging, ec);
    auto done = beamformInto(task, recipe, staging, start);
    if (!done) {
        fs::remove_all(staging, ec);
        return failed(task, recipe, done.error().describe(), {}, *inputSha256);
    }
    if (failsOnceByTestHook(task.input)) {
        fs::remove_all(staging, ec);
        return failed(task, recipe, fmt::format("{}: failed once on purpose (SONOLINK_REPROCESS_FAIL_ONCE_DIR)", taskName(task)), {}, *inputSha256);
    }
    auto outputs = outputsOf(staging);
    if (!outputs) {
        fs::remove_all(staging, ec);
        return failed(task, recipe, outputs.error().describe(), {}, *inputSha256);
    }
    const auto provenance = provenanceOf(task, recipe, *inputSha256, (*source)->size(), *done, *outputs, checksumMs, msSince(start));
    Status placed = writeWhole(staging / "provenance.json", provenance.dump(2) + "\n");
    if (placed && fs::exists(folder / "COMMITTED", ec)) {  // another process committed the same bytes meanwhile: its folder stays
        fs::remove_all(staging, ec);
        return skipped(task, recipe, folder, *inputSha256);
    }
    if (placed) {
        fs::remove_all(folder, ec);  // an attempt that never committed
        fs::rename(staging, folder, ec);
        if (ec) placed = fail(ErrorCode::DataLoss, fmt::format("cannot put {} in place: {}", folder.string(), ec.message()));
    }
    if (placed) placed = writeWhole(folder / "COMMITTED", nlohmann::json{{"provenance_sha256", archive::textSha256(provenance.dump(2) + "\n")}}.dump() + "\n");
    if (!placed) {
        fs::remove_all(staging, ec);
        return failed(task, recipe, placed.error().describe(), {}, *inputSha256);
    }
    TaskOutcome outcome{.status = "done", .reason = "", .folder = folder, .provenance = provenance};
    writeRecord(task, recipe, outcome, *inputSha256);
    return outcome;
}

}  // namespace sonolink::cli
