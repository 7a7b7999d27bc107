#include "sonolink/cluster/partial_sum.h"

#include <algorithm>
#include <cmath>

#include "sonolink/beamform/cpu_beamformer.h"

namespace sonolink::cluster {

void sumInHostOrder(std::span<const std::span<const float>> parts, std::span<float> out) {
    if (parts.empty()) {
        std::fill(out.begin(), out.end(), 0.0f);
        return;
    }
    std::copy(parts[0].begin(), parts[0].end(), out.begin());
    for (std::size_t p = 1; p < parts.size(); ++p) {
        const float* in = parts[p].data();
        for (std::size_t i = 0; i < out.size(); ++i) out[i] += in[i];
    }
}

std::vector<float> sumInHostOrder(std::span<const std::vector<float>> parts) {
    std::vector<std::span<const float>> views(parts.begin(), parts.end());
    std::vector<float> out(parts.empty() ? 0 : parts[0].size());
    sumInHostOrder(views, out);
    return out;
}

beamform::BeamformedImage envelopeOfSum(const ClusterPlan& plan, std::vector<float> sum, unsigned threads) {
    beamform::BeamformedImage image;
    image.nx = plan.grid.x.size();
    image.nz = plan.grid.z.size();
    if (plan.kind == PartialKind::Rf) {
        image.columns = std::move(sum);
        beamform::envelopeAlongDepth(image, threads);
        return image;
    }
    image.columns.resize(image.nx * image.nz);
    for (std::size_t i = 0; i < image.columns.size(); ++i) image.columns[i] = std::hypot(sum[2 * i], sum[2 * i + 1]);
    return image;
}

}  // namespace sonolink::cluster
