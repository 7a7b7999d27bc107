// The station's GPU as the runtime reports it (or why there is none), and the host pinning the
// read-ahead ring uses: a page-aligned buffer is page-locked until it is unpinned, and where
// there is no GPU pinning fails with a reason and leaves the buffer as it was.
#include "sonolink/beamform/cuda/gpu_probe.h"
#include "sonolink/beamform/cuda/host_pinning_cuda.h"

#include <cstdlib>
#include <cstring>

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
    EXPECT_GE(status->driverVersion, status->runtimeVersion / 1000 * 1000) << "driver older than the runtime it must run";
    for (const auto& gpu : status->devices) {
        EXPECT_FALSE(gpu.name.empty());
        EXPECT_GE(gpu.computeMajor, 7);
        EXPECT_GT(gpu.memoryBytes, 1ull << 30);
        EXPECT_GT(gpu.multiprocessorCount, 0);
    }
}

TEST(GpuHostPinningTest, ABufferIsPageLockedUntilItIsUnpinned) {
    constexpr std::size_t kBytes = std::size_t{2} << 20;  // a read-ahead buffer of a 1.5 MiB frame, rounded
    auto* buffer = static_cast<std::byte*>(std::aligned_alloc(4096, kBytes));
    ASSERT_NE(buffer, nullptr);
    std::memset(buffer, 0x5a, kBytes);
    auto pinning = cudaHostPinning();
    const auto pinned = pinning->pin(buffer, kBytes);
    if (!probeCuda()) {
        ASSERT_FALSE(pinned) << "no GPU: nothing to pin with";
        EXPECT_NE(pinned.error().message().find("cudaHostRegister"), std::string::npos) << pinned.error().message();
        EXPECT_FALSE(isPageLocked(buffer));
        std::free(buffer);
        GTEST_SKIP() << "no CUDA device";
    }
    ASSERT_TRUE(pinned) << pinned.error().describe();
    EXPECT_TRUE(isPageLocked(buffer));
    EXPECT_TRUE(isPageLocked(buffer + kBytes - 1)) << "the whole buffer";
    EXPECT_EQ(buffer[kBytes / 2], std::byte{0x5a}) << "pinning keeps the contents";
    pinning->unpin(buffer);
    EXPECT_FALSE(isPageLocked(buffer));
    std::free(buffer);
}

}  // namespace
}  // namespace sonolink::beamform::cuda
