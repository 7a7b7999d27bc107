// sonolink-cli reprocess (one task) and the batch commands under `cluster`: submit (a manifest
// by an executor: slurm, parallel or local), status (progress from the tasks' records), finish
// (the finishing step: markers checked, index and report written) and task (the lines one Slurm
// array task runs). docs/cluster.md, "Re-processing an archive".
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "commands.h"
#include "exit_codes.h"
#include "reprocess_batch.h"

namespace sonolink::cli {
namespace {

struct ReprocessOptions {
    std::string input;
    int frame = -1;
    BatchOptions batch;
    int index = 0;
    unsigned threads = 1;
};

int fails(const char* command, const Error& e) {
    std::cerr << "sonolink-cli " << command << ": " << e.describe() << '\n';
    return exitCodeFor(e);
}

int runReprocess(const ReprocessOptions& o) {
    auto recipe = readRecipe(o.batch.recipeFile);
    if (!recipe) return fails("reprocess", recipe.error());
    const auto frame = o.frame >= 0 ? std::optional<int>(o.frame) : std::nullopt;
    const auto outcome =
        runReprocessTask({.input = o.input, .frame = frame, .root = o.batch.root, .configFile = o.batch.configFile, .threads = o.threads}, *recipe);
    if (o.batch.json) {
        std::cout << nlohmann::json{{"status", outcome.status},
                                    {"reason", outcome.reason},
                                    {"folder", outcome.folder.string()},
                                    {"provenance", outcome.provenance}}
                         .dump(2)
                  << '\n';
    } else if (outcome.status == "failed") {
        std::cerr << "sonolink-cli reprocess: " << outcome.reason << " (no marker written)\n";
    } else {
        std::cout << fmt::format("{}: {}{}\n", outcome.status, outcome.folder.string(), outcome.status == "skipped" ? " (committed before)" : "");
    }
    return outcome.status == "failed" ? kExitFailed : kExitOk;
}

void printProgress(const BatchProgress& p, bool json) {
    if (json) {
        std::cout << nlohmann::json{{"tasks", p.tasks}, {"done", p.done}, {"failed", p.failed}, {"pending", p.pending}, {"failures", p.failures}}.dump(2)
                  << '\n';
        return;
    }
    std::cout << fmt::format("{} tasks: {} done, {} failed, {} pending\n", p.tasks, p.done, p.failed, p.pending);
    for (const auto& f : p.failures) std::cout << fmt::format("  failed: {}: {}\n", f["input"].get<std::string>(), f["reason"].get<std::string>());
}

int runStatus(const BatchOptions& o) {
    auto tasks = readManifest(o.manifest);
    if (!tasks) return fails("cluster status", tasks.error());
    auto recipe = readRecipe(o.recipeFile);
    if (!recipe) return fails("cluster status", recipe.error());
    printProgress(batchProgress(*tasks, *recipe, o.root), o.json);
    return kExitOk;
}

int runFinish(const BatchOptions& o) {
    auto p = finishBatch(o);
    if (!p) return fails("cluster finish", p.error());
    printProgress(*p, o.json);
    return p->done == p->tasks ? kExitOk : kExitFailed;
}

int runSubmit(const BatchOptions& o) {
    auto submitted = submitBatch(o);
    if (!submitted) return fails("cluster submit", submitted.error());
    if (o.json) {
        std::cout << submitted->dump(2) << '\n';
    } else if (o.executor == "slurm") {
        std::cout << fmt::format("submitted: job array {} ({} tasks), finishing job {}; `sonolink-cli cluster status` follows it\n",
                                 (*submitted)["array_job"].get<std::string>(), (*submitted)["array_tasks"].get<std::size_t>(),
                                 (*submitted)["finish_job"].get<std::string>());
    } else {
        std::cout << fmt::format("{}: {} done, {} failed, {} pending\n", o.executor, (*submitted)["done"].get<std::size_t>(),
                                 (*submitted)["failed"].get<std::size_t>(), (*submitted)["pending"].get<std::size_t>());
    }
    if (o.executor == "slurm") return kExitOk;
    return (*submitted)["failed"].get<std::size_t>() + (*submitted)["pending"].get<std::size_t>() == 0 ? kExitOk : kExitFailed;
}

int runArrayTask(const ReprocessOptions& o) {
    auto tasks = readManifest(o.batch.manifest);
    if (!tasks) return fails("cluster task", tasks.error());
    auto recipe = readRecipe(o.batch.recipeFile);
    if (!recipe) return fails("cluster task", recipe.error());
    const std::size_t per = static_cast<std::size_t>(std::max(o.batch.tasksPerJob, 1));
    (void)runTasks(*tasks, static_cast<std::size_t>(o.index) * per, per, *recipe, o.batch);
    return kExitOk;  // each task's outcome is in its record; the finishing step judges the batch
}

void addBatchOptions(CLI::App* cmd, BatchOptions& b, bool manifest) {
    if (manifest) {
        cmd->add_option("MANIFEST", b.manifest, "One task a line: a recording's path or s3:// URL, optionally a frame number")->required();
        cmd->add_option("RECIPE", b.recipeFile, "The recipe (JSON): grid, window, F-number, outputs")->required();
    } else {
        cmd->add_option("--recipe", b.recipeFile, "The recipe (JSON): grid, window, F-number, outputs")->required();
    }
    cmd->add_option("--out", b.root, "The output root: derived/<recipe>/<input checksum>/ go under it")->required();
    cmd->add_option("--config", b.configFile, "Configuration file (JSON): its archive section reaches s3:// inputs")->check(CLI::ExistingFile);
    cmd->add_flag("--json", b.json, "Print JSON");
}

}  // namespace

void addReprocessCommand(CLI::App& app, int& exitCode) {
    auto o = std::make_shared<ReprocessOptions>();
    auto* cmd = app.add_subcommand("reprocess", "One reprocessing task: a recording beamformed by a recipe into a committed, checksummed folder");
    cmd->add_option("INPUT", o->input, "The recording: a UFF file or s3://bucket/key")->required();
    cmd->add_option("--frame", o->frame, "Only this frame (a task may be one frame of a long recording)")->check(CLI::NonNegativeNumber);
    cmd->add_option("--threads", o->threads, "Threads for this task (default 1: a batch runs tasks side by side; 0: every core)")->capture_default_str();
    addBatchOptions(cmd, o->batch, false);
    cmd->callback([o, &exitCode] { exitCode = runReprocess(*o); });
}

void addBatchCommands(CLI::App& cluster, int& exitCode) {
    auto o = std::make_shared<ReprocessOptions>();
    auto* submit = cluster.add_subcommand("submit", "Reprocess a manifest of recordings: a Slurm job array and a finishing job, or GNU parallel, or here");
    addBatchOptions(submit, o->batch, true);
    submit->add_option("--executor", o->batch.executor, "slurm, parallel or local")
        ->check(CLI::IsMember({"slurm", "parallel", "local"}))
        ->capture_default_str();
    submit->add_option("--jobs", o->batch.jobs, "Tasks at once (parallel), or the job array's throttle (slurm)")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    submit->add_option("--per-task", o->batch.tasksPerJob, "Slurm: manifest lines per array task (short tasks together)")->check(CLI::PositiveNumber);
    submit->add_option("--partition", o->batch.partition, "Slurm: the partition");
    submit->callback([o, &exitCode] { exitCode = runSubmit(o->batch); });
    auto* status = cluster.add_subcommand("status", "A reprocessing batch's progress: tasks done, failed (with the reason) and pending");
    addBatchOptions(status, o->batch, true);
    status->callback([o, &exitCode] { exitCode = runStatus(o->batch); });
    auto* finish = cluster.add_subcommand("finish", "A batch's finishing step: every marker checked, index.json and report.json written");
    addBatchOptions(finish, o->batch, true);
    finish->callback([o, &exitCode] { exitCode = runFinish(o->batch); });
    auto* task = cluster.add_subcommand("task", "The manifest lines one Slurm array task runs (INDEX x --per-task on)");
    addBatchOptions(task, o->batch, true);
    task->add_option("--index", o->index, "The array task's index")->required();
    task->add_option("--per-task", o->batch.tasksPerJob, "Manifest lines per array task")->check(CLI::PositiveNumber);
    task->callback([o, &exitCode] { exitCode = runArrayTask(*o); });
}

}  // namespace sonolink::cli
