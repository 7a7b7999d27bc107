#include "display_pipeline.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <utility>

#include <fmt/format.h>

#include "cpu_imager.h"
#include "sonolink/beamform/cpu_beamformer.h"
#include "sonolink/util/log.h"
#include "sonolink/util/thread_affinity.h"

namespace sonolink::engine {
namespace {

std::uint64_t steadyNs() {
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count());
}

log::Category& logCategory() {
    static auto& category = log::category("engine");
    return category;
}

}  // namespace

DisplayPipeline::DisplayPipeline(const beamform::AcquisitionGeometry& geometry, ImagingSetup imaging, std::size_t cineFrames,
                                 std::unique_ptr<FrameImager> imager, FailureHandler onFailure)
    : geometry_(geometry), imaging_(std::move(imaging)), cineFrames_(std::max<std::size_t>(cineFrames, 1)), imager_(std::move(imager)),
      onFailure_(std::move(onFailure)) {
    announce_ = imager_ != nullptr;  // none given: a display nobody shows (a headless command), not announced
    if (!imager_) imager_ = std::make_unique<CpuImager>(geometry_, imaging_);
    imagerName_ = imager_->name();
    thread_ = std::thread([this] { run(); });
}

DisplayPipeline::~DisplayPipeline() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        pending_ = {};
    }
    wake_.notify_all();
    thread_.join();
}

void DisplayPipeline::onFrame(const ingest::FrameRef& frame) noexcept {
    ingest::FrameRef replaced;  // let go outside the lock
    {
        std::lock_guard lock(mutex_);
        if (stopping_) return;
        if (frozen_) return;  // the user is reviewing: nothing to draw
        if (pending_) {
            replaced = std::move(pending_);
            skipped_.fetch_add(1, std::memory_order_relaxed);
        }
        pending_ = frame;
    }
    wake_.notify_one();
}

void DisplayPipeline::release() {
    std::unique_lock lock(mutex_);
    pending_ = {};
    idle_.wait(lock, [&] { return !busy_; });
}

void DisplayPipeline::setFrozen(bool frozen) {
    ingest::FrameRef dropped;
    std::lock_guard lock(mutex_);
    frozen_ = frozen;
    if (frozen) dropped = std::move(pending_);
}

void DisplayPipeline::newSession(std::uint64_t session) {
    std::lock_guard lock(mutex_);
    session_ = session;
    anyPublished_ = false;
}

void DisplayPipeline::setRfChannels(std::vector<int> channels) {
    std::lock_guard lock(mutex_);
    const int count = next_ ? next_->geometry.channels : geometry_.channels;
    std::erase_if(channels, [&](int c) { return c < 0 || c >= count; });
    rfChannels_ = std::move(channels);
}

void DisplayPipeline::reconfigure(const beamform::AcquisitionGeometry& geometry, ImagingSetup imaging, std::unique_ptr<FrameImager> imager) {
    Reconfiguration next{geometry, std::move(imaging), std::move(imager)};
    std::optional<Reconfiguration> replaced;  // an older one never applied goes outside the lock
    std::lock_guard lock(mutex_);
    replaced = std::move(next_);
    next_ = std::move(next);
}

std::string DisplayPipeline::imagerName() const {
    std::lock_guard lock(mutex_);
    return imagerName_;
}

void DisplayPipeline::apply(Reconfiguration next) {
    std::unique_ptr<FrameImager> old;  // destroyed on this thread, the one that used it
    if (next.imager) old = std::exchange(imager_, std::move(next.imager));
    imaging_ = std::move(next.imaging);
    nameCurrentThread(imager_->name() == "CPU" ? "bf-cpu" : "bf-gpu");
    std::lock_guard lock(mutex_);
    geometry_ = std::move(next.geometry);
    imagerName_ = imager_->name();
    std::erase_if(rfChannels_, [&](int c) { return c >= geometry_.channels; });
}

std::vector<std::shared_ptr<const DisplayFrame>> DisplayPipeline::cine() const {
    std::lock_guard lock(mutex_);
    return {cine_.begin(), cine_.end()};
}

std::shared_ptr<RfLines> DisplayPipeline::rfLines(const ingest::Frame& frame, const std::vector<int>& channels) const {
    auto rf = std::make_shared<RfLines>();
    rf->frameId = frame.frameId();
    rf->channels = channels;
    rf->samplesPerChannel = geometry_.samples;
    rf->samples.assign(channels.size() * static_cast<std::size_t>(geometry_.samples), 0);
    for (std::uint16_t b = 0; b < frame.blockCount(); ++b) {  // the first transmit's blocks, straight from the ring
        if (!checkBlockFits(frame, b, geometry_)) continue;
        const auto& block = frame.block(b);
        const auto& h = block.header;
        if (h.waveIndex != 0) continue;
        for (std::size_t k = 0; k < channels.size(); ++k) {
            const int c = channels[k];
            if (c < h.firstChannel || c >= h.firstChannel + h.channelCount) continue;
            std::memcpy(&rf->samples[k * static_cast<std::size_t>(geometry_.samples) + h.firstSample],
                        block.payload.data() + static_cast<std::size_t>(c - h.firstChannel) * h.sampleCount * 2, h.sampleCount * 2);
        }
    }
    return rf;
}

// The 8-bit, calibrated image of an envelope on the grid.
std::shared_ptr<DisplayFrame> DisplayPipeline::image(const beamform::BeamformedImage& envelope, std::uint32_t frameId) const {
    const auto& grid = imaging_.grid;
    const auto db = beamform::logCompress(envelope.rowMajor(), imaging_.dynamicRangeDb, imaging_.gainDb);
    auto image = std::make_shared<DisplayFrame>();
    image->frameId = frameId;
    image->rows = static_cast<int>(grid.z.size());
    image->columns = static_cast<int>(grid.x.size());
    image->cmPerPixelX = grid.x.size() > 1 ? std::abs(grid.x.back() - grid.x.front()) * 100 / static_cast<double>(grid.x.size() - 1) : 0;
    image->cmPerPixelY = grid.z.size() > 1 ? std::abs(grid.z.back() - grid.z.front()) * 100 / static_cast<double>(grid.z.size() - 1) : 0;
    image->pixels.reserve(db.size());
    for (float v : db) {
        image->pixels.push_back(static_cast<std::uint8_t>(std::lround(std::clamp((v + imaging_.dynamicRangeDb) / imaging_.dynamicRangeDb, 0.0, 1.0) * 255)));
    }
    return image;
}

void DisplayPipeline::run() {
    nameCurrentThread(imager_->name() == "CPU" ? "bf-cpu" : "bf-gpu");
    if (announce_) log::info(logCategory(), "display beamforming on the {}", imager_->name());
    std::string escaped;
    try {
        loop();
        return;
    } catch (const std::exception& e) {
        escaped = e.what();
    } catch (...) {
        escaped = "an exception that is not a std::exception";
    }
    {
        std::lock_guard lock(mutex_);  // no frame is held any more: release() must not wait for one
        busy_ = false;
        pending_ = {};
        stopping_ = true;
        idle_.notify_all();
    }
    if (onFailure_) onFailure_("the display stopped: " + escaped);
}

void DisplayPipeline::loop() {
    while (true) {
        ingest::FrameRef frame;
        std::vector<int> rfChannels;
        std::uint64_t session = 0;
        std::optional<Reconfiguration> next;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [&] { return stopping_ || pending_; });
            if (stopping_) return;
            frame = std::move(pending_);
            busy_ = true;
            session = session_;
            next = std::move(next_);
            next_.reset();
        }
        if (next) apply(std::move(*next));
        {
            std::lock_guard lock(mutex_);
            rfChannels = rfChannels_;
        }
        const auto frameId = frame->frameId();
        const auto readyNs = frame->readyNs();
        if (!rfChannels.empty()) {
            auto rf = rfLines(*frame, rfChannels);
            rf->session = session;
            latestRf_.store(std::move(rf));
        }
        const auto imagingStart = steadyNs();
        auto loaded = imager_->load(*frame);
        frame = {};  // the ring slots go back before the long part
        std::shared_ptr<DisplayFrame> image;
        auto envelope = loaded ? imager_->envelope() : Result<beamform::BeamformedImage>(fail(std::move(loaded.error())));
        imagerNs_.fetch_add(steadyNs() - imagingStart, std::memory_order_relaxed);
        imaged_.fetch_add(1, std::memory_order_relaxed);
        if (envelope) {
            image = this->image(*envelope, frameId);
        } else if (imagingFailures_.fetch_add(1, std::memory_order_relaxed) == 0 && onFailure_) {  // counted; said once
            onFailure_(fmt::format("frame {} not imaged: {} (later failures are counted, not reported)", frameId, envelope.error().message()));
        }
        std::lock_guard lock(mutex_);
        busy_ = false;
        idle_.notify_all();
        if (!image || frozen_ || session != session_) continue;  // frozen meanwhile, or a frame of a closed session
        if (anyPublished_ && frameId <= lastFrameId_) continue;  // never backwards, never twice
        image->session = session;
        image->readyNs = steadyNs();
        image->latencyUs = static_cast<double>(image->readyNs - readyNs) / 1e3;
        latency_.record(image->readyNs - readyNs);
        lastFrameId_ = frameId;
        anyPublished_ = true;
        cine_.push_back(image);
        if (cine_.size() > cineFrames_) cine_.pop_front();
        latest_.store(image);
        displayed_.fetch_add(1, std::memory_order_relaxed);
    }
}

}  // namespace sonolink::engine
