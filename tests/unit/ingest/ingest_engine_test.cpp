// The ingest engine against hand-made completions: every kind of bad block is rejected,
// counted and described, and the blocks around it still make it through.
#include "sonolink/ingest/ingest_engine.h"

#include <vector>

#include <gtest/gtest.h>

#include "fake_link.h"
#include "sonolink/transport/protocol/byte_codec.h"

namespace sonolink::ingest {
namespace {

using transport::BlockHeader;
using transport::HeaderCheck;

class CollectingSink final : public FrameSink {
public:
    void onFrame(const FrameRef& frame) noexcept override {
        ids.push_back(frame->frameId());
        if (keep) held.push_back(frame);
    }
    std::vector<std::uint32_t> ids;
    std::vector<FrameRef> held;
    bool keep = false;
};

class IngestEngineTest : public ::testing::Test {
protected:
    static constexpr std::uint32_t kSlotBytes = 4096;
    static constexpr std::uint32_t kSlots = 16;

    void SetUp() override {
        IngestOptions options;
        options.maxBlocksPerFrame = 2;
        options.framePoolSize = 4;
        options.assemblyDepth = 2;
        options.creditBatch = 1;
        auto created = IngestEngine::create(link, options);
        ASSERT_TRUE(created) << created.error().describe();
        engine = std::move(*created);
        engine->addSink(sink);
        payload.assign(256, std::byte{0x5A});
    }

    void TearDown() override { sink.held.clear(); }  // frames go back before the engine does

    // Block b (0 or 1) of a two-block frame; sequence = frame * 2 + b.
    BlockHeader header(std::uint32_t frame, std::uint16_t block) {
        BlockHeader h;
        h.sequence = frame * 2ull + block;
        h.frameId = frame;
        h.blockIndex = block;
        h.blockCount = 2;
        h.channelCount = 1;
        h.sampleCount = 128;
        h.flags = block == 0 ? transport::block_flags::kFirstOfFrame : transport::block_flags::kLastOfFrame;
        return h;
    }
    void writeFrame(std::uint32_t frame) {
        link.writeBlock(header(frame, 0), payload);
        link.writeBlock(header(frame, 1), payload);
    }
    void pollAll() {
        for (int i = 0; i < 4; ++i) ASSERT_TRUE(engine->poll(std::chrono::microseconds(0)).has_value());
    }
    // Rewrites a header field (raw bytes at offset) and, if asked, repairs the header CRC.
    void patchLastHeader(std::size_t offset, std::vector<std::byte> bytes, bool fixCrc) {
        auto slot = link.lastSlot();
        for (std::size_t i = 0; i < bytes.size(); ++i) slot[offset + i] = bytes[i];
        if (fixCrc) {
            transport::ByteWriter w{slot.subspan(60, 4)};
            w.u32(crc32c(slot.first(60)));
        }
    }
    Rejection lastRejection() {
        auto all = engine->recentRejections();
        EXPECT_FALSE(all.empty());
        return all.empty() ? Rejection{} : all.back();
    }

    test::FakeLink link{kSlotBytes, kSlots};
    CollectingSink sink;
    std::unique_ptr<IngestEngine> engine;
    std::vector<std::byte> payload;
};

TEST_F(IngestEngineTest, DeliversFramesAndReturnsCredits) {
    writeFrame(0);
    writeFrame(1);
    pollAll();
    EXPECT_EQ(sink.ids, (std::vector<std::uint32_t>{0, 1}));
    const auto s = engine->stats();
    EXPECT_EQ(s.blocksOk, 4u);
    EXPECT_EQ(s.framesDelivered, 2u);
    EXPECT_EQ(link.creditsReturned, 4u);  // nobody held the frames
}

TEST_F(IngestEngineTest, HeldFrameKeepsItsSlotsUntilReleased) {
    sink.keep = true;
    writeFrame(0);
    writeFrame(1);
    pollAll();
    EXPECT_EQ(link.creditsReturned, 0u);
    EXPECT_EQ(engine->framesInFlight(), 2u);
    sink.held.erase(sink.held.begin() + 1);  // release frame 1 first: slots 2,3 free, 0,1 held
    pollAll();
    EXPECT_EQ(link.creditsReturned, 0u);  // credits are contiguous from the oldest slot
    sink.held.clear();
    pollAll();
    EXPECT_EQ(link.creditsReturned, 4u);
    EXPECT_EQ(engine->framesInFlight(), 0u);
    EXPECT_EQ(sink.held.size(), 0u);
}

TEST_F(IngestEngineTest, ZeroCopyViewsPointIntoTheRing) {
    sink.keep = true;
    writeFrame(0);
    pollAll();
    ASSERT_EQ(sink.held.size(), 1u);
    const auto& block = sink.held[0]->block(1);
    EXPECT_EQ(block.payload.data(), link.ring().slot(1).data() + 64);
    EXPECT_EQ(block.payload.size(), 256u);
}

struct BadHeaderCase {
    const char* name;
    std::size_t offset;
    std::vector<std::byte> bytes;
    bool fixCrc;
    HeaderCheck expected;
};

class BadHeaderTest : public IngestEngineTest, public ::testing::WithParamInterface<BadHeaderCase> {};

TEST_P(BadHeaderTest, RejectedCountedDescribedAndTheStreamGoesOn) {
    const auto& c = GetParam();
    writeFrame(0);
    link.writeBlock(header(1, 0), payload);
    patchLastHeader(c.offset, c.bytes, c.fixCrc);
    link.writeBlock(header(1, 1), payload);
    writeFrame(2);
    writeFrame(3);
    writeFrame(4);
    pollAll();
    const auto s = engine->stats();
    EXPECT_EQ(s.headerErrors, 1u);
    EXPECT_EQ(s.headerErrorsByCheck[static_cast<std::size_t>(c.expected)], 1u);
    EXPECT_EQ(s.sequenceGaps, 0u);  // the immediate still accounts for the sequence
    EXPECT_EQ(sink.ids, (std::vector<std::uint32_t>{0, 2, 3, 4}));
    EXPECT_EQ(s.framesIncomplete, 1u);
    const auto r = lastRejection();
    EXPECT_EQ(r.reason, Rejection::Reason::Header);
    EXPECT_EQ(r.completionIndex, 2u);
    EXPECT_EQ(r.sequence, 2u);
    EXPECT_NE(r.describe().find(std::string(transport::describe(c.expected))), std::string::npos) << r.describe();
    EXPECT_EQ(link.creditsReturned, 10u);  // the rejected slot was freed too
}

INSTANTIATE_TEST_SUITE_P(
    Kinds, BadHeaderTest,
    ::testing::Values(BadHeaderCase{"WrongMagic", 0, {std::byte{'X'}}, true, HeaderCheck::BadMagic},
                      BadHeaderCase{"DamagedHeader", 20, {std::byte{0x7F}}, false, HeaderCheck::BadHeaderCrc},
                      BadHeaderCase{"WrongVersion", 4, {std::byte{9}}, true, HeaderCheck::UnsupportedVersion},
                      BadHeaderCase{"PayloadPastSlot", 48, {std::byte{0xFF}, std::byte{0xFF}, std::byte{0}, std::byte{0}}, true, HeaderCheck::PayloadPastSlot},
                      BadHeaderCase{"BlockIndexPastCount", 20, {std::byte{5}}, true, HeaderCheck::BadBlockIndex},
                      BadHeaderCase{"UnknownFlags", 6, {std::byte{0}, std::byte{0x80}}, true, HeaderCheck::UnknownFlags}),
    [](const auto& param) { return std::string(param.param.name); });

TEST_F(IngestEngineTest, PayloadCrcMismatch) {
    link.writeBlock(header(0, 0), payload);
    link.lastSlot()[64 + 100] ^= std::byte{0x01};
    link.writeBlock(header(0, 1), payload);
    writeFrame(1);
    writeFrame(2);
    writeFrame(3);
    pollAll();
    const auto s = engine->stats();
    EXPECT_EQ(s.payloadCrcErrors, 1u);
    EXPECT_EQ(s.framesIncomplete, 1u);
    EXPECT_EQ(sink.ids, (std::vector<std::uint32_t>{1, 2, 3}));
    const auto r = lastRejection();
    EXPECT_EQ(r.reason, Rejection::Reason::PayloadCrc);
    EXPECT_NE(r.expected, r.actual);
    EXPECT_NE(r.describe().find("payload CRC-32C mismatch"), std::string::npos);
}

// The reported bug: frames whose blocks were all CRC-rejected were counted "missing" (never
// sent), and the troubleshooting guide then sent the operator to enlarge the ring instead of
// checking the cable. They arrived, damaged: incomplete. A run of them longer than any small
// bookkeeping window counts the same.
TEST_F(IngestEngineTest, FramesWhoseEveryBlockFailsItsCrcAreIncompleteNotMissing) {
    constexpr std::uint32_t damaged = 40;
    for (std::uint32_t f = 0; f < damaged; ++f) {
        link.writeBlock(header(f, 0), payload);
        link.lastSlot()[64 + 10] ^= std::byte{0x01};
        link.writeBlock(header(f, 1), payload);
        link.lastSlot()[64 + 20] ^= std::byte{0x01};
        if (f % 8 == 7) pollAll();  // the ring holds 16 blocks: take them as a host would
    }
    for (std::uint32_t f = damaged; f < damaged + 3; ++f) writeFrame(f);
    pollAll();
    engine->finish(2u * (damaged + 3), damaged + 3);
    const auto s = engine->stats();
    EXPECT_EQ(s.payloadCrcErrors, 2u * damaged);
    EXPECT_EQ(s.framesIncomplete, damaged) << "they came, damaged";
    EXPECT_EQ(s.framesMissing, 0u) << "none was lost on the way";
    EXPECT_EQ(s.framesDelivered, 3u);
}

TEST_F(IngestEngineTest, LengthAndImmediateMismatches) {
    link.writeBlock(header(0, 0), payload);
    link.lastCompletion().byteCount += 4096;
    link.writeBlock(header(0, 1), payload);
    link.lastCompletion().immediate ^= 0x100;  // points at another sequence
    writeFrame(1);
    writeFrame(2);
    writeFrame(3);  // frame 0 waits for its blocks until two newer frames exist
    pollAll();
    engine->finish(8, 4);
    const auto s = engine->stats();
    EXPECT_EQ(s.lengthMismatches, 1u);
    EXPECT_EQ(s.immediateMismatches, 1u);
    EXPECT_EQ(s.sequenceGaps, 1u);  // neither the header's nor the immediate's sequence is trusted
    EXPECT_EQ(s.lateBlocks, 0u);
    EXPECT_EQ(sink.ids, (std::vector<std::uint32_t>{1, 2, 3}));
    EXPECT_NE(lastRejection().describe().find("does not match the header's sequence"), std::string::npos);
}

TEST_F(IngestEngineTest, CompletionErrorIsCountedAndSkipped) {
    link.writeBlock(header(0, 0), payload, transport::CompletionStatus::RemoteAccessError);
    link.writeBlock(header(0, 1), payload);
    writeFrame(1);
    writeFrame(2);
    writeFrame(3);
    pollAll();
    EXPECT_EQ(engine->stats().completionErrors, 1u);
    EXPECT_EQ(engine->stats().framesIncomplete, 1u);
    EXPECT_EQ(sink.ids, (std::vector<std::uint32_t>{1, 2, 3}));
    EXPECT_NE(lastRejection().describe().find("remote access error"), std::string::npos);
}

TEST_F(IngestEngineTest, DuplicateAndReorderedBlocks) {
    link.writeBlock(header(0, 1), payload);  // second block first
    link.writeBlock(header(0, 0), payload);
    link.writeBlock(header(0, 0), payload);  // again
    writeFrame(1);
    pollAll();
    const auto s = engine->stats();
    EXPECT_EQ(s.reordered, 1u);
    EXPECT_EQ(s.duplicates, 1u);
    EXPECT_EQ(sink.ids, (std::vector<std::uint32_t>{0, 1}));
}

TEST_F(IngestEngineTest, FrameIdGapIsMissing) {
    writeFrame(0);
    // frame 1 dropped at the front end: no sequence numbers used
    BlockHeader a = header(2, 0), b = header(2, 1);
    a.sequence = 2;
    b.sequence = 3;
    link.writeBlock(a, payload);
    link.writeBlock(b, payload);
    pollAll();
    const auto s = engine->stats();
    EXPECT_EQ(s.framesMissing, 1u);
    EXPECT_EQ(s.sequenceGaps, 0u);
    EXPECT_EQ(sink.ids, (std::vector<std::uint32_t>{0, 2}));
}

// The reported bug: one block, valid by its CRCs, with a far-future frame id (or a sequence 2^40
// ahead, its low 32 bits as expected) ended the session and counted 4.29e9 frames missing. Each is
// refused as a corrupt header; the stream goes on and nothing is counted missing.
TEST_F(IngestEngineTest, AFarFutureFrameIdOrSequenceIsOneCorruptBlockNotBillionsMissing) {
    writeFrame(0);
    BlockHeader farFrame = header(1, 0);
    farFrame.frameId = 0xFFFFFFF0u;
    link.writeBlock(farFrame, payload);
    BlockHeader farSequence = header(1, 0);
    farSequence.sequence += std::uint64_t(1) << 40;
    link.writeBlock(farSequence, payload);
    writeFrame(1);
    writeFrame(2);
    pollAll();
    const auto s = engine->stats();
    EXPECT_EQ(sink.ids, (std::vector<std::uint32_t>{0, 1, 2}));
    EXPECT_EQ(s.framesMissing, 0u);
    EXPECT_EQ(s.sequenceGaps, 0u);
    EXPECT_EQ(s.headerErrors, 2u);
    EXPECT_EQ(s.headerErrorsByCheck[static_cast<std::size_t>(transport::HeaderCheck::ImplausibleLeap)], 2u);
    EXPECT_EQ(lastRejection().headerCheck, transport::HeaderCheck::ImplausibleLeap);
    EXPECT_TRUE(engine->poll(std::chrono::microseconds(0)).has_value()) << "the session goes on";
}

TEST_F(IngestEngineTest, WriteWithoutCreditStopsWithDataLoss) {
    sink.keep = true;                                     // hold everything: no credit comes back
    for (std::uint32_t f = 0; f < 8; ++f) writeFrame(f);  // 16 slots, all credited at start
    for (int i = 0; i < 4; ++i) (void)engine->poll(std::chrono::microseconds(0));
    EXPECT_EQ(engine->stats().framesDroppedNoBuffer, 4u);  // pool of 4 frames, all held
    EXPECT_EQ(engine->stats().lateBlocks, 0u);
    EXPECT_EQ(engine->stats().framesMissing, 0u);
    EXPECT_EQ(link.creditsReturned, 0u);  // slot 0 is held: no credit has gone back
    sink.held.clear();
    link.writeBlock(header(8, 0), payload);  // completion 16: the front end holds no credit for it
    const auto status = engine->poll(std::chrono::microseconds(0));
    EXPECT_EQ(engine->stats().creditViolations, 1u);
    ASSERT_FALSE(status);
    EXPECT_EQ(status.error().code(), ErrorCode::DataLoss);
    EXPECT_NE(status.error().message().find("no credit"), std::string::npos);
}

}  // namespace
}  // namespace sonolink::ingest
