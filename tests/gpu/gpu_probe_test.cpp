#include "sonolink/beamform/cuda/gpu_probe.h"

#include <gtest/gtest.h>

namespace sonolink::beamform::cuda {
namespace {

TEST(GpuProbeTest, FindsTheDeviceOrSaysWhyNot) {
    auto status = probeCuda();
    if (!status) {
        // The statically linked runtime must load and answer on a machine without a GPU.
        EXPECT_EQ(status.error().code(), ErrorCode::Unavailable);
        EXPECT_FALSE(status.error().message().empty());
        GTEST_SKIP() << "no CUDA device: " << status.error().message();
    }
    ASSERT_FALSE(status->devices.empty());
    EXPECT_GT(status->runtimeVersion, 0);
    EXPECT_GE(status->driverVersion, status->runtimeVersion / 1000 * 1000)
        << "driver older than the runtime it must run";
    for (const auto& gpu : status->devices) {
        EXPECT_FALSE(gpu.name.empty());
        EXPECT_GE(gpu.computeMajor, 7);
        EXPECT_GT(gpu.memoryBytes, 1ull << 30);
        EXPECT_GT(gpu.multiprocessorCount, 0);
    }
}

}  // namespace
}  // namespace sonolink::beamform::cuda
