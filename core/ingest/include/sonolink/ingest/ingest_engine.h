// IngestEngine: the host's receive path. Link completions -> header check and CRC-32C of the
// payload (ISA-L) -> sequence accounting -> frame assembly -> zero-copy frames handed to the
// sinks in frame-id order -> slots freed when the last FrameRef goes -> credits returned in
// batches. Every block and frame is accounted for in IngestStats; a bad block is rejected,
// counted and recorded with its reason, and the stream goes on. Only a front end that writes
// without credit (ring memory no longer trustworthy) stops it (DataLoss).
// No allocation, lock or system call per block. Every FrameRef must be gone before the engine
// is destroyed. Thread contract: poll()/finish() on one thread (rx); stats(), latency() and
// recentRejections() from any thread.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "sonolink/ingest/frame.h"
#include "sonolink/ingest/ingest_stats.h"
#include "sonolink/ingest/latency_histogram.h"
#include "sonolink/ingest/pattern_tally.h"
#include "sonolink/ingest/sequence_tracker.h"
#include "sonolink/transport/link.h"
#include "sonolink/util/result.h"

namespace sonolink::ingest {

class FrameAssembler;

struct IngestOptions {
    std::uint16_t maxBlocksPerFrame = 0;  // from ConfigureAck
    // Frames assembling or held by consumers. Capped so that the pool's frames never fill the
    // ring: the front end always has room for one more frame, and consumers that hold too much
    // cost dropped frames (counted), never a stalled link.
    std::uint32_t framePoolSize = 64;
    // A frame still missing blocks when a block of a frame this much newer arrives is declared
    // incomplete (the front end sends frames in order; reordering stays within a frame).
    std::uint32_t assemblyDepth = 2;
    // A frame still missing blocks after the link has been quiet this long is incomplete.
    std::chrono::milliseconds staleAfter{50};
    std::uint32_t creditBatch = 0;     // slots per credit return; 0 = slotCount / 16
    std::size_t completionBatch = 32;  // completions taken per poll
    // Check the payload of every test-pattern block (PatternTally: the link's BER), on the ingest
    // thread: a second pass over each such block. Off, test patterns are only CRC-checked.
    bool checkTestPatterns = false;
};

class IngestEngine {
public:
    [[nodiscard]] static Result<std::unique_ptr<IngestEngine>> create(transport::Link& link, IngestOptions options);
    ~IngestEngine();

    void addSink(FrameSink& sink);  // before the first poll()

    // Processes up to completionBatch completions (waiting up to timeout for the first) and
    // returns how many. An error only when the session cannot safely go on.
    [[nodiscard]] Result<std::size_t> poll(std::chrono::microseconds timeout);
    // End of stream: the front end sent blocksSent blocks of framesAcquired frames. Resolves
    // every pending sequence and frame (missing, incomplete).
    void finish(std::uint64_t blocksSent, std::uint64_t framesAcquired);

    [[nodiscard]] IngestStats stats() const noexcept;
    [[nodiscard]] LatencyHistogram::Snapshot latency() const noexcept { return latency_.snapshot(); }
    [[nodiscard]] std::vector<Rejection> recentRejections() const;
    // Frames held by consumers or in assembly (their slots are not free).
    [[nodiscard]] std::size_t framesInFlight() const noexcept;

private:
    IngestEngine(transport::Link& link, IngestOptions options);
    void handle(const transport::Completion& completion, std::uint64_t index);
    void reject(const Rejection& rejection, std::uint64_t index);
    // handle()'s rare paths: a completion without credit (fatal), a bad header, a header the
    // immediate or the stream contradicts, a bad payload.
    void refuseUncredited(std::uint64_t index);
    void rejectHeader(transport::HeaderCheck check, std::uint32_t immediate, std::uint64_t index);
    void rejectImmediateMismatch(const transport::BlockHeader& header, std::uint32_t immediate, std::uint64_t index);
    void rejectImplausible(const transport::BlockHeader& header, std::uint64_t index);
    void rejectPayload(const Rejection& rejection, std::uint16_t blockCount);
    void markSeen(std::uint64_t sequence) noexcept;
    void deliver(Frame& frame);
    void reclaim();
    Status returnCredits(bool idle);
    void release(Frame& frame);

    struct Counter {
        std::atomic<std::uint64_t> value{0};
        void add(std::uint64_t n = 1) noexcept { value.store(value.load(std::memory_order_relaxed) + n, std::memory_order_relaxed); }
        [[nodiscard]] std::uint64_t get() const noexcept { return value.load(std::memory_order_relaxed); }
    };
    struct Counters {
        Counter completions, blocksOk, bytesOk, headerErrors, payloadCrcErrors, lengthMismatches, immediateMismatches, completionErrors, creditViolations,
            sequenceGaps, duplicates, reordered, lateBlocks, inconsistentBlocks, framesDelivered, framesIncomplete, framesMissing, framesDroppedNoBuffer,
            creditsReturned, firstCompletionNs, lastCompletionNs;
        std::array<Counter, transport::kHeaderCheckCount> byCheck;
    };

    transport::Link& link_;
    IngestOptions options_;
    transport::RingView ring_;
    std::unique_ptr<FrameAssembler> assembler_;
    SequenceTracker tracker_;
    std::vector<FrameSink*> sinks_;
    std::vector<transport::Completion> completions_;
    std::vector<std::uint8_t> slotFree_;  // by completion index % slotCount
    std::vector<Frame*> delivered_;       // handed to sinks, slots still held
    std::uint64_t nextCompletion_ = 0;
    std::uint64_t creditCursor_ = 0;  // completions whose slots are free, contiguous from 0
    std::uint64_t creditsSent_ = 0;
    std::optional<Error> fatal_;
    Counters counters_;
    LatencyHistogram latency_;
    PatternTally patterns_;
    mutable std::mutex rejectionsMutex_;  // error path only
    std::array<Rejection, 16> rejections_{};
    std::uint64_t rejectionCount_ = 0;
};

}  // namespace sonolink::ingest
