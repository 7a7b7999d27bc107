// IngestStats: every block the link delivered, accounted for: intact, or rejected and why
// (header check, payload CRC, immediate mismatch, completion error), duplicate, reordered,
// late; every sequence never seen (gap); every frame delivered, incomplete, missing (frame-id
// gap: dropped at the front end or lost whole) or dropped for want of a frame buffer.
// Rejection records the most recent rejected blocks with their reason.
// Thread contract: plain snapshot values; copy freely.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "sonolink/ingest/ring_slot_counts.h"
#include "sonolink/transport/protocol/block_header.h"
#include "sonolink/transport/protocol/prbs_checker.h"

namespace sonolink::ingest {

struct IngestStats {
    std::uint64_t completions = 0;
    std::uint64_t blocksOk = 0;
    std::uint64_t bytesOk = 0;  // payload bytes of intact blocks
    std::uint64_t headerErrors = 0;
    std::array<std::uint64_t, transport::kHeaderCheckCount> headerErrorsByCheck{};
    std::uint64_t payloadCrcErrors = 0;
    std::uint64_t lengthMismatches = 0;     // completion byte count != 64 + payload_bytes
    std::uint64_t immediateMismatches = 0;  // completion immediate != low bits of the header sequence
    std::uint64_t completionErrors = 0;     // the NIC reported the write failed (remote access error)
    std::uint64_t creditViolations = 0;     // a write into a slot the front end held no credit for
    std::uint64_t sequenceGaps = 0;         // blocks never seen
    std::uint64_t duplicates = 0;
    std::uint64_t reordered = 0;
    std::uint64_t lateBlocks = 0;          // arrived after being counted missing; discarded
    std::uint64_t inconsistentBlocks = 0;  // block_count differs from the rest of its frame
    std::uint64_t framesDelivered = 0;
    std::uint64_t framesIncomplete = 0;
    std::uint64_t framesMissing = 0;  // frame ids never seen
    std::uint64_t framesDroppedNoBuffer = 0;
    std::uint64_t creditsReturned = 0;    // cumulative freed-through count sent to the front end
    std::uint64_t firstCompletionNs = 0;  // steady clock: when the first and the latest
    std::uint64_t lastCompletionNs = 0;   // completions were taken (the streaming window)
    transport::PrbsCounts patterns;       // test-pattern payloads, CRC-good or not (PatternTally)
    RingSlotCounts ringSlots;             // the same blocks by the ring slot they were checked in

    [[nodiscard]] std::uint64_t blocksRejected() const noexcept {
        return headerErrors + payloadCrcErrors + lengthMismatches + immediateMismatches + completionErrors;
    }
    // Adds another session's counts (a stream that reconnected).
    IngestStats& operator+=(const IngestStats& other) noexcept;
};

struct Rejection {
    enum class Reason : std::uint8_t { Header, PayloadCrc, LengthMismatch, ImmediateMismatch, CompletionError, CreditViolation };
    Reason reason = Reason::Header;
    transport::HeaderCheck headerCheck = transport::HeaderCheck::Ok;
    std::uint64_t completionIndex = 0;
    std::uint64_t sequence = 0;  // from the immediate when the header is not trusted
    std::uint32_t frameId = 0;
    std::uint32_t expected = 0;  // CRC or length expected
    std::uint32_t actual = 0;
    [[nodiscard]] std::string describe() const;
};

}  // namespace sonolink::ingest
