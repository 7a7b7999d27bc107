#include "reprocess_batch.h"

#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <iostream>
#include <sstream>

#include <fmt/format.h>

#include "shell_output.h"

namespace sonolink::cli {
namespace {

namespace fs = std::filesystem;

std::string quoted(const std::string& text) {
    std::string out = "'";
    for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

std::string selfPath() {
    std::error_code ec;
    const auto self = fs::read_symlink("/proc/self/exe", ec);
    return ec ? std::string("sonolink-cli") : self.string();
}

// What every command of this batch takes after its positional arguments: the root and the configuration.
std::string rootArguments(const BatchOptions& o) {
    std::string args = "--out " + quoted(fs::absolute(o.root).string());
    if (!o.configFile.empty()) args += " --config " + quoted(fs::absolute(o.configFile).string());
    return args;
}

// `cluster task` and `cluster finish`: MANIFEST RECIPE, then the root and the configuration.
std::string batchArguments(const BatchOptions& o) {
    return fmt::format("{} {} {}", quoted(fs::absolute(o.manifest).string()), quoted(fs::absolute(o.recipeFile).string()), rootArguments(o));
}

Result<nlohmann::json> readJson(const fs::path& path) {
    std::ifstream in(path);
    if (!in) return fail(ErrorCode::NotFound, path.string());
    auto value = nlohmann::json::parse(in, nullptr, false);
    if (value.is_discarded()) return fail(ErrorCode::DataLoss, fmt::format("{} is not valid JSON", path.string()));
    return value;
}

Status writeText(const fs::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::trunc);
    out << text;
    if (!out.flush()) return fail(ErrorCode::DataLoss, fmt::format("cannot write {}", path.string()));
    return {};
}

Result<nlohmann::json> runParallel(const BatchOptions& o, const std::vector<ManifestLine>& tasks, const fs::path& batch) {
    auto version = shellOutput("parallel --version 2>/dev/null | head -1");
    if (!version || version->text.find("GNU parallel") == std::string::npos) {
        return fail(ErrorCode::Unavailable, "--executor parallel needs GNU parallel, which is not installed: apt-get install parallel");
    }
    std::string commands;
    for (const auto& t : tasks)
        commands += fmt::format("{} reprocess {} --recipe {} {}{}\n", quoted(selfPath()), quoted(t.input), quoted(fs::absolute(o.recipeFile).string()),
                                rootArguments(o), t.frame ? fmt::format(" --frame {}", *t.frame) : "");
    const fs::path list = batch / "parallel_commands.txt";
    if (auto ok = writeText(list, commands); !ok) return fail(ok.error());
    const auto run = shellOutput(
        fmt::format("parallel --will-cite --jobs {} --joblog {} < {} 2>&1", o.jobs, quoted((batch / "parallel.joblog").string()), quoted(list.string())));
    if (!run) return fail(run.error());
    // Its exit status counts the tasks that failed (their records say why); 255 is its own failure.
    if (WIFEXITED(run->status) && WEXITSTATUS(run->status) == 255)
        return fail(ErrorCode::Unavailable, fmt::format("GNU parallel could not run the tasks: {}", run->text.substr(0, 2000)));
    return nlohmann::json{{"executor", "parallel"}, {"jobs", o.jobs}, {"joblog", (batch / "parallel.joblog").string()}};
}

// Slurm installed and answering, or what is missing and how to mend it.
Status slurmReady() {
    if (auto which = shellOutput("command -v sbatch"); !which || which->status != 0) {
        return fail(ErrorCode::Unavailable,
                    "--executor slurm needs Slurm, which is not installed (no sbatch on PATH): apt-get install slurm-wlm munge, then start munge, "
                    "slurmctld and slurmd (docs/cluster.md), or run with --executor parallel or local");
    }
    auto ping = shellOutput("scontrol ping 2>&1");
    if (!ping || ping->status != 0 || ping->text.find("is UP") == std::string::npos) {
        return fail(ErrorCode::Unavailable, fmt::format("Slurm is installed but its controller does not answer (scontrol ping: {}): start munge and "
                                                        "slurmctld (systemctl start munge slurmctld), and slurmd on the nodes",
                                                        ping ? ping->text.substr(0, ping->text.find('\n')) : ping.error().message()));
    }
    return {};
}

// The job id sbatch --parsable prints (its last line: "ID" or "ID;CLUSTER"); what it said on
// stderr only when it refused (a warning there does not make a queued job look refused).
Result<std::string> sbatch(const std::string& arguments, const fs::path& errors) {
    auto out = shellOutput(fmt::format("sbatch --parsable {} 2>{}", arguments, quoted(errors.string())));
    if (!out) return fail(out.error());
    std::string id;
    std::istringstream lines(out->text);
    for (std::string line; std::getline(lines, line);)
        if (!line.empty()) id = line.substr(0, line.find(';'));
    if (out->status != 0 || id.empty() || id.find_first_not_of("0123456789") != std::string::npos) {
        std::ifstream said(errors);
        const std::string text((std::istreambuf_iterator<char>(said)), std::istreambuf_iterator<char>());
        return fail(ErrorCode::Unavailable, fmt::format("sbatch refused the job: {}{}", out->text, text));
    }
    return id;
}

Result<nlohmann::json> runSlurm(const BatchOptions& o, const std::vector<ManifestLine>& tasks, const fs::path& batch) {
    if (auto ok = slurmReady(); !ok) return fail(ok.error());
    const fs::path logs = fs::absolute(batch / "slurm");
    std::error_code ec;
    fs::create_directories(logs, ec);
    const std::size_t per = static_cast<std::size_t>(std::max(o.tasksPerJob, 1));
    const std::size_t arrayTasks = (tasks.size() + per - 1) / per;
    // Options as sbatch's arguments, quoted (a path with spaces, a partition with a newline cannot
    // reach the script); Slurm's own patterns (%a) only where asked.
    const std::string partition = o.partition.empty() ? "" : " --partition=" + quoted(o.partition);
    const std::string script =
        fmt::format("#!/bin/sh\nexec {} cluster task {} --index \"$SLURM_ARRAY_TASK_ID\" --per-task {}\n", quoted(selfPath()), batchArguments(o), per);
    if (auto ok = writeText(logs / "array.sh", script); !ok) return fail(ok.error());
    auto array = sbatch(fmt::format("--job-name=sonolink-reprocess --array=0-{}%{} --output={}{} {}", arrayTasks - 1, std::max(o.jobs, 1),
                                    quoted((logs / "task_%a.out").string()), partition, quoted((logs / "array.sh").string())),
                        logs / "sbatch.err");
    if (!array) return fail(array.error());
    const std::string finish = fmt::format("{} cluster finish {}", quoted(selfPath()), batchArguments(o));
    auto finishing = sbatch(fmt::format("--job-name=sonolink-reprocess-finish --dependency=afterany:{} --output={}{} --wrap {}", *array,
                                        quoted((logs / "finish.out").string()), partition, quoted(finish)),
                            logs / "sbatch.err");
    if (!finishing) {  // no array without its finishing job: it is cancelled, and the error says so
        (void)shellOutput("scancel " + *array + " 2>/dev/null");
        return fail(std::move(finishing.error()).addContext(fmt::format("the finishing job; job array {} cancelled", *array)));
    }
    return nlohmann::json{{"executor", "slurm"}, {"array_job", *array}, {"array_tasks", arrayTasks}, {"finish_job", *finishing}, {"logs", logs.string()}};
}

}  // namespace

Result<std::vector<ManifestLine>> readManifest(const fs::path& path) {
    std::ifstream in(path);
    if (!in) return fail(ErrorCode::NotFound, fmt::format("manifest {}: cannot be read", path.string()));
    std::vector<ManifestLine> tasks;
    std::string text;
    for (int number = 1; std::getline(in, text); ++number) {
        std::istringstream words(text);
        ManifestLine line{.line = number, .input = "", .frame = std::nullopt};
        if (!(words >> line.input) || line.input.starts_with('#')) continue;
        std::string frame, extra;
        if (words >> frame) {
            char* end = nullptr;
            const long value = std::strtol(frame.c_str(), &end, 10);
            if (*end != '\0' || value < 0 || value > 1'000'000'000)
                return fail(ErrorCode::InvalidArgument, fmt::format("manifest {}:{}: \"{}\" is not a frame number", path.string(), number, frame));
            line.frame = static_cast<int>(value);
        }
        if (words >> extra) return fail(ErrorCode::InvalidArgument, fmt::format("manifest {}:{}: one input and at most a frame a line", path.string(), number));
        if (!line.input.starts_with("s3://") && fs::path(line.input).is_relative())  // a path is the manifest's neighbour, on every node
            line.input = (fs::absolute(path).parent_path() / line.input).lexically_normal().string();
        tasks.push_back(std::move(line));
    }
    if (tasks.empty()) return fail(ErrorCode::InvalidArgument, fmt::format("manifest {}: no tasks", path.string()));
    return tasks;
}

BatchProgress batchProgress(const std::vector<ManifestLine>& tasks, const Recipe& recipe, const fs::path& root) {
    BatchProgress p;
    p.tasks = tasks.size();
    for (const auto& t : tasks) {
        // A record that is missing, not JSON or not an object (damaged, half-written by hand) counts
        // the task pending: it runs again, and its marker, not the record, says what is committed.
        auto record = readJson(taskRecordPath(root, recipe, t.input, t.frame));
        if (record && !record->is_object()) record = fail(ErrorCode::DataLoss, "not an object");
        const std::string status = record ? record->value("status", "") : "pending";
        const std::string folder = record ? record->value("folder", "") : "";
        std::error_code ec;
        if (status == "done" && !folder.empty() && fs::exists(root / folder / "COMMITTED", ec)) {
            ++p.done;
            auto provenance = readJson(root / folder / "provenance.json");
            p.index.push_back({{"input", t.input},
                               {"frame", t.frame ? nlohmann::json(*t.frame) : nlohmann::json()},
                               {"folder", folder},
                               {"input_sha256", record->value("input_sha256", "")},
                               {"frames", provenance && provenance->is_object() ? provenance->value("frames", nlohmann::json()) : nlohmann::json()}});
        } else if (status == "failed") {
            ++p.failed;
            p.failures.push_back({{"input", t.input}, {"line", t.line}, {"reason", record->value("reason", "(no reason recorded)")}});
        } else {
            ++p.pending;
        }
    }
    return p;
}

BatchProgress runTasks(const std::vector<ManifestLine>& tasks, std::size_t first, std::size_t count, const Recipe& recipe, const BatchOptions& o) {
    for (std::size_t i = first; i < std::min(tasks.size(), first + count); ++i) {
        const auto outcome =
            runReprocessTask({.input = tasks[i].input, .frame = tasks[i].frame, .root = o.root, .configFile = o.configFile, .threads = 1}, recipe);
        if (!o.json) std::cout << fmt::format("{} {}{}\n", outcome.status, tasks[i].input, outcome.reason.empty() ? "" : ": " + outcome.reason);
    }
    return batchProgress(tasks, recipe, o.root);
}

Result<BatchProgress> finishBatch(const BatchOptions& o) {
    auto tasks = readManifest(o.manifest);
    if (!tasks) return fail(tasks.error());
    auto recipe = readRecipe(o.recipeFile);
    if (!recipe) return fail(recipe.error());
    auto p = batchProgress(*tasks, *recipe, o.root);
    const fs::path batch = batchFolder(o.root, *recipe);
    std::error_code ec;
    fs::create_directories(batch, ec);
    if (auto ok = writeText(batch / "index.json", p.index.dump(2) + "\n"); !ok) return fail(ok.error());
    const nlohmann::json report{{"manifest", fs::absolute(o.manifest).string()},
                                {"recipe", recipe->canonical},
                                {"recipe_sha256", recipe->sha256},
                                {"tasks", p.tasks},
                                {"done", p.done},
                                {"failed", p.failed},
                                {"pending", p.pending},
                                {"failures", p.failures}};
    if (auto ok = writeText(batch / "report.json", report.dump(2) + "\n"); !ok) return fail(ok.error());
    return p;
}

Result<nlohmann::json> submitBatch(const BatchOptions& o) {
    auto tasks = readManifest(o.manifest);
    if (!tasks) return fail(tasks.error());
    auto recipe = readRecipe(o.recipeFile);
    if (!recipe) return fail(recipe.error());
    const fs::path batch = batchFolder(o.root, *recipe);
    std::error_code ec;
    fs::create_directories(batch, ec);
    if (ec) return fail(ErrorCode::FailedPrecondition, fmt::format("cannot create {}: {}", batch.string(), ec.message()));
    if (o.executor == "slurm") return runSlurm(o, *tasks, batch);
    Result<nlohmann::json> ran = o.executor == "parallel" ? runParallel(o, *tasks, batch) : nlohmann::json{{"executor", "local"}};
    if (!ran) return ran;
    if (o.executor == "local") (void)runTasks(*tasks, 0, tasks->size(), *recipe, o);
    auto finished = finishBatch(o);
    if (!finished) return fail(finished.error());
    (*ran)["done"] = finished->done;
    (*ran)["failed"] = finished->failed;
    (*ran)["pending"] = finished->pending;
    (*ran)["failures"] = finished->failures;
    return ran;
}

}  // namespace sonolink::cli
