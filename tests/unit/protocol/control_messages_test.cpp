#include "sonolink/transport/protocol/control_messages.h"

#include <gtest/gtest.h>

#include "sonolink/transport/protocol/byte_codec.h"
#include "sonolink/util/crc32c.h"

namespace sonolink::transport {
namespace {

std::vector<ControlMessage> oneOfEach() {
    Hello hello;
    hello.role = Role::FrontEnd;
    hello.capabilities.maxChannels = 192;
    hello.capabilities.maxSlotBytes = 1u << 20;
    hello.serial = "FE-0042";
    hello.firmware = "fw 3.1.4";
    Configure configure;
    configure.payloadKind = PayloadKind::Rf;
    configure.laserRateMilliHz = 20'000;  // dual mode
    configure.channelCount = 64;
    configure.samplesPerChannel = 4096;
    configure.samplingRateHz = 62'500'000;
    configure.anglesMilliDeg = {-12'000, -6'000, 0, 6'000, 12'000};
    StatusReport status;
    status.state = FrontEndState::Streaming;
    status.framesAcquired = 1'000'000'000'000ull;
    status.framesDropped = 3;
    status.blocksSent = 8'000'000'000'000ull;
    status.shotsFired = 1200;
    status.shotsMissed = 7;
    status.shotsLate = 1;
    status.creditsHeld = 17;
    status.temperatureMilliC = -5'250;
    return {hello,
            HelloAck{1, 0xFEEDFACECAFEBEEFull},
            RingAdvert{0x7f0000000000ull, 0x1234abcd, 262144, 256, 256},
            configure,
            ConfigureAck{32, 12, 131072},
            Start{500},
            Stop{},
            CreditReturn{0x1'0000'0001ull},
            BerStart{PayloadKind::Prbs23, 1'000'000},
            BerStop{},
            TimeSync{111, 222, 333},
            Trigger{0, 77, 123456789012345ull},
            status,
            ErrorReport{static_cast<std::uint16_t>(ErrorCode::ResourceExhausted), 3, "ring too small"},
            ShotReport{77, 1234, ShotOutcome::Fired, 123456789012777ull, 19'850}};
}

void expectEqual(const ControlMessage& a, const ControlMessage& b) {
    ASSERT_EQ(a.index(), b.index());
    // Re-encoding the decoded message must give the same bytes as the original.
    EXPECT_EQ(encodeControlMessage(a, 9), encodeControlMessage(b, 9));
}

TEST(ControlMessagesTest, EveryTypeRoundTrips) {
    const auto messages = oneOfEach();
    ASSERT_EQ(messages.size(), std::variant_size_v<ControlMessage>);
    for (const auto& message : messages) {
        const auto bytes = encodeControlMessage(message, 42);
        auto decoded = decodeControlMessage(bytes);
        ASSERT_TRUE(decoded) << toString(typeOf(message)) << ": " << decoded.error().describe();
        EXPECT_EQ(decoded->sequence, 42u);
        expectEqual(message, decoded->message);
    }
}

TEST(ControlMessagesTest, FieldsSurviveExactly) {
    auto decoded = decodeControlMessage(encodeControlMessage(oneOfEach()[3]));
    ASSERT_TRUE(decoded);
    const auto& c = std::get<Configure>(decoded->message);
    EXPECT_FALSE(c.photoacoustic);
    EXPECT_EQ(c.laserRateMilliHz, 20'000u);
    EXPECT_EQ(c.channelCount, 64);
    EXPECT_EQ(c.samplesPerChannel, 4096u);
    EXPECT_EQ(c.samplingRateHz, 62'500'000u);
    EXPECT_EQ(c.anglesMilliDeg, (std::vector<std::int32_t>{-12'000, -6'000, 0, 6'000, 12'000}));
    auto hello = decodeControlMessage(encodeControlMessage(oneOfEach()[0]));
    ASSERT_TRUE(hello);
    EXPECT_EQ(std::get<Hello>(hello->message).serial, "FE-0042");
    EXPECT_EQ(std::get<Hello>(hello->message).capabilities.maxChannels, 192);
    auto status = decodeControlMessage(encodeControlMessage(oneOfEach()[12]));
    ASSERT_TRUE(status);
    EXPECT_EQ(std::get<StatusReport>(status->message).temperatureMilliC, -5'250);
    EXPECT_EQ(std::get<StatusReport>(status->message).shotsMissed, 7u);
    auto shot = decodeControlMessage(encodeControlMessage(oneOfEach()[14]));
    ASSERT_TRUE(shot);
    const auto& r = std::get<ShotReport>(shot->message);
    EXPECT_EQ(r.shotId, 77u);
    EXPECT_EQ(r.frameId, 1234u);
    EXPECT_EQ(r.outcome, ShotOutcome::Fired);
    EXPECT_EQ(r.firedNs, 123456789012777ull);
    EXPECT_EQ(r.energyMicroJ, 19'850u);
}

TEST(ControlMessagesTest, HeaderLayout) {
    const auto bytes = encodeControlMessage(CreditReturn{5}, 0x01020304);
    ByteReader r(bytes);
    EXPECT_EQ(r.u32(), kControlMagic);
    EXPECT_EQ(r.u8(), 1);  // version
    EXPECT_EQ(r.u8(), static_cast<int>(MessageType::CreditReturn));
    EXPECT_EQ(r.u16(), bytes.size());  // total length
    EXPECT_EQ(r.u32(), 0x01020304u);   // sequence
    EXPECT_EQ(r.u64(), 5u);            // body
    EXPECT_EQ(r.u32(), crc32c(std::span(bytes).first(bytes.size() - 4)));
    EXPECT_EQ(bytes.size(), 12u + 8u + 4u);
}

TEST(ControlMessagesTest, EveryTruncationIsRejected) {
    for (const auto& message : oneOfEach()) {
        const auto bytes = encodeControlMessage(message);
        for (std::size_t n = 0; n < bytes.size(); ++n) {
            auto decoded = decodeControlMessage(std::span(bytes).first(n));
            ASSERT_FALSE(decoded) << toString(typeOf(message)) << " cut to " << n;
            EXPECT_EQ(decoded.error().code(), ErrorCode::DataLoss) << decoded.error().message();
            EXPECT_NE(decoded.error().message().find("truncated"), std::string::npos);
        }
    }
}

TEST(ControlMessagesTest, EveryFlippedBitIsRejected) {
    const auto bytes = encodeControlMessage(oneOfEach()[2]);
    for (std::size_t bit = 0; bit < bytes.size() * 8; ++bit) {
        auto damaged = bytes;
        damaged[bit / 8] ^= std::byte(1u << (bit % 8));
        EXPECT_FALSE(decodeControlMessage(damaged)) << "bit " << bit;
    }
}

// Rewrites a field of an encoded message and fixes the CRC, so only the field is wrong.
std::vector<std::byte> withPatch(std::vector<std::byte> bytes, std::size_t offset, std::vector<std::byte> patch) {
    for (std::size_t i = 0; i < patch.size(); ++i) bytes[offset + i] = patch[i];
    ByteWriter w{std::span(bytes).last(4)};
    w.u32(crc32c(std::span(bytes).first(bytes.size() - 4)));
    return bytes;
}

std::string errorOf(const std::vector<std::byte>& bytes) {
    auto decoded = decodeControlMessage(bytes);
    return decoded ? "" : decoded.error().message();
}

TEST(ControlMessagesTest, NamesWhatIsWrong) {
    const auto advert = encodeControlMessage(RingAdvert{0x10000, 1, 262144, 256, 256});
    EXPECT_NE(errorOf(withPatch(advert, 0, {std::byte{'X'}})).find("not a control message"), std::string::npos);
    EXPECT_NE(errorOf(withPatch(advert, 4, {std::byte{7}})).find("version 7 not supported"), std::string::npos);
    EXPECT_NE(errorOf(withPatch(advert, 5, {std::byte{99}})).find("unknown control message type 99"), std::string::npos);
    EXPECT_NE(errorOf(withPatch(advert, 5, {std::byte{static_cast<std::uint8_t>(MessageType::Stop)}})).find("Stop message has 24 unexpected trailing bytes"),
              std::string::npos);
    EXPECT_NE(errorOf(withPatch(advert, 5, {std::byte{static_cast<std::uint8_t>(MessageType::StatusReport)}})).find("StatusReport message truncated"),
              std::string::npos);
    // slot_bytes (body offset 12 -> message offset 24) not a multiple of 4096
    EXPECT_NE(errorOf(withPatch(advert, 24, {std::byte{1}})).find("slot_bytes 262145"), std::string::npos);
    auto badLength = advert;
    badLength[6] = std::byte{3};
    badLength[7] = std::byte{0};
    EXPECT_NE(errorOf(badLength).find("length field 3 outside"), std::string::npos);
}

TEST(ControlMessagesTest, RejectsOutOfRangeValues) {
    Configure c;
    c.channelCount = 300;
    EXPECT_NE(errorOf(encodeControlMessage(c)).find("channel_count 300"), std::string::npos);
    c = Configure{};
    c.samplingRateHz = 10'000'000;
    EXPECT_NE(errorOf(encodeControlMessage(c)).find("sampling_rate"), std::string::npos);
    c = Configure{};
    c.anglesMilliDeg = {50'000};
    EXPECT_NE(errorOf(encodeControlMessage(c)).find("angle 50000"), std::string::npos);
    c = Configure{};
    c.anglesMilliDeg.clear();
    EXPECT_NE(errorOf(encodeControlMessage(c)).find("no transmit angles"), std::string::npos);
    EXPECT_NE(errorOf(encodeControlMessage(RingAdvert{0x10000, 1, 4096, 4, 5})).find("initial_credits 5 exceed"), std::string::npos);
    EXPECT_NE(errorOf(encodeControlMessage(RingAdvert{0x10010, 1, 4096, 4, 4})).find("not 4 KiB-aligned"), std::string::npos);
    EXPECT_NE(errorOf(encodeControlMessage(BerStart{PayloadKind::Rf, 1})).find("not a test pattern"), std::string::npos);
    c = Configure{};
    c.laserRateMilliHz = 1'000'001;
    EXPECT_NE(errorOf(encodeControlMessage(c)).find("laser rate 1000001 mHz above 1000 Hz"), std::string::npos);
    c = Configure{};
    c.laserRateMilliHz = 20'000;
    c.photoacoustic = true;
    EXPECT_NE(errorOf(encodeControlMessage(c)).find("dual mode interleaves"), std::string::npos);
    EXPECT_NE(errorOf(encodeControlMessage(ShotReport{1, 2, static_cast<ShotOutcome>(3), 0, 0})).find("outcome 3 unknown"), std::string::npos);
    EXPECT_NE(errorOf(encodeControlMessage(ShotReport{4, 2, ShotOutcome::Fired, 0, 20'000})).find("shot 4 fired with no pulse time"), std::string::npos);
    EXPECT_NE(errorOf(encodeControlMessage(ShotReport{5, 0, ShotOutcome::Missed, 0, 300})).find("shot 5 not fired, yet with"), std::string::npos);
    Hello h;
    h.versionMin = 3;
    h.versionMax = 2;
    EXPECT_NE(errorOf(encodeControlMessage(h)).find("version range 3..2"), std::string::npos);
}

TEST(ControlMessagesTest, OverlongCountsAreRejected) {
    // An ErrorReport whose text length field claims more than the maximum.
    auto bytes = encodeControlMessage(ErrorReport{1, 0, "x"});
    EXPECT_NE(errorOf(withPatch(bytes, 12 + 3, {std::byte{0xFF}, std::byte{0x00}})).find("text length 255 exceeds 200"), std::string::npos);
    Configure c;
    auto configure = encodeControlMessage(c);
    const std::size_t countOffset = 12 + 1 + 1 + 2 + 4 * 7;
    EXPECT_NE(errorOf(withPatch(configure, countOffset, {std::byte{40}})).find("list of 40 entries exceeds 32"), std::string::npos);
}

TEST(ControlMessagesTest, VersionNegotiation) {
    Hello ours, theirs;
    ours.versionMin = 1;
    ours.versionMax = 3;
    theirs.versionMin = 2;
    theirs.versionMax = 5;
    EXPECT_EQ(negotiateVersion(ours, theirs).value(), 3);
    theirs.versionMin = 4;
    auto none = negotiateVersion(ours, theirs);
    ASSERT_FALSE(none);
    EXPECT_EQ(none.error().code(), ErrorCode::FailedPrecondition);
    EXPECT_NE(none.error().message().find("we speak 1..3, the peer 4..5"), std::string::npos);
}

}  // namespace
}  // namespace sonolink::transport
