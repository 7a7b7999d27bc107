// The CPU imaging steps in steady state, as a live image runs them frame after frame: the
// beamformer's worker threads persist (no thread started per frame: the process's thread count
// does not move over 20 frames), and the envelope step allocates nothing once warmed up
// (operator new is replaced in this binary with one that counts, over every thread).
#include <dirent.h>

#include <gtest/gtest.h>

#include "beamform_phantom.h"
#include "counting_new.h"
#include "sonolink/beamform/cpu_beamformer.h"

namespace sonolink::beamform {
namespace {

std::size_t threadsOfThisProcess() {
    std::size_t n = 0;
    if (DIR* d = ::opendir("/proc/self/task")) {
        while (const dirent* e = ::readdir(d)) n += e->d_name[0] != '.';
        ::closedir(d);
    }
    return n;
}

TEST(BeamformSteadyStateTest, WorkerThreadsPersistFromFrameToFrame) {
    const auto phantom = phantom::simulate({{0, 15e-3, 1}}, {-5, 0, 5}, 1200, 2e-6);
    const auto grid = PixelGrid::fromRanges(-8e-3, 8e-3, 64, 5e-3, 25e-3, 256);
    BeamformParams params;
    params.window = Window::Hann;
    ASSERT_TRUE(delayAndSum(phantom.view(), grid, params, 2));  // the first frame starts the pool
    const auto threads = threadsOfThisProcess();
    EXPECT_GE(threads, 2u) << "a pool of two threads: the caller and one worker";
    for (int frame = 0; frame < 20; ++frame) {
        auto image = delayAndSum(phantom.view(), grid, params, 2);
        ASSERT_TRUE(image);
        envelopeAlongDepth(*image, 2);
        EXPECT_EQ(threadsOfThisProcess(), threads) << "frame " << frame;
    }
}

TEST(BeamformSteadyStateTest, TheEnvelopeAllocatesNothingPerFrame) {
    BeamformedImage image;
    image.nx = 256;
    image.nz = 512;
    image.columns.assign(image.nx * image.nz, 1.0f);
    envelopeAlongDepth(image, 2);  // warm-up: each worker grows its scratch once
    const auto before = test::allocations.load();
    for (int frame = 0; frame < 10; ++frame) envelopeAlongDepth(image, 2);
    EXPECT_EQ(test::allocations.load() - before, 0u);
}

}  // namespace
}  // namespace sonolink::beamform
