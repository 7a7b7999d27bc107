#include "sonolink/ingest/ingest_engine.h"

#include <algorithm>

#include <fmt/format.h>

#include "frame_assembler.h"
#include "sonolink/util/assert.h"
#include "sonolink/util/crc32c.h"

namespace sonolink::ingest {
namespace {

std::uint64_t steadyNs() noexcept {
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count());
}

}  // namespace

std::string Rejection::describe() const {
    switch (reason) {
        case Reason::Header:
            return fmt::format("completion {} (sequence {} by its immediate): block header rejected: {}", completionIndex, sequence,
                               transport::describe(headerCheck));
        case Reason::PayloadCrc:
            return fmt::format("completion {} (sequence {}, frame {}): payload CRC-32C mismatch: header says 0x{:08x}, payload gives 0x{:08x}", completionIndex,
                               sequence, frameId, expected, actual);
        case Reason::LengthMismatch:
            return fmt::format("completion {} (sequence {}, frame {}): {} bytes written, the header accounts for {}", completionIndex, sequence, frameId,
                               actual, expected);
        case Reason::ImmediateMismatch:
            return fmt::format("completion {}: immediate 0x{:08x} does not match the header's sequence {} (low bits 0x{:08x})", completionIndex, actual,
                               sequence, expected);
        case Reason::CompletionError:
            return fmt::format("completion {}: the NIC reported the write failed (remote access error: wrong rkey or outside the ring)", completionIndex);
        case Reason::CreditViolation:
            return fmt::format("completion {}: written into a slot the front end held no credit for (credited through {}): ring memory may be overwritten",
                               completionIndex, expected);
    }
    return "unknown rejection";
}

IngestStats& IngestStats::operator+=(const IngestStats& o) noexcept {
    completions += o.completions;
    blocksOk += o.blocksOk;
    bytesOk += o.bytesOk;
    headerErrors += o.headerErrors;
    patterns += o.patterns;
    ringSlots += o.ringSlots;
    for (std::size_t i = 0; i < headerErrorsByCheck.size(); ++i) headerErrorsByCheck[i] += o.headerErrorsByCheck[i];
    payloadCrcErrors += o.payloadCrcErrors;
    lengthMismatches += o.lengthMismatches;
    immediateMismatches += o.immediateMismatches;
    completionErrors += o.completionErrors;
    creditViolations += o.creditViolations;
    sequenceGaps += o.sequenceGaps;
    duplicates += o.duplicates;
    reordered += o.reordered;
    lateBlocks += o.lateBlocks;
    inconsistentBlocks += o.inconsistentBlocks;
    framesDelivered += o.framesDelivered;
    framesIncomplete += o.framesIncomplete;
    framesMissing += o.framesMissing;
    framesDroppedNoBuffer += o.framesDroppedNoBuffer;
    creditsReturned += o.creditsReturned;
    if (firstCompletionNs == 0 || (o.firstCompletionNs != 0 && o.firstCompletionNs < firstCompletionNs)) firstCompletionNs = o.firstCompletionNs;
    lastCompletionNs = std::max(lastCompletionNs, o.lastCompletionNs);
    return *this;
}

Result<std::unique_ptr<IngestEngine>> IngestEngine::create(transport::Link& link, IngestOptions options) {
    if (options.maxBlocksPerFrame == 0) return fail(ErrorCode::InvalidArgument, "maxBlocksPerFrame is 0: configure the front end first");
    if (options.framePoolSize < 1 || options.completionBatch == 0) return fail(ErrorCode::InvalidArgument, "frame pool empty or completion batch 0");
    const auto ring = link.ring();
    if (ring.slotCount < 2u * options.maxBlocksPerFrame) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("a ring of {} slots cannot hold two frames of {} blocks: use more or larger slots", ring.slotCount, options.maxBlocksPerFrame));
    }
    options.framePoolSize = std::min(options.framePoolSize, ring.slotCount / options.maxBlocksPerFrame - 1);
    options.framePoolSize = std::max<std::uint32_t>(options.framePoolSize, 1);
    if (options.creditBatch == 0) options.creditBatch = std::max<std::uint32_t>(1, ring.slotCount / 16);
    return std::unique_ptr<IngestEngine>(new IngestEngine(link, options));
}

IngestEngine::IngestEngine(transport::Link& link, IngestOptions options)
    : link_(link), options_(options), ring_(link.ring()), completions_(options.completionBatch), slotFree_(ring_.slotCount, 0), patterns_(ring_.slotCount) {
    delivered_.reserve(options_.framePoolSize);
    FrameAssembler::Events events;
    events.complete = [this](Frame& frame) { deliver(frame); };
    events.incomplete = [this](Frame& frame) {
        counters_.framesIncomplete.add();
        for (std::uint16_t i = 0; i < frame.present_.size(); ++i) {
            if (frame.present_[i] != 0) slotFree_[frame.blocks_[i].completionIndex % ring_.slotCount] = 1;
        }
    };
    events.missing = [this](std::uint64_t) { counters_.framesMissing.add(); };
    events.damaged = [this](std::uint64_t) { counters_.framesIncomplete.add(); };
    events.droppedFrame = [this] { counters_.framesDroppedNoBuffer.add(); };
    assembler_ = std::make_unique<FrameAssembler>(options_.maxBlocksPerFrame, options_.framePoolSize, options_.assemblyDepth, std::move(events));
}

IngestEngine::~IngestEngine() {
    reclaim();
    SONOLINK_ASSERT(delivered_.empty(), "IngestEngine destroyed while consumers still hold frames (FrameRef)");
}

void IngestEngine::addSink(FrameSink& sink) { sinks_.push_back(&sink); }

void IngestEngine::reject(const Rejection& rejection, std::uint64_t index) {
    slotFree_[index % ring_.slotCount] = 1;
    std::lock_guard lock(rejectionsMutex_);
    rejections_[rejectionCount_++ % rejections_.size()] = rejection;
}

void IngestEngine::handle(const transport::Completion& completion, std::uint64_t index) {
    using transport::HeaderCheck;
    using Reason = Rejection::Reason;
    counters_.completions.add();
    if (index >= std::uint64_t(ring_.slotCount) + creditsSent_) return refuseUncredited(index);
    if (completion.status != transport::CompletionStatus::Ok) {
        counters_.completionErrors.add();
        return reject({Reason::CompletionError, HeaderCheck::Ok, index, 0, 0, 0, 0}, index);
    }
    const auto slot = ring_.slot(index);
    transport::BlockHeader header;
    const auto check = transport::checkBlockHeader(slot, header);
    if (check != HeaderCheck::Ok) return rejectHeader(check, completion.immediate, index);
    if (static_cast<std::uint32_t>(header.sequence) != completion.immediate) return rejectImmediateMismatch(header, completion.immediate, index);
    if (tracker_.implausible(header.sequence) || assembler_->implausible(header.frameId)) return rejectImplausible(header, index);
    if (transport::kBlockHeaderSize + header.payloadBytes != completion.byteCount) {
        counters_.lengthMismatches.add();
        return rejectPayload({Reason::LengthMismatch, HeaderCheck::Ok, index, header.sequence, header.frameId,
                              static_cast<std::uint32_t>(transport::kBlockHeaderSize + header.payloadBytes), completion.byteCount},
                             header.blockCount);
    }
    const auto payload = slot.subspan(transport::kBlockHeaderSize, header.payloadBytes);
    // A test pattern is checked whatever its CRC says: the bits that arrived, right or wrong.
    if (options_.checkTestPatterns && (header.flags & transport::block_flags::kTestPattern) != 0)
        patterns_.check(header.payloadKind, payload, static_cast<std::uint32_t>(index % ring_.slotCount));
    const auto crc = crc32c(payload);
    if (crc != header.payloadCrc) {
        counters_.payloadCrcErrors.add();
        return rejectPayload({Reason::PayloadCrc, HeaderCheck::Ok, index, header.sequence, header.frameId, header.payloadCrc, crc}, header.blockCount);
    }
    switch (tracker_.observe(header.sequence)) {
        case SequenceTracker::Verdict::Duplicate:
            counters_.duplicates.add();
            slotFree_[index % ring_.slotCount] = 1;
            return;
        case SequenceTracker::Verdict::Late:
            counters_.lateBlocks.add();
            slotFree_[index % ring_.slotCount] = 1;
            return;
        case SequenceTracker::Verdict::Reordered: counters_.reordered.add(); break;
        case SequenceTracker::Verdict::New: break;
    }
    counters_.blocksOk.add();
    counters_.bytesOk.add(header.payloadBytes);
    switch (assembler_->add(FrameBlock{header, payload, index}, completion.writtenNs)) {
        case FrameAssembler::Added::Kept: return;
        case FrameAssembler::Added::Late: counters_.lateBlocks.add(); break;
        case FrameAssembler::Added::Inconsistent: counters_.inconsistentBlocks.add(); break;
        case FrameAssembler::Added::NoBuffer: break;  // counted per frame (framesDroppedNoBuffer)
    }
    slotFree_[index % ring_.slotCount] = 1;
}

// A completion past the credits the front end holds: it wrote into ring memory that may still
// be in use. Recorded, and fatal: the link must be reset.
void IngestEngine::refuseUncredited(std::uint64_t index) {
    counters_.creditViolations.add();
    Rejection r{Rejection::Reason::CreditViolation, transport::HeaderCheck::Ok, index, 0, 0, static_cast<std::uint32_t>(creditsSent_), 0};
    {
        std::lock_guard lock(rejectionsMutex_);
        rejections_[rejectionCount_++ % rejections_.size()] = r;
    }
    fatal_ = Error(ErrorCode::DataLoss, "the front end " + r.describe() + "; the link must be reset");
}

// A block whose header failed `check`: counted by its check and rejected.
void IngestEngine::rejectHeader(transport::HeaderCheck check, std::uint32_t immediate, std::uint64_t index) {
    counters_.headerErrors.add();
    counters_.byCheck[static_cast<std::size_t>(check)].add();
    // The header is not trusted, the immediate is: the sequence counts as seen.
    const auto sequence = tracker_.widen(immediate);
    markSeen(sequence);
    reject({Rejection::Reason::Header, check, index, sequence, 0, 0, 0}, index);
}

// Header and immediate disagree: neither sequence is trusted; it shows as a gap too.
void IngestEngine::rejectImmediateMismatch(const transport::BlockHeader& header, std::uint32_t immediate, std::uint64_t index) {
    counters_.immediateMismatches.add();
    reject({Rejection::Reason::ImmediateMismatch, transport::HeaderCheck::Ok, index, header.sequence, header.frameId,
            static_cast<std::uint32_t>(header.sequence), immediate},
           index);
}

// Valid by its CRC, impossible by the stream: one block refused, the stream goes on.
void IngestEngine::rejectImplausible(const transport::BlockHeader& header, std::uint64_t index) {
    counters_.headerErrors.add();
    counters_.byCheck[static_cast<std::size_t>(transport::HeaderCheck::ImplausibleLeap)].add();
    reject({Rejection::Reason::Header, transport::HeaderCheck::ImplausibleLeap, index, header.sequence, header.frameId, 0, 0}, index);
}

// A block with a trusted header whose payload is wrong (its length or its CRC): its sequence
// counts as seen, its frame as short of it.
void IngestEngine::rejectPayload(const Rejection& rejection, std::uint16_t blockCount) {
    (void)tracker_.observe(rejection.sequence);
    assembler_->addRejected(rejection.frameId, blockCount);
    reject(rejection, rejection.completionIndex);
}

void IngestEngine::markSeen(std::uint64_t sequence) noexcept {
    // Only a sequence near the expected one: a wild value must not declare thousands missing.
    const auto expected = tracker_.expected();
    if (sequence + SequenceTracker::kWindow >= expected && sequence < expected + 2ull * ring_.slotCount) {
        (void)tracker_.observe(sequence);
    }
}

void IngestEngine::deliver(Frame& frame) {
    frame.readyNs_ = steadyNs();
    if (frame.readyNs_ > frame.lastWriteNs_) latency_.record(frame.readyNs_ - frame.lastWriteNs_);
    counters_.framesDelivered.add();
    delivered_.push_back(&frame);  // capacity = pool size: no allocation
    const FrameRef ref(&frame);
    for (auto* sink : sinks_) sink->onFrame(ref);
}

void IngestEngine::release(Frame& frame) {
    for (std::uint16_t i = 0; i < frame.blockCount_; ++i) slotFree_[frame.blocks_[i].completionIndex % ring_.slotCount] = 1;
    assembler_->recycle(frame);
}

void IngestEngine::reclaim() {
    for (std::size_t i = 0; i < delivered_.size();) {
        Frame* frame = delivered_[i];
        if (frame->refs_.load(std::memory_order_acquire) == 0) {
            release(*frame);
            delivered_[i] = delivered_.back();
            delivered_.pop_back();
        } else {
            ++i;
        }
    }
}

Status IngestEngine::returnCredits(bool idle) {
    while (creditCursor_ < nextCompletion_ && slotFree_[creditCursor_ % ring_.slotCount] != 0) {
        slotFree_[creditCursor_ % ring_.slotCount] = 0;
        ++creditCursor_;
    }
    if (creditCursor_ == creditsSent_) return {};
    if (!idle && creditCursor_ - creditsSent_ < options_.creditBatch) return {};
    auto sent = link_.returnCredits(creditCursor_);
    if (sent) {
        creditsSent_ = creditCursor_;
        counters_.creditsReturned.value.store(creditsSent_, std::memory_order_relaxed);
    }
    return {};  // a full credit lane is retried at the next poll; credits are cumulative
}

Result<std::size_t> IngestEngine::poll(std::chrono::microseconds timeout) {
    if (fatal_) return fail(*fatal_);
    const auto count = link_.pollCompletions(completions_, timeout);
    if (count > 0) {
        const auto now = steadyNs();
        if (counters_.firstCompletionNs.get() == 0) counters_.firstCompletionNs.value.store(now, std::memory_order_relaxed);
        counters_.lastCompletionNs.value.store(now, std::memory_order_relaxed);
    }
    for (std::size_t i = 0; i < count && !fatal_; ++i) handle(completions_[i], nextCompletion_++);
    counters_.sequenceGaps.value.store(tracker_.gaps(), std::memory_order_relaxed);
    if (count == 0 && assembler_->assembling() > 0) {
        assembler_->evictStale(steadyNs(), std::uint64_t(std::chrono::nanoseconds(options_.staleAfter).count()));
    }
    reclaim();
    if (auto credited = returnCredits(count < completions_.size()); !credited) return fail(std::move(credited.error()));
    if (fatal_) return fail(*fatal_);
    return count;
}

void IngestEngine::finish(std::uint64_t blocksSent, std::uint64_t framesAcquired) {
    tracker_.finish(blocksSent);
    counters_.sequenceGaps.value.store(tracker_.gaps(), std::memory_order_relaxed);
    assembler_->finish(framesAcquired);
    reclaim();
    (void)returnCredits(true);
}

std::size_t IngestEngine::framesInFlight() const noexcept { return delivered_.size() + assembler_->assembling(); }

IngestStats IngestEngine::stats() const noexcept {
    IngestStats s;
    const auto& c = counters_;
    s.completions = c.completions.get();
    s.blocksOk = c.blocksOk.get();
    s.bytesOk = c.bytesOk.get();
    s.headerErrors = c.headerErrors.get();
    for (std::size_t i = 0; i < s.headerErrorsByCheck.size(); ++i) s.headerErrorsByCheck[i] = c.byCheck[i].get();
    s.payloadCrcErrors = c.payloadCrcErrors.get();
    s.lengthMismatches = c.lengthMismatches.get();
    s.immediateMismatches = c.immediateMismatches.get();
    s.completionErrors = c.completionErrors.get();
    s.creditViolations = c.creditViolations.get();
    s.sequenceGaps = c.sequenceGaps.get();
    s.duplicates = c.duplicates.get();
    s.reordered = c.reordered.get();
    s.lateBlocks = c.lateBlocks.get();
    s.inconsistentBlocks = c.inconsistentBlocks.get();
    s.framesDelivered = c.framesDelivered.get();
    s.framesIncomplete = c.framesIncomplete.get();
    s.framesMissing = c.framesMissing.get();
    s.framesDroppedNoBuffer = c.framesDroppedNoBuffer.get();
    s.creditsReturned = c.creditsReturned.get();
    s.firstCompletionNs = c.firstCompletionNs.get();
    s.lastCompletionNs = c.lastCompletionNs.get();
    s.patterns = patterns_.counts();
    s.ringSlots = patterns_.ringSlots();
    return s;
}

std::vector<Rejection> IngestEngine::recentRejections() const {
    std::lock_guard lock(rejectionsMutex_);
    std::vector<Rejection> out;
    const auto n = std::min<std::uint64_t>(rejectionCount_, rejections_.size());
    for (std::uint64_t i = rejectionCount_ - n; i < rejectionCount_; ++i) out.push_back(rejections_[i % rejections_.size()]);
    return out;
}

}  // namespace sonolink::ingest
