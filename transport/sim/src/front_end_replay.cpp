// FrontEndSimulator's replay: the frames of a FrameSource (e.g. a recording) sent instead of the
// phantom, from a few buffers refilled as frames are sent, or read once when all of them fit.
#include <algorithm>

#include <fmt/format.h>

#include "sonolink/transport/sim/front_end_simulator.h"

namespace sonolink::transport::sim {

// The replay's buffers: every frame of the source when they fit the pre-generation budget (read
// once), else a few, refilled as frames are sent (loadReplayFrame).
Status FrontEndSimulator::prepareReplay() {
    auto count = options_.frameSource->frameCount(configure_, layout_);
    if (!count) return fail(std::move(count.error()).addContext("loading the frames to replay"));
    if (*count == 0) return fail(ErrorCode::InvalidArgument, "the replay source has no frames");
    constexpr std::size_t kStreamingBuffers = 4;
    const bool whole = std::uint64_t(*count) * layout_.frameBytes <= options_.replayResidentBytes;
    variants_.assign(whole ? *count : std::min<std::size_t>(*count, kStreamingBuffers), std::vector<std::byte>(layout_.frameBytes));
    replayHeld_.assign(variants_.size(), 0);
    variantLastWrite_.assign(variants_.size(), 0);
    for (std::size_t v = 0; v < variants_.size(); ++v) {
        if (auto ok = options_.frameSource->readFrame(static_cast<std::uint32_t>(v), variants_[v]); !ok) {
            return fail(std::move(ok.error()).addContext(fmt::format("reading frame {} to replay", v)));
        }
        replayHeld_[v] = static_cast<std::uint32_t>(v);
    }
    replayFrames_ = *count;
    resident_ = false;
    return {};
}

// Before the index-th frame of its kind is sent from variant: the source frame it needs, read
// into the buffer once every write from that buffer has completed (one wait covers every buffer
// sent before it).
Status FrontEndSimulator::loadReplayFrame(std::size_t variant, std::uint64_t index) {
    if (replayFrames_ == 0) return {};
    const auto wanted = static_cast<std::uint32_t>(index % replayFrames_);
    if (replayHeld_[variant] == wanted) return {};
    if (writesCompleteThrough_ < variantLastWrite_[variant]) {
        if (auto ok = port_.awaitWrites(); !ok) return ok;
        pendingDoorbell_ = 0;
        writesCompleteThrough_ = counters_.writes;
    }
    if (auto ok = options_.frameSource->readFrame(wanted, variants_[variant]); !ok) {
        return fail(std::move(ok.error()).addContext(fmt::format("reading frame {} to replay", wanted)));
    }
    replayHeld_[variant] = wanted;
    computeCrcs(variant);
    return {};
}

}  // namespace sonolink::transport::sim
