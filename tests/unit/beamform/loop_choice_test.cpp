// LoopChoice (loop_choice.h): the first frames of a kind alternate between the two loops, the
// one with the lower median time is kept after kTrials of each, kinds are chosen apart, one
// slow outlier does not decide, and the choice holds across threads. Also: delayAndSum with the
// best loop gives the same image on every frame, whichever loop ran it.
#include "loop_choice.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "beamform_phantom.h"
#include "sonolink/beamform/cpu_beamformer.h"

namespace sonolink::beamform {
namespace {

const FrameKind kKind{true, 1, 256, 512, 128, 2048, 1};

// Runs frames until the choice is made, each loop taking its time from `seconds`; returns the loops run.
std::vector<FastLoop> trial(LoopChoice& choice, const FrameKind& kind, double avx2, double avx512) {
    std::vector<FastLoop> ran;
    FastLoop chosen;
    while (!choice.chosen(kind, chosen) && ran.size() < 100) {
        const FastLoop loop = choice.next(kind);
        ran.push_back(loop);
        choice.record(kind, loop, loop == FastLoop::Avx2 ? avx2 : avx512);
    }
    return ran;
}

TEST(LoopChoiceTest, AlternatesThenKeepsTheFasterLoop) {
    LoopChoice choice;
    const auto ran = trial(choice, kKind, 1.0e-3, 1.3e-3);
    ASSERT_EQ(ran.size(), 2 * LoopChoice::kTrials);
    for (std::size_t i = 0; i < ran.size(); ++i) EXPECT_EQ(ran[i], i % 2 == 0 ? FastLoop::Avx512 : FastLoop::Avx2) << "frame " << i;
    FastLoop chosen;
    ASSERT_TRUE(choice.chosen(kKind, chosen));
    EXPECT_EQ(chosen, FastLoop::Avx2);
    for (int i = 0; i < 5; ++i) EXPECT_EQ(choice.next(kKind), FastLoop::Avx2);
    choice.record(kKind, FastLoop::Avx512, 1e-9);  // after the choice: ignored
    EXPECT_EQ(choice.next(kKind), FastLoop::Avx2);
}

TEST(LoopChoiceTest, EachKindIsChosenApartAndAnOutlierDoesNotDecide) {
    LoopChoice choice;
    FrameKind other = kKind;
    other.window = 0;
    trial(choice, kKind, 2e-3, 1e-3);
    FastLoop chosen;
    ASSERT_TRUE(choice.chosen(kKind, chosen));
    EXPECT_EQ(chosen, FastLoop::Avx512);
    EXPECT_FALSE(choice.chosen(other, chosen));
    // AVX2 faster on three frames of four, one of them slowed (another process took the core):
    // the median still picks it.
    const double avx2[] = {1.0e-3, 9.0e-3, 1.0e-3, 1.1e-3}, avx512[] = {1.5e-3, 1.4e-3, 1.6e-3, 1.5e-3};
    std::size_t i2 = 0, i5 = 0;
    while (!choice.chosen(other, chosen)) {
        const FastLoop loop = choice.next(other);
        choice.record(other, loop, loop == FastLoop::Avx2 ? avx2[i2++] : avx512[i5++]);
    }
    EXPECT_EQ(chosen, FastLoop::Avx2);
}

TEST(LoopChoiceTest, ThreadsShareOneChoice) {
    LoopChoice choice;
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&choice] {
            for (int i = 0; i < 50; ++i) {
                const FastLoop loop = choice.next(kKind);
                choice.record(kKind, loop, loop == FastLoop::Avx2 ? 3e-3 : 1e-3);
            }
        });
    }
    for (auto& t : threads) t.join();
    FastLoop chosen;
    ASSERT_TRUE(choice.chosen(kKind, chosen));
    EXPECT_EQ(chosen, FastLoop::Avx512);
}

// Whichever loop the best runs on a frame (the first frames alternate), the image is the same
// within the loops' agreement (1e-4 of the peak, as CpuBeamformerTest holds them to the reference).
TEST(LoopChoiceTest, TheBestLoopGivesTheSameImageOnEveryFrame) {
    using namespace phantom;
    const auto p = simulate({{0, 15e-3, 1}, {-4e-3, 22e-3, 0.6}}, {0}, 1600, 0);
    const auto grid = PixelGrid::fromRanges(-8e-3, 8e-3, 40, 5e-3, 30e-3, 301);  // a kind no other test uses
    BeamformParams params;
    params.window = Window::Hann;
    auto reference = delayAndSum(p.view(), grid, params, 2, VectorLoop::Scalar);
    ASSERT_TRUE(reference);
    float peak = 0;
    for (float v : reference->columns) peak = std::max(peak, std::abs(v));
    for (std::size_t frame = 0; frame < 2 * LoopChoice::kTrials + 2; ++frame) {
        auto image = delayAndSum(p.view(), grid, params, 2, VectorLoop::Best);
        ASSERT_TRUE(image);
        float worst = 0;
        for (std::size_t i = 0; i < image->columns.size(); ++i) worst = std::max(worst, std::abs(image->columns[i] - reference->columns[i]));
        EXPECT_LT(worst / peak, 1e-4f) << "frame " << frame;
    }
}

}  // namespace
}  // namespace sonolink::beamform
