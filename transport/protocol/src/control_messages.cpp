#include "sonolink/transport/protocol/control_messages.h"

#include <array>

#include <fmt/format.h>

#include "sonolink/transport/protocol/byte_codec.h"
#include "sonolink/util/crc32c.h"
#include "sonolink/util/assert.h"

namespace sonolink::transport {
namespace {

// One field list per message serves both directions: Encoder writes each field, Decoder
// reads it (bounds-checked) into the same member. So encode and decode cannot drift apart.
struct Encoder {
    ByteWriter& w;
    void u8(std::uint8_t& v) { w.u8(v); }
    void u16(std::uint16_t& v) { w.u16(v); }
    void u32(std::uint32_t& v) { w.u32(v); }
    void u64(std::uint64_t& v) { w.u64(v); }
    void i32(std::int32_t& v) { w.i32(v); }
    void flag(bool& v) { w.u8(v ? 1 : 0); }
    template <typename E> void e8(E& v) { w.u8(static_cast<std::uint8_t>(v)); }
    void fixedText(std::string& v, std::size_t size) { w.text(v, size); }
    void text(std::string& v, std::size_t max) {
        const auto n = std::min(v.size(), max);
        w.u16(static_cast<std::uint16_t>(n));
        w.text(v, n);
    }
    void i32List(std::vector<std::int32_t>& v, std::size_t max) {
        const auto n = std::min(v.size(), max);
        w.u8(static_cast<std::uint8_t>(n));
        for (std::size_t i = 0; i < n; ++i) w.i32(v[i]);
    }
};

struct Decoder {
    ByteReader& r;
    std::string problem;  // first semantic problem found while reading (e.g. a count too large)
    void u8(std::uint8_t& v) { v = r.u8(); }
    void u16(std::uint16_t& v) { v = r.u16(); }
    void u32(std::uint32_t& v) { v = r.u32(); }
    void u64(std::uint64_t& v) { v = r.u64(); }
    void i32(std::int32_t& v) { v = r.i32(); }
    void flag(bool& v) {
        const auto raw = r.u8();
        if (raw > 1 && problem.empty()) problem = fmt::format("boolean field holds {}", raw);
        v = raw == 1;
    }
    template <typename E> void e8(E& v) { v = static_cast<E>(r.u8()); }
    void fixedText(std::string& v, std::size_t size) { v = std::string(r.text(size)); }
    void text(std::string& v, std::size_t max) {
        const auto n = r.u16();
        if (n > max) {
            if (problem.empty()) problem = fmt::format("text length {} exceeds {}", n, max);
            r.skip(r.remaining());
            return;
        }
        v = std::string(r.text(n));
    }
    void i32List(std::vector<std::int32_t>& v, std::size_t max) {
        const auto n = r.u8();
        if (n > max) {
            if (problem.empty()) problem = fmt::format("list of {} entries exceeds {}", n, max);
            r.skip(r.remaining());
            return;
        }
        v.resize(n);
        for (auto& x : v) x = r.i32();
    }
};

template <typename IO> void fields(IO& io, Hello& m) {
    io.e8(m.role);
    io.u16(m.versionMin);
    io.u16(m.versionMax);
    io.u16(m.capabilities.maxChannels);
    io.u32(m.capabilities.minSamplingRateHz);
    io.u32(m.capabilities.maxSamplingRateHz);
    io.u32(m.capabilities.payloadKindMask);
    io.u32(m.capabilities.maxSlotBytes);
    io.fixedText(m.serial, 16);
    io.fixedText(m.firmware, 16);
}
template <typename IO> void fields(IO& io, HelloAck& m) {
    io.u16(m.version);
    io.u64(m.sessionId);
}
template <typename IO> void fields(IO& io, RingAdvert& m) {
    io.u64(m.address);
    io.u32(m.rkey);
    io.u32(m.slotBytes);
    io.u32(m.slotCount);
    io.u32(m.initialCredits);
}
template <typename IO> void fields(IO& io, Configure& m) {
    io.e8(m.payloadKind);
    io.flag(m.photoacoustic);
    io.u16(m.channelCount);
    io.u32(m.samplesPerChannel);
    io.u32(m.samplingRateHz);
    io.u32(m.centerFrequencyHz);
    io.u32(m.pitchNm);
    io.u32(m.frameRateMilliHz);
    io.u32(m.soundSpeedMmPerS);
    io.u32(m.laserRateMilliHz);
    io.i32List(m.anglesMilliDeg, kMaxWaves);
}
template <typename IO> void fields(IO& io, ConfigureAck& m) {
    io.u16(m.channelsPerBlock);
    io.u16(m.blocksPerFrame);
    io.u32(m.payloadBytesPerBlock);
}
template <typename IO> void fields(IO& io, Start& m) { io.u32(m.frameLimit); }
template <typename IO> void fields(IO&, Stop&) {}
template <typename IO> void fields(IO& io, CreditReturn& m) { io.u64(m.freedThrough); }
template <typename IO> void fields(IO& io, BerStart& m) {
    io.e8(m.pattern);
    io.u64(m.blockLimit);
}
template <typename IO> void fields(IO&, BerStop&) {}
template <typename IO> void fields(IO& io, TimeSync& m) {
    io.u64(m.t1HostSendNs);
    io.u64(m.t2FrontEndReceiveNs);
    io.u64(m.t3FrontEndSendNs);
}
template <typename IO> void fields(IO& io, Trigger& m) {
    io.u8(m.source);
    io.u32(m.shotId);
    io.u64(m.fireTimeNs);
}
template <typename IO> void fields(IO& io, ShotReport& m) {
    io.u32(m.shotId);
    io.u32(m.frameId);
    io.e8(m.outcome);
    io.u64(m.firedNs);
    io.u32(m.energyMicroJ);
}
template <typename IO> void fields(IO& io, StatusReport& m) {
    io.e8(m.state);
    io.u64(m.framesAcquired);
    io.u64(m.framesDropped);
    io.u64(m.blocksSent);
    io.u32(m.creditsHeld);
    io.i32(m.temperatureMilliC);
    io.u32(m.shotsFired);
    io.u32(m.shotsMissed);
    io.u32(m.shotsLate);
}
template <typename IO> void fields(IO& io, ErrorReport& m) {
    io.u16(m.code);
    io.u8(m.inResponseTo);
    io.text(m.text, kMaxErrorText);
}

// Range checks after decoding: "" when the values are acceptable.
std::string validate(const Hello& m) {
    if (m.role != Role::Host && m.role != Role::FrontEnd) return fmt::format("role {} is neither host (1) nor front end (2)", static_cast<int>(m.role));
    if (m.versionMin == 0 || m.versionMin > m.versionMax) return fmt::format("version range {}..{} is empty", m.versionMin, m.versionMax);
    if (m.capabilities.maxChannels == 0 || m.capabilities.maxChannels > 256) return fmt::format("max_channels {} outside 1..256", m.capabilities.maxChannels);
    return {};
}
std::string validate(const HelloAck& m) { return m.version == 0 ? "version 0" : ""; }
std::string validate(const RingAdvert& m) {
    if (m.slotBytes < 4096 || m.slotBytes % 4096 != 0) return fmt::format("slot_bytes {} is not a positive multiple of 4096", m.slotBytes);
    if (m.slotCount < 2) return fmt::format("slot_count {} below 2", m.slotCount);
    if (m.initialCredits > m.slotCount) return fmt::format("initial_credits {} exceed slot_count {}", m.initialCredits, m.slotCount);
    if (m.address % 4096 != 0) return fmt::format("ring address 0x{:x} is not 4 KiB-aligned", m.address);
    return {};
}
std::string validate(const Configure& m) {
    if (static_cast<std::uint8_t>(m.payloadKind) >= kPayloadKindCount) return fmt::format("payload kind {} unknown", static_cast<int>(m.payloadKind));
    if (m.channelCount == 0 || m.channelCount > 256) return fmt::format("channel_count {} outside 1..256", m.channelCount);
    if (m.samplesPerChannel == 0 || m.samplesPerChannel > 65536) return fmt::format("samples_per_channel {} outside 1..65536", m.samplesPerChannel);
    if (m.samplingRateHz < 20'000'000 || m.samplingRateHz > 125'000'000) return fmt::format("sampling_rate {} Hz outside 20..125 MHz", m.samplingRateHz);
    if (m.anglesMilliDeg.empty()) return "no transmit angles";
    for (auto a : m.anglesMilliDeg) {
        if (a < -45'000 || a > 45'000) return fmt::format("angle {} mdeg outside -45..45 deg", a);
    }
    if (m.soundSpeedMmPerS < 1'000'000 || m.soundSpeedMmPerS > 2'000'000) return fmt::format("sound speed {} mm/s outside 1000..2000 m/s", m.soundSpeedMmPerS);
    if (m.laserRateMilliHz > 1'000'000) return fmt::format("laser rate {} mHz above 1000 Hz", m.laserRateMilliHz);
    if (m.laserRateMilliHz != 0 && m.photoacoustic) return "a laser rate with photoacoustic frames only: dual mode interleaves shots with ultrasound frames";
    return {};
}
std::string validate(const ConfigureAck& m) {
    if (m.channelsPerBlock == 0 || m.blocksPerFrame == 0) return "channels_per_block and blocks_per_frame must be positive";
    return {};
}
std::string validate(const BerStart& m) {
    if (m.pattern < PayloadKind::Prbs7 || m.pattern > PayloadKind::Counter) return fmt::format("pattern {} is not a test pattern", static_cast<int>(m.pattern));
    return {};
}
std::string validate(const StatusReport& m) {
    if (static_cast<std::uint8_t>(m.state) > static_cast<std::uint8_t>(FrontEndState::Stalled))
        return fmt::format("state {} unknown", static_cast<int>(m.state));
    return {};
}
std::string validate(const ShotReport& m) {
    if (static_cast<std::uint8_t>(m.outcome) > static_cast<std::uint8_t>(ShotOutcome::Late))
        return fmt::format("outcome {} unknown", static_cast<int>(m.outcome));
    if (m.outcome == ShotOutcome::Fired && m.firedNs == 0) return fmt::format("shot {} fired with no pulse time", m.shotId);
    if (m.outcome != ShotOutcome::Fired && (m.firedNs != 0 || m.energyMicroJ != 0)) {
        return fmt::format("shot {} not fired, yet with a pulse time or energy", m.shotId);
    }
    return {};
}
template <typename T> std::string validate(const T&) { return {}; }

template <typename T> Result<ControlMessage> decodeBody(ByteReader& reader, MessageType type) {
    T message{};
    Decoder decoder{reader, {}};
    fields(decoder, message);
    if (!reader.ok()) {
        return fail(ErrorCode::DataLoss, fmt::format("{} message truncated: body shorter than its fields", toString(type)));
    }
    if (!decoder.problem.empty()) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{} message: {}", toString(type), decoder.problem));
    }
    if (reader.remaining() != 0) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{} message has {} unexpected trailing bytes", toString(type), reader.remaining()));
    }
    if (auto problem = validate(message); !problem.empty()) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{} message: {}", toString(type), problem));
    }
    return ControlMessage(std::move(message));
}

Result<ControlMessage> decodeByType(MessageType type, ByteReader& body) {
    switch (type) {
        case MessageType::Hello: return decodeBody<Hello>(body, type);
        case MessageType::HelloAck: return decodeBody<HelloAck>(body, type);
        case MessageType::RingAdvert: return decodeBody<RingAdvert>(body, type);
        case MessageType::Configure: return decodeBody<Configure>(body, type);
        case MessageType::ConfigureAck: return decodeBody<ConfigureAck>(body, type);
        case MessageType::Start: return decodeBody<Start>(body, type);
        case MessageType::Stop: return decodeBody<Stop>(body, type);
        case MessageType::CreditReturn: return decodeBody<CreditReturn>(body, type);
        case MessageType::BerStart: return decodeBody<BerStart>(body, type);
        case MessageType::BerStop: return decodeBody<BerStop>(body, type);
        case MessageType::TimeSync: return decodeBody<TimeSync>(body, type);
        case MessageType::Trigger: return decodeBody<Trigger>(body, type);
        case MessageType::StatusReport: return decodeBody<StatusReport>(body, type);
        case MessageType::ErrorReport: return decodeBody<ErrorReport>(body, type);
        case MessageType::ShotReport: return decodeBody<ShotReport>(body, type);
    }
    return fail(ErrorCode::InvalidArgument, fmt::format("unknown control message type {}", static_cast<int>(type)));
}

}  // namespace

std::string_view toString(MessageType type) noexcept {
    switch (type) {
        case MessageType::Hello: return "Hello";
        case MessageType::HelloAck: return "HelloAck";
        case MessageType::RingAdvert: return "RingAdvert";
        case MessageType::Configure: return "Configure";
        case MessageType::ConfigureAck: return "ConfigureAck";
        case MessageType::Start: return "Start";
        case MessageType::Stop: return "Stop";
        case MessageType::CreditReturn: return "CreditReturn";
        case MessageType::BerStart: return "BerStart";
        case MessageType::BerStop: return "BerStop";
        case MessageType::TimeSync: return "TimeSync";
        case MessageType::Trigger: return "Trigger";
        case MessageType::StatusReport: return "StatusReport";
        case MessageType::ErrorReport: return "ErrorReport";
        case MessageType::ShotReport: return "ShotReport";
    }
    return "Unknown";
}

MessageType typeOf(const ControlMessage& message) noexcept { return static_cast<MessageType>(message.index() + 1); }

std::size_t encodeControlMessageInto(const ControlMessage& message, std::uint32_t sequence, std::span<std::byte, kMaxControlMessage> out) noexcept {
    ByteWriter writer(out);
    writer.u32(kControlMagic);
    writer.u8(static_cast<std::uint8_t>(kProtocolVersion));
    writer.u8(static_cast<std::uint8_t>(typeOf(message)));
    writer.u16(0);  // length, patched below
    writer.u32(sequence);
    Encoder encoder{writer};
    std::visit(
        [&](const auto& m) {
            auto copy = m;  // the field list takes references; strings are only in Hello/ErrorReport
            fields(encoder, copy);
        },
        message);
    const auto length = writer.position() + kControlCrcSize;
    SONOLINK_ASSERT(writer.ok() && length <= kMaxControlMessage, "control message exceeds 512 bytes");
    ByteWriter lengthField(std::span<std::byte>(out).subspan(6, 2));
    lengthField.u16(static_cast<std::uint16_t>(length));
    writer.u32(crc32c(std::span<const std::byte>(out).first(length - kControlCrcSize)));
    return length;
}

std::vector<std::byte> encodeControlMessage(const ControlMessage& message, std::uint32_t sequence) {
    std::array<std::byte, kMaxControlMessage> buffer{};
    const auto length = encodeControlMessageInto(message, sequence, buffer);
    return {buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(length)};
}

Result<DecodedMessage> decodeControlMessage(std::span<const std::byte> bytes) {
    if (bytes.size() < kControlHeaderSize + kControlCrcSize) {
        return fail(ErrorCode::DataLoss,
                    fmt::format("control message truncated: {} bytes, the minimum is {}", bytes.size(), kControlHeaderSize + kControlCrcSize));
    }
    ByteReader header(bytes.first(kControlHeaderSize));
    const auto magic = header.u32();
    const auto version = header.u8();
    const auto typeByte = header.u8();
    const auto length = header.u16();
    const auto sequence = header.u32();
    if (magic != kControlMagic) {
        return fail(ErrorCode::InvalidArgument, fmt::format("not a control message: magic 0x{:08x}, expected 0x{:08x}", magic, kControlMagic));
    }
    if (length < kControlHeaderSize + kControlCrcSize || length > kMaxControlMessage) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("control message length field {} outside {}..{}", length, kControlHeaderSize + kControlCrcSize, kMaxControlMessage));
    }
    if (length > bytes.size()) {
        return fail(ErrorCode::DataLoss, fmt::format("control message truncated: length field says {} bytes, {} received", length, bytes.size()));
    }
    ByteReader crcField(bytes.subspan(length - kControlCrcSize, kControlCrcSize));
    const auto expectedCrc = crcField.u32();
    const auto actualCrc = crc32c(bytes.first(length - kControlCrcSize));
    if (expectedCrc != actualCrc) {
        return fail(ErrorCode::DataLoss, fmt::format("control message CRC-32C mismatch (carried 0x{:08x}, computed 0x{:08x})", expectedCrc, actualCrc));
    }
    if (version < kProtocolVersionMin || version > kProtocolVersion) {
        return fail(ErrorCode::FailedPrecondition,
                    fmt::format("control message version {} not supported (this build speaks {}..{})", version, kProtocolVersionMin, kProtocolVersion));
    }
    ByteReader body(bytes.subspan(kControlHeaderSize, length - kControlHeaderSize - kControlCrcSize));
    auto decoded = decodeByType(static_cast<MessageType>(typeByte), body);
    if (!decoded) return fail(std::move(decoded.error()));
    return DecodedMessage{std::move(*decoded), sequence};
}

Result<std::uint16_t> negotiateVersion(const Hello& ours, const Hello& theirs) {
    const auto low = std::max(ours.versionMin, theirs.versionMin);
    const auto high = std::min(ours.versionMax, theirs.versionMax);
    if (low > high) {
        return fail(ErrorCode::FailedPrecondition, fmt::format("no common protocol version: we speak {}..{}, the peer {}..{}", ours.versionMin, ours.versionMax,
                                                               theirs.versionMin, theirs.versionMax));
    }
    return high;
}

}  // namespace sonolink::transport
