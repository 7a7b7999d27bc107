// The simulated link end to end in one process: the NIC's checks, photoacoustic triggers, test
// patterns checked bit for bit, stalls, and a front end that vanishes.
#include <array>
#include <cstring>
#include <thread>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "sonolink/ingest/stream_session.h"
#include "sonolink/util/crc32c.h"
#include "sonolink/transport/sim/in_process_front_end.h"
#include "sonolink/transport/sim/sim_front_end_port.h"
#include "sonolink/transport/protocol/prbs_checker.h"

namespace sonolink::transport::sim {
namespace {

std::unique_ptr<SimLink> makeLink(std::uint32_t slotBytes = 64 * 1024, std::uint32_t slots = 64) {
    auto link = SimLink::create({"", slotBytes, slots, std::chrono::milliseconds(500)});
    EXPECT_TRUE(link) << link.error().describe();
    return std::move(*link);
}

// 32 channels x 256 samples, one plane wave, as fast as credits allow.
ingest::SessionOptions smallUnpaced() {
    ingest::SessionOptions options;
    options.configure.channelCount = 32;
    options.configure.samplesPerChannel = 256;
    options.configure.frameRateMilliHz = 0;
    return options;
}

TEST(SimLinkTest, NicRejectsAWrongKeyOrAddressOnBothSides) {
    auto link = makeLink();
    auto port = SimFrontEndPort::attach(*link);
    ASSERT_TRUE(port);
    Hello hello;
    hello.role = Role::FrontEnd;
    ASSERT_TRUE((*port)->sendControl(hello));
    ASSERT_TRUE(link->accept(std::chrono::milliseconds(1000)));
    ASSERT_TRUE(link->advertiseRing());
    std::optional<RingAdvert> advert;
    while (!advert) {
        auto message = (*port)->receiveControl(std::chrono::milliseconds(100));
        ASSERT_TRUE(message);
        if (*message) {
            if (auto* a = std::get_if<RingAdvert>(&**message)) advert = *a;
        }
    }
    std::array<std::byte, 64> header{};
    std::array<std::byte, 128> payload{};
    NicWrite bad{advert->address, advert->rkey ^ 1u, header, payload, 7, {}, false, true};
    auto written = (*port)->postWrite(bad);
    ASSERT_FALSE(written);
    EXPECT_NE(written.error().message().find("remote access error"), std::string::npos);
    NicWrite outside{advert->address + std::uint64_t(advert->slotBytes) * advert->slotCount, advert->rkey, header, payload, 8, {}, false, true};
    EXPECT_FALSE((*port)->postWrite(outside));
    NicWrite good{advert->address, advert->rkey, header, payload, 9, {}, false, true};
    EXPECT_TRUE((*port)->postWrite(good));
    EXPECT_TRUE((*port)->ringDoorbell());
    std::array<Completion, 8> completions{};
    const auto n = link->pollCompletions(completions, std::chrono::microseconds(1000));
    ASSERT_EQ(n, 3u);
    EXPECT_EQ(completions[0].status, CompletionStatus::RemoteAccessError);
    EXPECT_EQ(completions[1].status, CompletionStatus::RemoteAccessError);
    EXPECT_EQ(completions[2].status, CompletionStatus::Ok);
    EXPECT_EQ(completions[2].immediate, 9u);
    EXPECT_EQ(completions[2].byteCount, 64u + 128u);
}

TEST(SimLinkTest, MalformedControlMessagesAreCountedAnsweredAndSkipped) {
    auto link = makeLink();
    auto port = SimFrontEndPort::attach(*link);
    ASSERT_TRUE(port);
    auto garbage = encodeControlMessage(Trigger{0, 1, 2});
    garbage[14] ^= std::byte{0xFF};  // body damaged: CRC no longer matches
    ASSERT_TRUE((*port)->sendRawControl(garbage));
    ASSERT_TRUE((*port)->sendRawControl(std::span(garbage).first(5)));  // truncated
    ASSERT_TRUE((*port)->sendControl(Trigger{0, 3, 4}));
    auto message = link->receiveControl(std::chrono::milliseconds(500));
    ASSERT_TRUE(message) << message.error().describe();
    ASSERT_TRUE(*message);
    EXPECT_EQ(std::get<Trigger>(**message).shotId, 3u);  // the good one after two bad ones
    EXPECT_EQ(link->controlStats().malformed, 2u);
    EXPECT_NE(link->controlStats().lastError.find("truncated"), std::string::npos);
    // The front end was told, twice.
    int reports = 0;
    for (int i = 0; i < 4; ++i) {
        auto reply = (*port)->receiveControl(std::chrono::milliseconds(50));
        ASSERT_TRUE(reply);
        if (*reply && std::holds_alternative<ErrorReport>(**reply)) ++reports;
    }
    EXPECT_EQ(reports, 2);
}

class PatternSink final : public ingest::FrameSink {
public:
    explicit PatternSink(PayloadKind kind) : checker(prbsSpec(kind)) {}
    void onFrame(const ingest::FrameRef& frame) noexcept override {
        for (std::uint16_t b = 0; b < frame->blockCount(); ++b) {
            const auto& block = frame->block(b);
            if ((block.header.flags & block_flags::kTestPattern) == 0) ++unflagged;
            checker.check(block.payload);
        }
        ++frames;
    }
    PrbsChecker checker;
    int frames = 0, unflagged = 0;
};

TEST(SimLinkTest, Prbs31StreamArrivesWithoutABitError) {
    auto link = makeLink();
    auto frontEnd = InProcessFrontEnd::start(*link, {});
    ASSERT_TRUE(frontEnd);
    ingest::SessionOptions options;
    options.configure.payloadKind = PayloadKind::Prbs31;
    options.configure.channelCount = 32;
    options.configure.samplesPerChannel = 1000;
    options.configure.frameRateMilliHz = 0;
    auto session = ingest::StreamSession::open(*link, options);
    ASSERT_TRUE(session) << session.error().describe();
    PatternSink sink(PayloadKind::Prbs31);
    (*session)->ingest().addSink(sink);
    std::atomic<bool> stop{false};
    // The simulator pre-generates 4 frames of one continuous sequence; check those 4.
    auto summary = (*session)->run(4, stop);
    ASSERT_TRUE(summary) << summary.error().describe();
    EXPECT_EQ(sink.frames, 4);
    EXPECT_EQ(sink.unflagged, 0);
    EXPECT_TRUE(sink.checker.locked());
    EXPECT_EQ(sink.checker.bitErrors(), 0u);
    EXPECT_EQ(sink.checker.bitsChecked(), 4ull * 32 * 1000 * 2 * 8 - 31);
}

TEST(SimLinkTest, PhotoacousticFramesComeWithTheirShots) {
    auto link = makeLink();
    FrontEndOptions fe;
    fe.laser.jitter = std::chrono::nanoseconds(800);
    auto frontEnd = InProcessFrontEnd::start(*link, fe);
    ASSERT_TRUE(frontEnd);
    ingest::SessionOptions options;
    options.configure.photoacoustic = true;
    options.configure.channelCount = 64;
    options.configure.samplesPerChannel = 512;
    options.configure.frameRateMilliHz = 200'000;  // 200 Hz, paced
    auto session = ingest::StreamSession::open(*link, options);
    ASSERT_TRUE(session) << session.error().describe();
    struct Sink final : ingest::FrameSink {
        void onFrame(const ingest::FrameRef& frame) noexcept override {
            pa += frame->isPhotoacoustic() ? 1 : 0;
            timestamps.push_back(frame->timestampNs());
            energies.push_back(frame->block(0).header.laserEnergyMicroJ);
        }
        int pa = 0;
        std::vector<std::uint64_t> timestamps;
        std::vector<std::uint32_t> energies;
    } sink;
    (*session)->ingest().addSink(sink);
    std::atomic<bool> stop{false};
    auto summary = (*session)->run(20, stop);
    ASSERT_TRUE(summary) << summary.error().describe();
    EXPECT_EQ(summary->laser.fired, 20u);
    EXPECT_EQ(summary->laser.missed, 0u);
    EXPECT_EQ(sink.pa, 20);
    ASSERT_EQ(sink.timestamps.size(), 20u);
    for (std::size_t i = 1; i < sink.timestamps.size(); ++i) {  // paced 1/200 s apart, each pulse within its jitter
        const auto apart = static_cast<std::int64_t>(sink.timestamps[i] - sink.timestamps[i - 1]);
        EXPECT_LE(std::llabs(apart - 5'000'000), 1'600) << "shot " << i;
    }
    for (const auto energy : sink.energies) EXPECT_NEAR(energy, 20'000, 20'000 * 0.03 * 5);  // 5 sigma of the spread
}

// Dual mode: ultrasound frames at their rate, laser shots the host schedules at theirs, every
// fifth misfiring. Each missed shot is counted by both sides, no frame is sent for it, and every
// photoacoustic frame carries the pulse of the shot its report names, within the jitter of the
// time the host scheduled.
TEST(SimLinkTest, DualModeInterleavesScheduledShotsWithUltrasound) {
    auto link = makeLink(256 * 1024, 64);
    FrontEndOptions fe;
    fe.laser.jitter = std::chrono::nanoseconds(2000);
    fe.laser.missEvery = 5;
    auto frontEnd = InProcessFrontEnd::start(*link, fe);
    ASSERT_TRUE(frontEnd);
    ingest::SessionOptions options;
    options.configure.channelCount = 32;
    options.configure.samplesPerChannel = 512;
    options.configure.anglesMilliDeg = {-5'000, 0, 5'000};
    options.configure.frameRateMilliHz = 60'000;  // ultrasound at 60 Hz
    options.configure.laserRateMilliHz = 40'000;  // shots at 40 Hz
    auto session = ingest::StreamSession::open(*link, options);
    ASSERT_TRUE(session) << session.error().describe();
    struct Sink final : ingest::FrameSink {
        explicit Sink(const ingest::StreamSession& s) : session(s) {}
        void onFrame(const ingest::FrameRef& frame) noexcept override {
            if (!frame->isPhotoacoustic()) {
                ++us;
                usWaves = std::max<int>(usWaves, frame->block(static_cast<std::uint16_t>(frame->blockCount() - 1)).header.waveIndex + 1);
                return;
            }
            ++pa;
            paFrames.push_back({frame->frameId(), frame->timestampNs(), frame->block(0).header.laserEnergyMicroJ});
        }
        struct Pa {
            std::uint32_t frameId;
            std::uint64_t stampNs;
            std::uint32_t energy;
        };
        const ingest::StreamSession& session;
        int us = 0, pa = 0, usWaves = 0;
        std::vector<Pa> paFrames;
    } sink(**session);
    (*session)->ingest().addSink(sink);
    std::atomic<bool> stop{false};
    std::jthread stopper([&stop] {
        std::this_thread::sleep_for(std::chrono::milliseconds(1500));
        stop = true;
    });
    auto summary = (*session)->run(0, stop);
    ASSERT_TRUE(summary) << summary.error().describe();
    const auto& laser = summary->laser;
    EXPECT_GE(laser.scheduled, 40u);  // ~1.5 s at 40 Hz, less the lead
    EXPECT_EQ(laser.pending(), 0u) << "every trigger sent was answered, or withdrawn at the stop";
    EXPECT_LE(laser.withdrawn, 5u);  // the 100 ms lead at 40 Hz
    EXPECT_EQ(laser.fired + laser.missed + laser.late + laser.withdrawn, laser.scheduled + laser.lateBeforeSending);
    EXPECT_EQ(laser.late, 0u);
    // Every fifth shot (ids 4, 9, ...) misfired: counted exactly, by host and front end alike.
    const auto answered = laser.fired + laser.missed;
    EXPECT_EQ(laser.missed, answered / 5);
    EXPECT_EQ(laser.missed, summary->frontEnd.shotsMissed);
    EXPECT_EQ(laser.fired, summary->frontEnd.shotsFired);
    EXPECT_EQ(static_cast<std::uint64_t>(sink.pa), laser.fired);  // a frame for every pulse, none for a misfire
    EXPECT_GE(sink.us, 80);
    EXPECT_EQ(sink.usWaves, 3);
    for (const auto& frame : sink.paFrames) {
        const auto shot = (*session)->laser().shotOfFrame(frame.frameId);
        ASSERT_TRUE(shot) << "frame " << frame.frameId << " carries no reported shot";
        EXPECT_NE(shot->shotId % 5, 4u);
        EXPECT_EQ(frame.stampNs, shot->firedNs);
        EXPECT_EQ(frame.energy, shot->energyMicroJ);
        EXPECT_LE(std::llabs(static_cast<long long>(frame.stampNs - shot->scheduledNs)), 2000) << "shot " << shot->shotId;
    }
    EXPECT_LE(laser.worstFireErrorNs, 2000);
    EXPECT_NEAR(laser.meanEnergyMicroJ, 20'000, 20'000 * 0.03);
}

TEST(SimLinkTest, StallsDelayButLoseNothing) {
    auto link = makeLink();
    FrontEndOptions fe;
    fe.faults.stallEveryBlocks = 40;
    fe.faults.stallDuration = std::chrono::milliseconds(30);
    auto frontEnd = InProcessFrontEnd::start(*link, fe);
    ASSERT_TRUE(frontEnd);
    auto session = ingest::StreamSession::open(*link, smallUnpaced());
    ASSERT_TRUE(session) << session.error().describe();
    std::atomic<bool> stop{false};
    auto summary = (*session)->run(60, stop);
    ASSERT_TRUE(summary) << summary.error().describe();
    (*frontEnd)->join();
    EXPECT_EQ(summary->stats.framesDelivered, 60u);
    EXPECT_EQ(summary->stats.framesIncomplete + summary->stats.sequenceGaps, 0u);
    EXPECT_GE((*frontEnd)->simulator().faults().stalls, 1u);
    EXPECT_GE(summary->elapsed, std::chrono::milliseconds(30));
}

TEST(SimLinkTest, VanishedFrontEndIsReportedWithTheReason) {
    auto link = makeLink();
    FrontEndOptions fe;
    fe.faults.disconnectAfterBlocks = 100;
    auto frontEnd = InProcessFrontEnd::start(*link, fe);
    ASSERT_TRUE(frontEnd);
    auto session = ingest::StreamSession::open(*link, smallUnpaced());
    ASSERT_TRUE(session) << session.error().describe();
    std::atomic<bool> stop{false};
    auto summary = (*session)->run(0, stop);
    ASSERT_FALSE(summary);
    EXPECT_EQ(summary.error().code(), ErrorCode::Unavailable);
    EXPECT_NE(summary.error().message().find("sent no heartbeat"), std::string::npos) << summary.error().describe();
    (*frontEnd)->join();
    EXPECT_NE((*frontEnd)->result().error().message().find("disconnect injected after 100 blocks"), std::string::npos);
    // The link can be reset and a new front end streams again.
    frontEnd->reset();
    ASSERT_TRUE(link->reset());
    auto again = InProcessFrontEnd::start(*link, {});
    ASSERT_TRUE(again);
    auto session2 = ingest::StreamSession::open(*link, smallUnpaced());
    ASSERT_TRUE(session2) << session2.error().describe();
    auto summary2 = (*session2)->run(10, stop);
    ASSERT_TRUE(summary2) << summary2.error().describe();
    EXPECT_EQ(summary2->stats.framesDelivered, 10u);
}

// A region whose host is still writing its header (magic not yet set) is "not ready": the front
// end waits and retries. Something else under the name is refused for what it is.
TEST(SimLinkTest, AHalfSetUpRegionIsNotReadyAndAForeignOneIsRefused) {
    const std::string name = "sonolink-test-halfsetup-" + std::to_string(::getpid());
    const int fd = ::shm_open(("/" + name).c_str(), O_RDWR | O_CREAT | O_EXCL, 0600);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::ftruncate(fd, 1 << 20), 0);
    auto notReady = SimFrontEndPort::attach(name);
    ASSERT_FALSE(notReady);
    EXPECT_EQ(notReady.error().code(), ErrorCode::Unavailable);
    EXPECT_NE(notReady.error().message().find("not ready yet"), std::string::npos) << notReady.error().message();
    const std::uint64_t foreign = 0x0123456789abcdefull;
    ASSERT_EQ(::pwrite(fd, &foreign, sizeof foreign, 0), static_cast<ssize_t>(sizeof foreign));
    auto refused = SimFrontEndPort::attach(name);
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().code(), ErrorCode::InvalidArgument);
    EXPECT_NE(refused.error().message().find("is not a SonoLink link"), std::string::npos) << refused.error().message();
    ::close(fd);
    ::shm_unlink(("/" + name).c_str());
}

}  // namespace
}  // namespace sonolink::transport::sim
