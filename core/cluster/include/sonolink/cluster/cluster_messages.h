// The control messages between acquisition hosts and the coordinator, each one UCX active
// message of its own kind: a small JSON header (the payload carries the plan or the partial's
// values). Hello (host -> coordinator: who it is), Plan (coordinator -> hosts: the plan, its hash,
// epoch, first trigger and the shared clock's origin), PlanAnswer, Heartbeat (both ways, with the
// host's counts), Stop, Bye (host's final counts) and Refusal (why a host is turned away).
// Thread contract: plain values and pure functions.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sonolink/util/result.h"

namespace sonolink::cluster {

enum class MessageKind : std::uint16_t { Hello = 1, Plan = 2, PlanAnswer = 3, Partial = 4, Heartbeat = 5, Stop = 6, Bye = 7, Refusal = 8 };

struct HelloMessage {
    std::uint32_t host = 0;  // its place in the plan's hosts
    std::string softwareVersion;
};

struct PlanMessage {
    std::uint64_t session = 0;
    std::uint64_t planHash = 0;
    std::uint32_t epoch = 0;
    std::uint64_t fromTrigger = 0;   // the epoch's first trigger: a frame boundary
    std::int64_t clockOriginNs = 0;  // CLOCK_REALTIME of trigger 0
    std::int64_t periodNs = 0;       // between triggers
};

struct PlanAnswerMessage {
    bool accepted = false;
    std::uint32_t epoch = 0;
    std::uint64_t planHash = 0;  // as the host computed it
    std::string reason;          // why not
};

// What a host has done so far: in heartbeats, and final in Bye.
struct HostCounts {
    std::uint64_t partialsSent = 0;
    std::uint64_t triggersSkipped = 0;  // the host fell behind the clock, or its link was busy
    std::uint64_t bytesSent = 0;
    double beamformMsLast = 0;
};

// The end: hosts send their partials up to and including lastTrigger, then Bye.
struct StopMessage {
    std::uint64_t lastTrigger = 0;
};

struct TextMessage {
    std::string text;
};

[[nodiscard]] std::vector<std::byte> encode(const HelloMessage& m);
[[nodiscard]] std::vector<std::byte> encode(const PlanMessage& m);
[[nodiscard]] std::vector<std::byte> encode(const PlanAnswerMessage& m);
[[nodiscard]] std::vector<std::byte> encode(const HostCounts& m);
[[nodiscard]] std::vector<std::byte> encode(const StopMessage& m);
[[nodiscard]] std::vector<std::byte> encode(const TextMessage& m);
// InvalidArgument naming the message and the field that is missing or wrong.
[[nodiscard]] Result<HelloMessage> decodeHello(std::span<const std::byte> bytes);
[[nodiscard]] Result<PlanMessage> decodePlan(std::span<const std::byte> bytes);
[[nodiscard]] Result<PlanAnswerMessage> decodePlanAnswer(std::span<const std::byte> bytes);
[[nodiscard]] Result<HostCounts> decodeHostCounts(std::span<const std::byte> bytes);
[[nodiscard]] Result<StopMessage> decodeStop(std::span<const std::byte> bytes);
[[nodiscard]] Result<TextMessage> decodeText(std::span<const std::byte> bytes);

[[nodiscard]] std::vector<std::byte> bytesOf(std::string_view text);
[[nodiscard]] std::string textOf(std::span<const std::byte> bytes);

}  // namespace sonolink::cluster
