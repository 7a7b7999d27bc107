// One reprocessing task (docs/cluster.md, "Re-processing an archive"): a recording (a path or an
// s3:// URL), or one frame of it, beamformed by a recipe into
// ROOT/derived/<recipe>/<input checksum>/ with the same files `beamform` writes, a provenance
// JSON (input checksum, recipe, software, device, timings, each output's SHA-256) and, last, the
// commit marker COMMITTED. A task whose marker exists is skipped; one that fails leaves no marker
// and no folder, only its record with the reason. Every task, done or failed, leaves a record
// under ROOT/derived/<recipe>/tasks/ named by its input, which `cluster status` and the finishing
// step read. Thread contract: one task per process at a time (the staging folder is per process).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "reprocess_recipe.h"
#include "sonolink/util/result.h"

namespace sonolink::cli {

struct ReprocessTask {
    std::string input;  // a path or s3://bucket/key
    std::optional<int> frame;
    std::filesystem::path root;  // the output root (a folder)
    std::string configFile;      // its archive section reaches s3:// inputs
    unsigned threads = 1;        // one core a task: a batch runs tasks side by side (0: every core)
};

struct TaskOutcome {
    std::string status;            // "done", "skipped" (its marker was there), "failed"
    std::string reason;            // why it failed
    std::filesystem::path folder;  // derived/<recipe>/<input checksum> ("" when the input could not be read)
    nlohmann::json provenance;     // done: what was written
};

// Runs the task; a failure is an outcome (with its record written), not an error.
[[nodiscard]] TaskOutcome runReprocessTask(const ReprocessTask& task, const Recipe& recipe);

// Where the batch of this recipe lives, and a task's record in it (by the input's text).
[[nodiscard]] std::filesystem::path batchFolder(const std::filesystem::path& root, const Recipe& recipe);
[[nodiscard]] std::filesystem::path taskRecordPath(const std::filesystem::path& root, const Recipe& recipe, const std::string& input, std::optional<int> frame);

}  // namespace sonolink::cli
