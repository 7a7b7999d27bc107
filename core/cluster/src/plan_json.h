// The plan's JSON form, field by field (cluster_plan.h): what toJson writes and planFromJson reads.
// Thread contract: pure functions.
#pragma once

#include <nlohmann/json.hpp>

#include "sonolink/cluster/cluster_plan.h"

namespace sonolink::cluster {

[[nodiscard]] nlohmann::json planToJsonValue(const ClusterPlan& plan);
// InvalidArgument naming the first field that is missing or of the wrong type; no validation.
[[nodiscard]] Result<ClusterPlan> planFromJsonValue(const nlohmann::json& value);

}  // namespace sonolink::cluster
