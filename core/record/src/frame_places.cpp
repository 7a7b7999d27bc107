#include "frame_places.h"

#include <algorithm>
#include <iterator>

namespace sonolink::record {
namespace {

constexpr std::uint64_t kPredictSlack = 16 << 10;  // room in a predicted range for a node of the chunk index, a frame
// And more room for each frame between the one whose place is known and the one predicted: each
// may have a node of the chunk index (7,312 bytes for a 4-D data set) before or inside it, which
// shifts every frame after it. Without it, the frames staged ahead were fetched again each time a
// node was seen, twice over on average for the shipped configuration's frames.
constexpr std::uint64_t kGapPerFrame = 8 << 10;
constexpr hsize_t kPredictFrames = 8;       // predicted at most this many frames past one whose place is known
                                            // (more than are read ahead: those are not looked up)
constexpr int kMissesToStopPredicting = 3;  // frames in a row with a read that no staged range held

}  // namespace

std::pair<hsize_t, hsize_t> FramePlaces::toStage(hsize_t first, hsize_t count, hsize_t ahead, hsize_t frames) {
    const bool sequential = first == nextSequential_ && first > 0;
    const hsize_t next = std::min(ahead, frames - std::min(frames, first + count));
    nextSequential_ = first + count;
    // Frame by frame, so that a frame fetched ahead is not fetched again; a read of more frames
    // than are kept staged fetches the rest as HDF5 asks.
    return {first, std::min<hsize_t>(count + (sequential ? next : 0), kStagedRanges / 2)};
}

void FramePlaces::place(hsize_t f, ByteRange at) {
    actual_[f] = at;
    frameLength_ = frameLength_ == 0 ? at.size : std::min(frameLength_, at.size);
    while (actual_.size() > kStagedRanges) actual_.erase(actual_.begin());
}

std::optional<ByteRange> FramePlaces::predicted(hsize_t f) const {
    auto known = actual_.lower_bound(f);  // the nearest frame before f whose place is known
    if (!predict_ || known == actual_.begin() || f - std::prev(known)->first > kPredictFrames) return std::nullopt;
    const auto& [a, at] = *std::prev(known);
    const std::uint64_t k = f - a;
    const std::uint64_t start = at.offset + at.size + (k - 1) * frameLength_;  // frames of the usual length, no gaps
    if (start >= sourceBytes_) return std::nullopt;
    const std::uint64_t room = kPredictSlack + (k - 1) * kGapPerFrame;  // and room for the gaps
    return ByteRange{start, std::min(frameLength_ + room, sourceBytes_ - start)};
}

std::vector<ByteRange> FramePlaces::rangesOf(hsize_t f, const std::function<std::vector<ByteRange>()>& lookup,
                                             const std::function<std::vector<ByteRange>()>& lookupFirst) {
    if (auto it = windows_.find(f); it != windows_.end()) return it->second.ranges;
    Window window;
    if (auto guess = predicted(f)) {
        window = {{*guess}, false};
    } else if (predict_ && frameLength_ > 0) {  // a seek: from the frame's first chunk, a frame's length and room
        if (const auto first = lookupFirst(); !first.empty() && first.front().offset < sourceBytes_) {
            window = {{{first.front().offset, std::min(frameLength_ + kPredictSlack, sourceBytes_ - first.front().offset)}}, true};
        }
    }
    if (window.ranges.empty()) {
        window = {lookup(), true};
        const auto& ranges = window.ranges;
        if (!ranges.empty()) place(f, {ranges.front().offset, ranges.back().offset + ranges.back().size - ranges.front().offset});
    }
    windows_[f] = window;
    while (windows_.size() > kStagedRanges) windows_.erase(windows_.begin());
    return window.ranges;
}

void FramePlaces::learn(hsize_t first, hsize_t count, std::optional<ByteRange> span, bool missed) {
    if (!predict_) return;
    if (count == 1 && span) {
        place(first, *span);
        // Frames staged ahead on a guess that this place corrects are staged again when due: a
        // guessed window holds when it starts no later than the new guess and reaches a frame and
        // one gap past it. A window that starts where the chunk index says holds as it is.
        for (auto it = windows_.upper_bound(first); it != windows_.end();) {
            const auto guess = predicted(it->first);
            const auto& w = it->second;
            const bool holds = w.exact || (guess && w.ranges.size() == 1 && w.ranges[0].offset <= guess->offset &&
                                           guess->offset + frameLength_ + kPredictSlack <= w.ranges[0].offset + w.ranges[0].size);
            it = holds ? std::next(it) : windows_.erase(it);
        }
    }
    missesInARow_ = missed ? missesInARow_ + 1 : 0;
    if (missesInARow_ >= kMissesToStopPredicting) {
        predict_ = false;  // frames not laid out one after another: each one looked up from now on
        windows_.clear();
    }
}

}  // namespace sonolink::record
