// A reprocessing recipe (docs/cluster.md, "Re-processing an archive"): the grid, window,
// F-number, beamformer and outputs one batch applies to every recording, read from JSON with every
// key checked (an unknown key or a value of the wrong kind is refused, naming it), its canonical
// form (keys sorted, defaults filled in) and that form's SHA-256, which names the batch's folder.
// Thread contract: plain values and pure functions.
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "beamform_run.h"
#include "sonolink/util/result.h"

namespace sonolink::cli {

struct Recipe {
    nlohmann::json canonical;  // every key, defaults filled in, sorted
    std::string sha256;        // of canonical.dump()
    BeamformOptions beamform;  // as `beamform` takes them (file and folder left to the task)
    bool dicom = false;        // also a DICOM cine of the pictures
};

[[nodiscard]] Result<Recipe> parseRecipe(const nlohmann::json& value, const std::string& where);
[[nodiscard]] Result<Recipe> readRecipe(const std::filesystem::path& path);
// The `beamform` command line that makes the same files (for a by-hand check and the report).
[[nodiscard]] std::string beamformArguments(const Recipe& recipe);

}  // namespace sonolink::cli
