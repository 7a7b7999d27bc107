// FrameJoiner: the aggregator's bookkeeping. It joins the hosts' partials by trigger sequence,
// emits each frame in trigger order once every host's part is in, or once its deadline (from the
// first part's arrival) has passed, flagged with the hosts it lacks or dropped, by policy. It
// refuses parts of another plan or epoch and counts everything: complete, incomplete, dropped,
// never seen, late, duplicate, refused. A frame is complete only with all N parts. It sums each
// frame's parts in host order as they come (a part is added once every host before it is in), so
// that little is left to add when the last one arrives; the sum is sumInHostOrder's, to the bit.
// Thread contract: not thread-safe; one owner (the coordinator's progress thread) drives it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sonolink/cluster/partial_image.h"

namespace sonolink::cluster {

enum class IncompletePolicy { ShowFlagged, Drop };

struct JoinerOptions {
    std::size_t hosts = 1;
    std::int64_t deadlineNs = 200'000'000;  // from a frame's first part in
    IncompletePolicy policy = IncompletePolicy::ShowFlagged;
    std::size_t mostFramesOpen = 64;  // past this the oldest frame is emitted as it is
};

struct JoinedFrame {
    std::uint64_t triggerSequence = 0;
    std::uint32_t epoch = 0;
    bool complete = false;
    std::vector<std::uint16_t> missingHosts;  // ascending
    std::vector<float> sum;                   // the parts that came, summed in host order
    std::int64_t firstInNs = 0;
    std::int64_t lastInNs = 0;  // the last part's arrival
};

struct HostTally {
    std::uint64_t partials = 0;  // accepted
    std::uint64_t missing = 0;   // emitted frames without this host's part
    std::uint64_t refused = 0;
    std::uint64_t late = 0;
};

struct JoinerCounts {
    std::uint64_t complete = 0;
    std::uint64_t incomplete = 0;  // shown, flagged
    std::uint64_t dropped = 0;     // incomplete, dropped by policy
    std::uint64_t neverSeen = 0;   // triggers between emitted frames with no part at all
    std::uint64_t late = 0;        // parts of a frame already emitted
    std::uint64_t duplicate = 0;
    std::uint64_t refused = 0;  // another plan or epoch, a host or shape not in the plan
    std::vector<HostTally> hosts;
};

class FrameJoiner {
public:
    FrameJoiner(JoinerOptions options, std::uint64_t planHash, std::size_t partialValues);

    // From trigger `fromTrigger` on, parts must carry this plan and epoch (a new plan or a rejoin).
    void beginEpoch(std::uint64_t planHash, std::uint32_t epoch, std::uint64_t fromTrigger, std::size_t partialValues);
    // Takes one checked part; returns the frames it lets go (in trigger order). A refused part
    // leaves its reason in lastRefusal().
    [[nodiscard]] std::vector<JoinedFrame> offer(const PartialHeader& header, std::vector<float> values, std::int64_t nowNs);
    // The frames whose deadline has passed by nowNs, and any complete ones behind them.
    [[nodiscard]] std::vector<JoinedFrame> expire(std::int64_t nowNs);
    // The next deadline, or INT64_MAX with no frame open.
    [[nodiscard]] std::int64_t nextDeadlineNs() const noexcept;

    [[nodiscard]] const JoinerCounts& counts() const noexcept { return counts_; }
    [[nodiscard]] const std::string& lastRefusal() const noexcept { return lastRefusal_; }
    [[nodiscard]] std::size_t framesOpen() const noexcept { return open_.size(); }
    // The triggers of the first and the last frame let go (complete, incomplete or dropped): the
    // counts add up to lastEmitted - firstEmitted + 1. Both 0 before the first.
    [[nodiscard]] std::uint64_t firstEmitted() const noexcept { return firstEmitted_; }
    [[nodiscard]] std::uint64_t lastEmitted() const noexcept { return lastEmitted_; }

private:
    struct Epoch {
        std::uint64_t fromTrigger;
        std::uint64_t planHash;
        std::uint32_t epoch;
        std::size_t partialValues;
    };
    struct OpenFrame {
        JoinedFrame frame;
        std::vector<std::vector<float>> waiting;  // parts in, not yet added: a host before them is not
        std::vector<bool> in;
        std::size_t partsIn = 0;
        std::size_t added = 0;  // hosts 0 .. added - 1 are in the sum
        void add(std::vector<float>& part);
        void addInOrder();  // every part whose hosts before it are all in
        void addTheRest();  // at the end: every part in, missing hosts skipped
    };
    [[nodiscard]] const Epoch& epochFor(std::uint64_t trigger) const noexcept;
    [[nodiscard]] bool refuse(const PartialHeader& header, std::size_t values);
    void emitFront(std::vector<JoinedFrame>& out);
    void release(std::int64_t nowNs, std::vector<JoinedFrame>& out);

    JoinerOptions options_;
    std::vector<Epoch> epochs_;  // ascending fromTrigger
    std::map<std::uint64_t, OpenFrame> open_;
    bool anyEmitted_ = false;
    std::uint64_t firstEmitted_ = 0;
    std::uint64_t lastEmitted_ = 0;
    JoinerCounts counts_;
    std::string lastRefusal_;
};

}  // namespace sonolink::cluster
