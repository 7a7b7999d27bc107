#include "display_pipeline.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <utility>

#include <fmt/format.h>

#include "cpu_imager.h"
#include "sonolink/beamform/cpu_beamformer.h"
#include "sonolink/ingest/clock_offset.h"
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

image::GreySettings greySettingsOf(const ImagingSettings& s) {
    const auto map = s.greyMap == GreyMap::Soft ? image::GreyMap::Soft : s.greyMap == GreyMap::Contrast ? image::GreyMap::Contrast : image::GreyMap::Linear;
    return {s.tgcDb, s.gainDb, s.dynamicRangeDb, s.persistence, map};
}

}  // namespace

DisplayPipeline::DisplayPipeline(const beamform::AcquisitionGeometry& geometry, ImagingSetup imaging, std::size_t cineFrames,
                                 std::unique_ptr<FrameImager> imager, FailureHandler onFailure)
    : geometry_(geometry), imaging_(std::move(imaging)), cineFrames_(std::max<std::size_t>(cineFrames, 1)), imager_(std::move(imager)),
      onFailure_(std::move(onFailure)) {
    photoacoustic_ = geometry_.isShot();
    announce_ = imager_ != nullptr;  // none given: a display nobody shows (a headless command), not announced
    if (!imager_) imager_ = std::make_unique<CpuImager>(geometry_, imaging_);
    {
        MutexLock lock(mutex_);  // no thread runs yet
        imagerName_ = imager_->name();
        pictureWanted_ = {imaging_.settings, imaging_.normaliseShotEnergy};
    }
    preparePicture(imaging_.grid);
    thread_ = std::thread([this] { run(); });
}

DisplayPipeline::~DisplayPipeline() {
    {
        MutexLock lock(mutex_);
        stopping_ = true;
        pending_ = {};
    }
    wake_.notify_all();
    thread_.join();
}

void DisplayPipeline::onFrame(const ingest::FrameRef& frame) noexcept {
    if (frame->isPhotoacoustic() != photoacoustic_.load(std::memory_order_relaxed)) return;  // the other kind's
    if (frame->isPhotoacoustic() && frame->block(0).header.laserEnergyMicroJ == 0) {         // no pulse: nothing to image
        darkShots_.fetch_add(1, std::memory_order_relaxed);
        return;
    }
    ingest::FrameRef replaced;  // let go outside the lock
    {
        MutexLock lock(mutex_);
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
    UniqueLock lock(mutex_);
    pending_ = {};
    while (busy_) idle_.wait(lock.native());
}

void DisplayPipeline::setFrozen(bool frozen) {
    ingest::FrameRef dropped;
    MutexLock lock(mutex_);
    frozen_ = frozen;
    if (frozen) dropped = std::move(pending_);
}

void DisplayPipeline::forgetPictures() {
    std::deque<std::shared_ptr<const DisplayFrame>> gone;  // let go outside the lock
    MutexLock lock(mutex_);
    gone.swap(cine_);
    latest_.store(nullptr);
}

void DisplayPipeline::newSession(std::uint64_t session) {
    MutexLock lock(mutex_);
    session_ = session;
    anyPublished_ = false;
}

void DisplayPipeline::setRfChannels(std::vector<int> channels) {
    MutexLock lock(mutex_);
    const int count = next_ ? next_->geometry.channels : geometry_.channels;
    std::erase_if(channels, [&](int c) { return c < 0 || c >= count; });
    rfChannels_ = std::move(channels);
}

void DisplayPipeline::reconfigure(const beamform::AcquisitionGeometry& geometry, ImagingSetup imaging, std::unique_ptr<FrameImager> imager) {
    photoacoustic_ = geometry.isShot();
    Reconfiguration next{geometry, std::move(imaging), std::move(imager)};
    std::optional<Reconfiguration> replaced;  // an older one never applied goes outside the lock
    MutexLock lock(mutex_);
    replaced = std::move(next_);
    // A change of the picture only that overtakes one not yet applied which brought an imager (a
    // new depth, then a new gain, before a frame came): that imager is the one for this grid;
    // without it the old one would be asked to image on the new grid and refuse every frame.
    if (!next.imager && replaced && replaced->imager) next.imager = std::move(replaced->imager);
    next_ = std::move(next);
}

void DisplayPipeline::changePicture(const ImagingSetup& imaging) {
    {
        MutexLock lock(mutex_);
        pictureWanted_ = {imaging.settings, imaging.normaliseShotEnergy};
        if (next_) {  // applied with it, on its grid
            next_->imaging.settings = imaging.settings;
            next_->imaging.normaliseShotEnergy = imaging.normaliseShotEnergy;
            return;
        }
    }
    pictures_.submit([this] { preparePicture(pictureGrid_); });
}

std::string DisplayPipeline::imagerName() const {
    MutexLock lock(mutex_);
    return imagerName_;
}

void DisplayPipeline::apply(Reconfiguration next) {
    std::unique_ptr<FrameImager> old;  // destroyed on this thread, the one that used it
    if (next.imager) old = std::exchange(imager_, std::move(next.imager));
    imaging_ = std::move(next.imaging);
    pictures_.submit([this, grid = imaging_.grid] { preparePicture(grid); });
    nameCurrentThread(imager_->name() == "CPU" ? "bf-cpu" : "bf-gpu");
    // Lossy by design (a newer frame replaces one not yet imaged): under contention the link and
    // the GUI come first.
    yieldCurrentThreadToInteractive(kThroughputWorkNice);
    MutexLock lock(mutex_);
    geometry_ = std::move(next.geometry);
    imagerName_ = imager_->name();
    std::erase_if(rfChannels_, [&](int c) { return c >= geometry_.channels; });
}

std::vector<std::shared_ptr<const DisplayFrame>> DisplayPipeline::cine() const {
    MutexLock lock(mutex_);
    return {cine_.begin(), cine_.end()};
}

std::shared_ptr<RfLines> DisplayPipeline::rfLines(const ingest::Frame& frame, const std::vector<int>& channels) const {
    auto rf = std::make_shared<RfLines>();
    rf->frameId = frame.frameId();
    rf->channels = channels;
    rf->samplesPerChannel = geometry_.samples;
    rf->samplingRateHz = geometry_.samplingRateHz;
    rf->initialTimeUs = geometry_.initialTimeS * 1e6;
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

void DisplayPipeline::preparePicture(const beamform::PixelGrid& grid) {
    PictureWanted wanted;
    {
        MutexLock lock(mutex_);
        wanted = pictureWanted_;
    }
    const auto& settings = wanted.settings;
    pictureNormaliseShots_ = wanted.normaliseShots;
    if (&grid != &pictureGrid_) pictureGrid_ = grid;
    pictureColumns_ = grid.x.size();
    pictureRows_ = grid.z.size();
    pictureSettings_ = settings;
    auto resampler = image::displayResampler(grid.x, grid.z, settings.displayColumns, settings.displayRows);
    if (!resampler) {
        chain_.reset();
        pictureError_ = resampler.error();
        return;
    }
    pictureError_.reset();
    if (chain_ && chain_->raster() == resampler->raster()) {
        chain_->setSettings(greySettingsOf(settings));  // what persistence holds stays
    } else {
        chain_.emplace(std::move(*resampler), greySettingsOf(settings));
    }
}

// The 8-bit, calibrated picture of an envelope on the grid.
Result<std::shared_ptr<DisplayFrame>> DisplayPipeline::picture(const beamform::BeamformedImage& envelope, std::uint32_t frameId, float referencePeak) {
    if (!chain_) return fail(Error(*pictureError_));
    if (envelope.nx != pictureColumns_ || envelope.nz != pictureRows_) {
        return fail(ErrorCode::Internal,
                    fmt::format("the imager gave {} x {} pixels for a {} x {} grid", envelope.nx, envelope.nz, pictureColumns_, pictureRows_));
    }
    const auto& raster = chain_->raster();
    auto picture = std::make_shared<DisplayFrame>();
    picture->frameId = frameId;
    picture->rows = raster.rows;
    picture->columns = raster.columns;
    picture->cmPerPixelX = picture->cmPerPixelY = raster.metresPerPixel * 100;
    picture->xStartCm = raster.xStartM * 100;
    picture->zStartCm = raster.zStartM * 100;
    picture->imaging = pictureSettings_;
    picture->pixels.resize(static_cast<std::size_t>(raster.rows) * static_cast<std::size_t>(raster.columns));
    chain_->process(envelope.columns, picture->pixels, referencePeak);
    return picture;
}

void DisplayPipeline::countFailure(std::uint32_t frameId, const Error& error) {
    if (imagingFailures_.fetch_add(1, std::memory_order_relaxed) == 0 && onFailure_) {  // counted; said once
        onFailure_(fmt::format("frame {} not imaged: {} (later failures are counted, not reported)", frameId, error.message()));
    }
}

// A shot's envelope as if its pulse had the session's mean energy (when asked), and the session's
// first shot's peak as 0 dB for every shot: a shot's brightness follows its signal.
void DisplayPipeline::normaliseShot(beamform::BeamformedImage& envelope, std::uint32_t energyMicroJ) {
    ++shotsSeen_;
    meanShotEnergy_ += (energyMicroJ - meanShotEnergy_) / static_cast<double>(shotsSeen_);
    if (pictureNormaliseShots_ && energyMicroJ != 0) {
        const auto scale = static_cast<float>(meanShotEnergy_ / energyMicroJ);
        for (auto& v : envelope.columns) v *= scale;
    }
    if (shotReferencePeak_ <= 0) {
        for (float v : envelope.columns) shotReferencePeak_ = std::max(shotReferencePeak_, std::abs(v));
    }
}

void DisplayPipeline::drawAndPublish(beamform::BeamformedImage& envelope, const FrameFacts& facts) {
    const auto session = facts.session;
    const auto frameId = facts.frameId;
    if (session != pictureSession_) {
        if (chain_) chain_->reset();  // persistence never blends two sessions
        meanShotEnergy_ = 0;
        shotsSeen_ = 0;
        shotReferencePeak_ = 0;
    }
    pictureSession_ = session;
    if (facts.photoacoustic) normaliseShot(envelope, facts.laserEnergyMicroJ);
    auto drawn = picture(envelope, frameId, facts.photoacoustic ? shotReferencePeak_ : 0.0f);
    if (!drawn) return countFailure(frameId, drawn.error());
    auto& image = *drawn;
    MutexLock lock(mutex_);
    if (frozen_ || session != session_) return;            // frozen meanwhile, or a frame of a closed session
    if (anyPublished_ && frameId <= lastFrameId_) return;  // never backwards, never twice
    image->session = session;
    image->readyNs = steadyNs();
    image->latencyUs = static_cast<double>(image->readyNs - facts.readyNs) / 1e3;
    image->photoacoustic = facts.photoacoustic;
    image->timestampNs = facts.timestampNs;
    image->laserEnergyMicroJ = facts.laserEnergyMicroJ;
    image->incompleteAperture = facts.incompleteAperture;
    latency_.record(image->readyNs - facts.readyNs);
    if (facts.photoacoustic) {  // the pulse (front end clock) to now, on the same clock
        const auto shown = static_cast<std::int64_t>(ingest::hostRealtimeNs()) + clockOffsetNs_.load(std::memory_order_relaxed);
        const auto since = shown - static_cast<std::int64_t>(facts.timestampNs);
        if (since > 0) shotLatency_.record(static_cast<std::uint64_t>(since));
    }
    lastFrameId_ = frameId;
    anyPublished_ = true;
    cine_.push_back(image);
    if (cine_.size() > cineFrames_) cine_.pop_front();
    latest_.store(image);
    displayed_.fetch_add(1, std::memory_order_relaxed);
}

void DisplayPipeline::showJoined(JoinedImage image) {
    {
        MutexLock lock(mutex_);
        if (stopping_ || frozen_) return;
        if (joinedWaiting_) skipped_.fetch_add(1, std::memory_order_relaxed);
        joinedWaiting_ = std::move(image);
        if (joinedDrawing_) return;
        joinedDrawing_ = true;
    }
    (void)pictures_.submit([this] { drawJoined(); });
}

void DisplayPipeline::drawJoined() {
    for (;;) {
        std::optional<JoinedImage> next;
        std::uint64_t session = 0;
        {
            MutexLock lock(mutex_);
            next = std::exchange(joinedWaiting_, std::nullopt);
            if (!next) {
                joinedDrawing_ = false;
                return;
            }
            session = session_;
        }
        try {  // what escapes one image is counted and said once, and the next is drawn (nobody waits on this future)
            if (next->grid.x != pictureGrid_.x || next->grid.z != pictureGrid_.z) preparePicture(next->grid);
            const FrameFacts facts{static_cast<std::uint32_t>(next->triggerSequence), session, next->readyNs, 0, 0, false, std::move(next->incompleteAperture)};
            drawAndPublish(next->envelope, facts);
        } catch (const std::exception& e) {
            countFailure(static_cast<std::uint32_t>(next->triggerSequence), Error(ErrorCode::Internal, e.what()));
        }
    }
}

void DisplayPipeline::run() {
    nameCurrentThread(imager_->name() == "CPU" ? "bf-cpu" : "bf-gpu");
    // Lossy by design (a newer frame replaces one not yet imaged): under contention the link and
    // the GUI come first.
    yieldCurrentThreadToInteractive(kThroughputWorkNice);
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
        MutexLock lock(mutex_);  // no frame is held any more: release() must not wait for one
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
        std::uint64_t session = 0;
        std::optional<Reconfiguration> next;
        {
            UniqueLock lock(mutex_);
            while (!stopping_ && !pending_) wake_.wait(lock.native());
            if (stopping_) return;
            frame = std::move(pending_);
            busy_ = true;
            session = session_;
            next = std::move(next_);
            next_.reset();
            if (next) pictureWanted_ = {next->imaging.settings, next->imaging.normaliseShotEnergy};  // with any change since
        }
        if (next) apply(std::move(*next));
        imageFrame(std::move(frame), session);
    }
}

void DisplayPipeline::imageFrame(ingest::FrameRef frame, std::uint64_t session) {
    std::vector<int> rfChannels;
    {
        MutexLock lock(mutex_);
        rfChannels = rfChannels_;
    }
    const FrameFacts facts{frame->frameId(),         session, frame->readyNs(), frame->timestampNs(), frame->block(0).header.laserEnergyMicroJ,
                           frame->isPhotoacoustic(), {}};
    const auto frameId = facts.frameId;
    if (!rfChannels.empty()) {
        auto rf = rfLines(*frame, rfChannels);
        rf->session = session;
        latestRf_.store(std::move(rf));
    }
    const auto imagingStart = steadyNs();
    auto loaded = imager_->load(*frame);
    frame = {};  // the ring slots go back before the long part
    auto envelope = loaded ? imager_->envelope() : Result<beamform::BeamformedImage>(fail(std::move(loaded.error())));
    imagerNs_.fetch_add(steadyNs() - imagingStart, std::memory_order_relaxed);
    imaged_.fetch_add(1, std::memory_order_relaxed);
    {
        MutexLock lock(mutex_);
        busy_ = false;
        idle_.notify_all();
    }
    if (drawing_.valid()) drawing_.get();  // one picture in hand at a time (and what escaped it comes out here)
    if (!envelope) {
        drawing_ = pictures_.submit([this, frameId, error = envelope.error()] { countFailure(frameId, error); });
        return;
    }
    drawing_ = pictures_.submit([this, envelope = std::move(*envelope), facts]() mutable { drawAndPublish(envelope, facts); });
}

}  // namespace sonolink::engine
