// Proves the receive path allocates nothing while streaming: operator new is replaced in this
// binary with one that counts, per thread; the host thread runs a whole session of 4,000 frames
// (32,000 blocks, faults injected) through ingest and must count zero allocations.
#include <gtest/gtest.h>

#include "counting_new.h"
#include "sonolink/transport/sim/in_process_front_end.h"
#include "sonolink/ingest/stream_session.h"

namespace sonolink {
namespace {

class HoldingSink final : public ingest::FrameSink {
public:
    void onFrame(const ingest::FrameRef& frame) noexcept override {
        // Keep the newest frames, as a display and a recorder would.
        held_[next_++ % held_.size()] = frame;
    }
    void clear() { held_ = {}; }

private:
    std::array<ingest::FrameRef, 3> held_{};
    std::size_t next_ = 0;
};

TEST(IngestZeroAllocationTest, SteadyStateStreamingAllocatesNothing) {
    auto link = transport::sim::SimLink::create({"", 64 * 1024, 256, std::chrono::milliseconds(5000)});
    ASSERT_TRUE(link) << link.error().describe();
    transport::sim::FrontEndOptions feOptions;
    feOptions.faults.bitErrorRate = 1e-7;  // rejections, gaps and duplicates take paths of their own
    feOptions.faults.dropRate = 1e-3;
    feOptions.faults.duplicateRate = 1e-3;
    feOptions.faults.reorderRate = 1e-3;
    auto started = transport::sim::InProcessFrontEnd::start(**link, feOptions);
    ASSERT_TRUE(started) << started.error().describe();
    ingest::SessionOptions options;
    options.configure.channelCount = 128;
    options.configure.samplesPerChannel = 508;                       // 64 channels of 1016 bytes per 64 KiB slot
    options.configure.anglesMilliDeg = {-10'000, -5'000, 0, 5'000};  // 8 blocks per frame
    options.configure.frameRateMilliHz = 0;
    auto session = ingest::StreamSession::open(**link, options);
    ASSERT_TRUE(session) << session.error().describe();
    HoldingSink sink;
    (*session)->ingest().addSink(sink);

    std::atomic<bool> stop{false};
    const auto before = test::allocationsOnThisThread;
    auto summary = (*session)->run(4000, stop);
    const auto allocations = test::allocationsOnThisThread - before;
    ASSERT_TRUE(summary) << summary.error().describe();
    sink.clear();
    EXPECT_EQ(summary->stats.framesDelivered + summary->stats.framesIncomplete + summary->stats.framesMissing, 4000u);
    EXPECT_GT(summary->stats.blocksOk, 28'800u);  // ~5% of 64 KiB blocks take a bit error at 1e-7
    EXPECT_EQ(allocations, 0u) << "heap allocations on the ingest thread while streaming";
}

}  // namespace
}  // namespace sonolink
