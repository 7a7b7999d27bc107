// A scheduled exam as JSON: what `sonolink-cli dicom worklist --json` prints and what
// `beamform --dicom --worklist FILE` reads back (as the worklist item it was), so a scheduled
// exam's fields reach its images.
// Thread contract: pure functions.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "sonolink/dicom/worklist.h"
#include "sonolink/engine/exam.h"
#include "sonolink/util/result.h"

namespace sonolink::cli {

[[nodiscard]] nlohmann::json toJson(const engine::ScheduledExam& exam);
// Item `index` of the JSON array in file; errors name the file and what is wrong.
[[nodiscard]] Result<dicom::WorklistItem> readWorklistItem(const std::string& file, std::size_t index);

}  // namespace sonolink::cli
