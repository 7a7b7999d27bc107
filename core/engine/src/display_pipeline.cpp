#include "display_pipeline.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

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

DisplayPipeline::DisplayPipeline(const record::UffChannelData& geometry, ImagingSetup imaging, std::size_t cineFrames)
    : geometry_(geometry), imaging_(std::move(imaging)), cineFrames_(std::max<std::size_t>(cineFrames, 1)) {
    geometry_.data16.clear();
    geometry_.dataFloat.clear();
    samples_.resize(static_cast<std::size_t>(geometry_.waves) * static_cast<std::size_t>(geometry_.channels) * static_cast<std::size_t>(geometry_.samples));
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
    std::erase_if(channels, [&](int c) { return c < 0 || c >= geometry_.channels; });
    std::lock_guard lock(mutex_);
    rfChannels_ = std::move(channels);
}

std::vector<std::shared_ptr<const DisplayFrame>> DisplayPipeline::cine() const {
    std::lock_guard lock(mutex_);
    return {cine_.begin(), cine_.end()};
}

Status DisplayPipeline::gather(const ingest::Frame& frame) {
    // Gather the blocks (each a wave's channel x sample tile) into waves x channels x samples.
    const auto channels = static_cast<std::size_t>(geometry_.channels), samples = static_cast<std::size_t>(geometry_.samples);
    for (std::uint16_t b = 0; b < frame.blockCount(); ++b) {
        const auto& block = frame.block(b);
        const auto& h = block.header;
        if (h.waveIndex >= geometry_.waves || h.firstChannel + h.channelCount > channels || h.firstSample + h.sampleCount > samples ||
            block.payload.size() != static_cast<std::size_t>(h.channelCount) * h.sampleCount * 2) {
            return fail(ErrorCode::InvalidArgument, fmt::format("frame {}: block {} does not fit the configured geometry", frame.frameId(), b));
        }
        for (std::size_t c = 0; c < h.channelCount; ++c) {
            std::memcpy(&samples_[(h.waveIndex * channels + h.firstChannel + c) * samples + h.firstSample],
                        block.payload.data() + c * h.sampleCount * 2, h.sampleCount * 2);
        }
    }
    return {};
}

void DisplayPipeline::run() {
    nameCurrentThread("bf-cpu");
    const auto& g = geometry_;
    beamform::ChannelDataView view;
    view.samples16 = samples_;
    view.waves = g.waves;
    view.channels = g.channels;
    view.samplesPerChannel = g.samples;
    view.samplingRateHz = g.samplingFrequencyHz;
    view.initialTimeS = g.initialTimeS;
    view.soundSpeedMps = g.soundSpeedMps;
    view.elementX = g.elementX;
    view.angleRad = g.angleRad;
    view.sourceDistance = g.sourceDistance;
    const auto& grid = imaging_.grid;
    const double cmX = grid.x.size() > 1 ? std::abs(grid.x.back() - grid.x.front()) * 100 / static_cast<double>(grid.x.size() - 1) : 0;
    const double cmZ = grid.z.size() > 1 ? std::abs(grid.z.back() - grid.z.front()) * 100 / static_cast<double>(grid.z.size() - 1) : 0;
    while (true) {
        ingest::FrameRef frame;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [&] { return stopping_ || pending_; });
            if (stopping_) return;
            frame = std::move(pending_);
            busy_ = true;
        }
        const auto frameId = frame->frameId();
        const auto readyNs = frame->readyNs();
        auto gathered = gather(*frame);
        frame = {};  // the ring slots go back before the long part
        std::vector<int> rfChannels;
        std::uint64_t session = 0;
        {
            std::lock_guard lock(mutex_);
            rfChannels = rfChannels_;
            session = session_;
        }
        if (gathered && !rfChannels.empty()) {
            auto rf = std::make_shared<RfLines>();
            rf->session = session;
            rf->frameId = frameId;
            rf->channels = rfChannels;
            rf->samplesPerChannel = g.samples;
            for (int c : rfChannels) {
                const auto* trace = view.trace<std::int16_t>(0, c);
                rf->samples.insert(rf->samples.end(), trace, trace + g.samples);
            }
            latestRf_.store(std::move(rf));
        }
        std::shared_ptr<DisplayFrame> image;
        if (gathered) {
            auto rf = beamform::delayAndSum(view, grid, imaging_.params, imaging_.beamformThreads);
            if (rf) {
                beamform::envelopeAlongDepth(*rf, imaging_.beamformThreads);
                const auto db = beamform::logCompress(rf->rowMajor(), imaging_.dynamicRangeDb, imaging_.gainDb);
                image = std::make_shared<DisplayFrame>();
                image->frameId = frameId;
                image->rows = static_cast<int>(grid.z.size());
                image->columns = static_cast<int>(grid.x.size());
                image->cmPerPixelX = cmX;
                image->cmPerPixelY = cmZ;
                image->pixels.reserve(db.size());
                for (float v : db) {
                    image->pixels.push_back(static_cast<std::uint8_t>(std::lround(std::clamp((v + imaging_.dynamicRangeDb) / imaging_.dynamicRangeDb, 0.0, 1.0) * 255)));
                }
            } else {
                log::warn(logCategory(), "frame {} not beamformed: {}", frameId, rf.error().message());
            }
        } else {
            log::warn(logCategory(), "{}", gathered.error().message());
        }
        std::lock_guard lock(mutex_);
        busy_ = false;
        idle_.notify_all();
        if (!image || frozen_) continue;
        if (anyPublished_ && frameId <= lastFrameId_) continue;  // never backwards, never twice
        image->session = session_;
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
