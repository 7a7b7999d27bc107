// Streams >= 1,000,000 blocks per scenario from the front-end simulator through the in-process
// sim link into the ingest engine, with faults injected at several rates, and demands that
// every injected fault is counted exactly, by kind, and that every delivered frame is
// bit-identical to what the simulator generated.
#include <cstring>

#include <gtest/gtest.h>

#include "sonolink/transport/sim/in_process_front_end.h"
#include "sonolink/ingest/stream_session.h"

namespace sonolink {
namespace {

using transport::sim::FaultPlan;

struct Scenario {
    const char* name;
    FaultPlan faults;
};

class VerifyingSink final : public ingest::FrameSink {
public:
    explicit VerifyingSink(const transport::sim::FrontEndSimulator& simulator) : simulator_(simulator) {}
    void onFrame(const ingest::FrameRef& frame) noexcept override {
        if (frames_ > 0 && frame->frameId() <= lastFrameId_) ++outOfOrder_;
        lastFrameId_ = frame->frameId();
        ++frames_;
        const auto expected = simulator_.framePayload(frame->frameId());
        const auto& layout = simulator_.layout();
        for (std::uint16_t b = 0; b < frame->blockCount(); ++b) {
            const auto& block = frame->block(b);
            const auto& where = layout.blocks[b];
            if (block.payload.size() != where.payloadBytes || std::memcmp(block.payload.data(), expected.data() + where.frameOffset, where.payloadBytes) != 0) {
                ++mismatchedBlocks_;
            }
        }
    }
    std::uint64_t frames_ = 0, mismatchedBlocks_ = 0, outOfOrder_ = 0;
    std::uint32_t lastFrameId_ = 0;

private:
    const transport::sim::FrontEndSimulator& simulator_;
};

class IngestFaultInjectionTest : public ::testing::TestWithParam<Scenario> {};

TEST_P(IngestFaultInjectionTest, EveryFaultIsCountedAndEveryFrameIsExact) {
    const auto& scenario = GetParam();
    auto link = transport::sim::SimLink::create({"", 4096, 256, std::chrono::milliseconds(5000)});
    ASSERT_TRUE(link) << link.error().describe();
    transport::sim::FrontEndOptions feOptions;
    feOptions.faults = scenario.faults;
    feOptions.postBatch = 8;
    auto started = transport::sim::InProcessFrontEnd::start(**link, feOptions);
    ASSERT_TRUE(started) << started.error().describe();
    auto& frontEnd = **started;

    ingest::SessionOptions options;
    options.configure.channelCount = 64;
    options.configure.samplesPerChannel = 124;  // 16 channels per 4 KiB slot: 8 blocks per frame
    options.configure.anglesMilliDeg = {-5000, 5000};
    options.configure.frameRateMilliHz = 0;  // as fast as credits allow
    auto session = ingest::StreamSession::open(**link, options);
    ASSERT_TRUE(session) << session.error().describe();
    ASSERT_EQ((*session)->layout().blocksPerFrame, 8);

    constexpr std::uint32_t kFrames = 125'000;  // 1,000,000 blocks
    VerifyingSink sink(frontEnd.simulator());
    (*session)->ingest().addSink(sink);
    std::atomic<bool> stop{false};
    auto summary = (*session)->run(kFrames, stop);
    ASSERT_TRUE(summary) << summary.error().describe();
    frontEnd.join();
    ASSERT_TRUE(frontEnd.result()) << frontEnd.result().error().describe();

    const auto& injected = frontEnd.simulator().faults();
    const auto& fe = frontEnd.simulator().counters();
    const auto& s = summary->stats;
    EXPECT_EQ(fe.blocksSent, 1'000'000u);
    EXPECT_EQ(s.sequenceGaps, injected.blocksDropped);
    EXPECT_EQ(s.duplicates, injected.blocksDuplicated);
    EXPECT_EQ(s.reordered, injected.blocksReordered);
    EXPECT_EQ(s.headerErrors, injected.headersCorrupted);
    EXPECT_EQ(s.payloadCrcErrors, injected.payloadsCorrupted);
    EXPECT_EQ(s.blocksOk, fe.blocksSent - injected.blocksDropped - injected.headersCorrupted - injected.payloadsCorrupted);
    EXPECT_EQ(s.framesIncomplete, injected.framesLostPart);
    EXPECT_EQ(s.framesMissing, injected.framesLostWhole + fe.framesDroppedNoCredit);
    EXPECT_EQ(s.framesDelivered, kFrames - s.framesIncomplete - s.framesMissing);
    EXPECT_EQ(s.lateBlocks + s.immediateMismatches + s.lengthMismatches + s.completionErrors + s.creditViolations, 0u);
    EXPECT_EQ(s.framesDroppedNoBuffer, 0u);
    EXPECT_EQ(sink.frames_, s.framesDelivered);
    EXPECT_EQ(sink.mismatchedBlocks_, 0u);
    EXPECT_EQ(sink.outOfOrder_, 0u);
    EXPECT_EQ(s.completions, fe.writes);
    EXPECT_EQ((*session)->ingest().framesInFlight(), 0u);
    if (scenario.faults.any()) {
        EXPECT_GT(injected.blocksDropped + injected.blocksDuplicated + injected.blocksReordered + injected.bitsFlipped, 0u);
    }
    RecordProperty("blocks_dropped", std::to_string(injected.blocksDropped));
    RecordProperty("bits_flipped", std::to_string(injected.bitsFlipped));
}

FaultPlan plan(double ber, double drop, double duplicate, double reorder, std::uint64_t seed) {
    FaultPlan p;
    p.bitErrorRate = ber;
    p.dropRate = drop;
    p.duplicateRate = duplicate;
    p.reorderRate = reorder;
    p.seed = seed;
    return p;
}

INSTANTIATE_TEST_SUITE_P(Rates, IngestFaultInjectionTest,
                         ::testing::Values(Scenario{"clean", plan(0, 0, 0, 0, 1)}, Scenario{"light", plan(1e-8, 1e-5, 1e-5, 1e-5, 2)},
                                           Scenario{"moderate", plan(1e-7, 1e-4, 1e-4, 1e-4, 3)}, Scenario{"heavy", plan(1e-6, 1e-3, 1e-3, 1e-3, 4)}),
                         [](const auto& param) { return std::string(param.param.name); });

}  // namespace
}  // namespace sonolink
