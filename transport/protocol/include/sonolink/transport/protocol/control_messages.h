// Control-plane messages between host and front end (docs/protocol.md, "Control messages"):
// typed values, encoded little-endian into a framed, versioned, CRC-32C-protected message.
// decodeControlMessage() checks framing, magic, version, length and CRC, then every field's
// range, and says exactly what is wrong with a malformed or truncated message.
// Thread contract: pure functions, thread-safe. Control plane only (allocates freely).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "sonolink/transport/protocol/block_header.h"
#include "sonolink/util/result.h"

namespace sonolink::transport {

inline constexpr std::uint32_t kControlMagic = 0x4D434C53;  // "SLCM"
inline constexpr std::uint16_t kProtocolVersion = 1;        // highest version this build speaks
inline constexpr std::uint16_t kProtocolVersionMin = 1;     // lowest version this build accepts
inline constexpr std::size_t kControlHeaderSize = 12;
inline constexpr std::size_t kControlCrcSize = 4;
inline constexpr std::size_t kMaxControlMessage = 512;
inline constexpr std::size_t kMaxWaves = 32;
inline constexpr std::size_t kMaxErrorText = 200;

enum class MessageType : std::uint8_t {
    Hello = 1,
    HelloAck,
    RingAdvert,
    Configure,
    ConfigureAck,
    Start,
    Stop,
    CreditReturn,
    BerStart,
    BerStop,
    TimeSync,
    Trigger,
    StatusReport,
    ErrorReport,
    ShotReport,
};
[[nodiscard]] std::string_view toString(MessageType type) noexcept;

enum class Role : std::uint8_t { Host = 1, FrontEnd = 2 };

struct Capabilities {
    std::uint16_t maxChannels = 256;
    std::uint32_t minSamplingRateHz = 20'000'000;
    std::uint32_t maxSamplingRateHz = 125'000'000;
    std::uint32_t payloadKindMask = 0x3F;  // bit n = PayloadKind n supported
    std::uint32_t maxSlotBytes = 64u << 20;
};

struct Hello {  // both directions, first message of a session
    Role role = Role::Host;
    std::uint16_t versionMin = kProtocolVersionMin;
    std::uint16_t versionMax = kProtocolVersion;
    Capabilities capabilities;  // meaningful from the front end
    std::string serial;         // up to 16 bytes
    std::string firmware;       // up to 16 bytes
};
struct HelloAck {  // host -> front end: the version both will speak
    std::uint16_t version = kProtocolVersion;
    std::uint64_t sessionId = 0;
};
struct RingAdvert {  // host -> front end: where to write blocks
    std::uint64_t address = 0;
    std::uint32_t rkey = 0;
    std::uint32_t slotBytes = 0;  // multiple of 4096
    std::uint32_t slotCount = 0;
    std::uint32_t initialCredits = 0;  // <= slotCount
};
struct Configure {  // host -> front end
    PayloadKind payloadKind = PayloadKind::Rf;
    bool photoacoustic = false;  // receive-only frames on laser triggers
    std::uint16_t channelCount = 128;
    std::uint32_t samplesPerChannel = 2048;
    std::uint32_t samplingRateHz = 40'000'000;
    std::uint32_t centerFrequencyHz = 5'000'000;
    std::uint32_t pitchNm = 300'000;
    std::uint32_t frameRateMilliHz = 30'000;  // 0 = as fast as credits allow
    std::uint32_t soundSpeedMmPerS = 1'540'000;
    // Dual mode: laser shots the host schedules (Trigger) interleaved with the ultrasound frames,
    // at up to this rate (1..1000 Hz); 0 = none. Not with photoacoustic (there every frame is a shot).
    std::uint32_t laserRateMilliHz = 0;
    std::vector<std::int32_t> anglesMilliDeg{0};  // 1..32 plane-wave transmits per frame
    // Transmits per frame: one receive-only wave for photoacoustic frames, else one per angle.
    [[nodiscard]] int waveCount() const noexcept { return photoacoustic ? 1 : static_cast<int>(anglesMilliDeg.size()); }
};
struct ConfigureAck {  // front end -> host: the block layout it will use
    std::uint16_t channelsPerBlock = 0;
    std::uint16_t blocksPerFrame = 0;
    std::uint32_t payloadBytesPerBlock = 0;  // largest block's payload
};
struct Start {
    std::uint32_t frameLimit = 0;
};  // 0 = until Stop
struct Stop {};
struct CreditReturn {
    std::uint64_t freedThrough = 0;
};  // cumulative slots freed since RingAdvert
struct BerStart {
    PayloadKind pattern = PayloadKind::Prbs31;
    std::uint64_t blockLimit = 0;
};
struct BerStop {};
struct TimeSync {  // host fills t1; front end fills t2, t3 and echoes it
    std::uint64_t t1HostSendNs = 0;
    std::uint64_t t2FrontEndReceiveNs = 0;
    std::uint64_t t3FrontEndSendNs = 0;
};
struct Trigger {               // host -> front end: fire the laser at this PTP time (ahead of it)
    std::uint8_t source = 0;   // 0 = laser
    std::uint32_t shotId = 0;  // the host's, from 0 per session
    std::uint64_t fireTimeNs = 0;
};
enum class ShotOutcome : std::uint8_t {
    Fired = 0,   // the laser fired; the shot's photoacoustic frame follows (frame_id)
    Missed = 1,  // the trigger went out, the photodiode saw no pulse: no frame
    Late = 2,    // the trigger arrived after its fire time: not fired, no frame
};
struct ShotReport {  // front end -> host: what became of a shot, before its frame's blocks
    std::uint32_t shotId = 0;
    std::uint32_t frameId = 0;  // the frame that carries it (Fired only)
    ShotOutcome outcome = ShotOutcome::Fired;
    std::uint64_t firedNs = 0;       // PTP time the pulse left (photodiode edge); 0 unless Fired
    std::uint32_t energyMicroJ = 0;  // the photodiode's pulse energy; 0 unless Fired
};
enum class FrontEndState : std::uint8_t { Idle = 0, Configured, Streaming, Stalled };
struct StatusReport {  // front end -> host, also the heartbeat (at least every 100 ms)
    FrontEndState state = FrontEndState::Idle;
    std::uint64_t framesAcquired = 0;
    std::uint64_t framesDropped = 0;  // no credit: whole frames dropped at the front end
    std::uint64_t blocksSent = 0;
    std::uint32_t creditsHeld = 0;
    std::int32_t temperatureMilliC = 0;
    std::uint32_t shotsFired = 0;  // laser shots this session, by outcome
    std::uint32_t shotsMissed = 0;
    std::uint32_t shotsLate = 0;
};
struct ErrorReport {                // either direction
    std::uint16_t code = 0;         // sonolink::ErrorCode value
    std::uint8_t inResponseTo = 0;  // MessageType that caused it, 0 = none
    std::string text;               // up to 200 bytes
};

using ControlMessage = std::variant<Hello, HelloAck, RingAdvert, Configure, ConfigureAck, Start, Stop, CreditReturn, BerStart, BerStop, TimeSync, Trigger,
                                    StatusReport, ErrorReport, ShotReport>;

[[nodiscard]] MessageType typeOf(const ControlMessage& message) noexcept;

// Encodes message with the given sequence number (per sender, for logs and replies).
[[nodiscard]] std::vector<std::byte> encodeControlMessage(const ControlMessage& message, std::uint32_t sequence = 0);
// The same into a caller's buffer, returning the length; allocates nothing for messages without
// text (what the hot path sends: CreditReturn).
std::size_t encodeControlMessageInto(const ControlMessage& message, std::uint32_t sequence, std::span<std::byte, kMaxControlMessage> out) noexcept;

struct DecodedMessage {
    ControlMessage message;
    std::uint32_t sequence = 0;
};
// InvalidArgument for malformed content, DataLoss for a CRC mismatch or truncation.
[[nodiscard]] Result<DecodedMessage> decodeControlMessage(std::span<const std::byte> bytes);

// The version both sides speak, or FailedPrecondition when the ranges do not overlap.
[[nodiscard]] Result<std::uint16_t> negotiateVersion(const Hello& ours, const Hello& theirs);

}  // namespace sonolink::transport
