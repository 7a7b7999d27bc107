// The reduction: partials summed element by element in host order (host 0 + host 1 + ...), so
// that the image is the same bits in every run and equal to a single process's sum of the same
// partitions; then, after the full sum only, the envelope (RF: along depth; IQ: the magnitude).
// Thread contract: pure functions.
#pragma once

#include <span>
#include <vector>

#include "sonolink/beamform/beamform_types.h"
#include "sonolink/cluster/cluster_plan.h"

namespace sonolink::cluster {

// out = parts[0] + parts[1] + ..., left to right, for each value; every part out.size() long.
void sumInHostOrder(std::span<const std::span<const float>> parts, std::span<float> out);
[[nodiscard]] std::vector<float> sumInHostOrder(std::span<const std::vector<float>> parts);

// The summed image's envelope, nx x nz column-major: RF's analytic-signal magnitude along depth,
// IQ's magnitude. threads as envelopeAlongDepth's (0: one per hardware thread).
[[nodiscard]] beamform::BeamformedImage envelopeOfSum(const ClusterPlan& plan, std::vector<float> sum, unsigned threads = 1);

}  // namespace sonolink::cluster
