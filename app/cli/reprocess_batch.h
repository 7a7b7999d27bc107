// A batch of reprocessing tasks (docs/cluster.md, "Re-processing an archive"): the manifest (one
// task a line: a recording's path or s3:// URL, optionally a frame; # comments), run by an
// executor (in this process one after another, under GNU parallel, or as a Slurm job array with a
// dependent finishing job), its progress read from the tasks' records and markers, and the
// finishing step that checks every marker and writes the batch's index and report.
// Thread contract: one call at a time.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "reprocess_task.h"

namespace sonolink::cli {

struct ManifestLine {
    int line = 0;  // 1-based, for messages
    std::string input;
    std::optional<int> frame;
};

// Every task of the manifest (a relative path is taken from the manifest's folder); a line that
// is not "INPUT [FRAME]" is refused, naming it.
[[nodiscard]] Result<std::vector<ManifestLine>> readManifest(const std::filesystem::path& path);

struct BatchOptions {
    std::filesystem::path manifest;
    std::filesystem::path recipeFile;
    std::filesystem::path root;
    std::string configFile;
    std::string executor = "slurm";  // slurm, parallel or local
    int jobs = 2;                    // parallel: at once; slurm: the array's throttle (%N)
    int tasksPerJob = 1;             // slurm: manifest lines per array task (short tasks together)
    std::string partition;           // slurm: sbatch --partition ("" its default)
    bool json = false;
};

struct BatchProgress {
    std::size_t tasks = 0, done = 0, failed = 0, pending = 0;
    nlohmann::json failures = nlohmann::json::array();  // {input, reason}
    nlohmann::json index = nlohmann::json::array();     // done: {input, frame, folder, input_sha256, frames}
};

// What the records and markers say now; a record that says done without its marker counts pending.
[[nodiscard]] BatchProgress batchProgress(const std::vector<ManifestLine>& tasks, const Recipe& recipe, const std::filesystem::path& root);

// Lines [first, first + count) of the manifest, one after another in this process.
[[nodiscard]] BatchProgress runTasks(const std::vector<ManifestLine>& tasks, std::size_t first, std::size_t count, const Recipe& recipe, const BatchOptions& o);

// The finishing step: every marker checked; index.json and report.json written in the batch folder.
[[nodiscard]] Result<BatchProgress> finishBatch(const BatchOptions& o);

// The manifest run by o.executor; for slurm, the job ids (array, finishing job) it submitted.
[[nodiscard]] Result<nlohmann::json> submitBatch(const BatchOptions& o);

}  // namespace sonolink::cli
