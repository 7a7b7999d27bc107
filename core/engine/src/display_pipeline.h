// DisplayPipeline: the newest frame from ingest -> B-mode image. onFrame (ingest thread) keeps
// only the newest frame's reference (an older one still waiting is let go and counted: the
// display is lossy by design); the `bf` thread hands the frame to the imager (CPU: gathered once
// into its working buffer; CUDA: copied to the device from the ring), lets the ring slots go,
// takes the envelope, makes the 8-bit picture and publishes it (latest-value mailbox)
// and appends it to the cine; the RF traces of selected channels go to their own mailbox. Frames are published
// in increasing frame-id order, never twice. Frozen: frames are let go unprocessed. A frame the
// imager cannot image is counted (imagingFailures), not logged; the first failure and anything
// escaping the thread go to the failure handler. The picture (image::GreyChain: TGC, gain,
// dynamic range, persistence, grey map) is drawn on a display raster of equal mm per pixel, and
// published, by the `picture` thread while `bf` beamforms the next frame (one picture in hand at
// a time); persistence starts again with each session and whenever the raster changes.
// Geometry, imaging and imager change between frames (reconfigure). A pipeline shows one kind of
// frame, its geometry's: ultrasound, or laser shots (photoacoustic), whose pulse energy the
// picture may be normalised by and whose time from pulse to picture it measures; a frame of the
// other kind is not its own (dual mode runs one of each), and a shot with no pulse seen is
// counted dark, never imaged. A shot's levels are relative to the session's first shot's peak
// (not each its own), so its brightness follows its signal and pulse energy.
// Thread contract: onFrame on the ingest thread; the rest from any thread.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <string>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "sonolink/util/thread_annotations.h"
#include "latest_value.h"
#include "sonolink/engine/engine_backends.h"
#include "sonolink/image/grey_chain.h"
#include "sonolink/ingest/frame.h"
#include "sonolink/ingest/latency_histogram.h"
#include "sonolink/util/serial_executor.h"

namespace sonolink::engine {

class DisplayPipeline final : public ingest::FrameSink {
public:
    using FailureHandler = std::function<void(const std::string& what)>;  // on the bf or picture thread
    DisplayPipeline(const beamform::AcquisitionGeometry& geometry, ImagingSetup imaging, std::size_t cineFrames, std::unique_ptr<FrameImager> imager,
                    FailureHandler onFailure = {});
    ~DisplayPipeline() override;

    void onFrame(const ingest::FrameRef& frame) noexcept override;
    // Lets go of any waiting frame and waits until the beamformer holds none (before the ingest
    // engine that delivered them goes away).
    void release();
    void setFrozen(bool frozen);
    // Frames from now on belong to a new link session (whose frame ids start again).
    void newSession(std::uint64_t session);
    void setRfChannels(std::vector<int> channels);
    // The front end's clock minus the host's (for the time from a pulse to its picture).
    void setClockOffset(std::int64_t offsetNs) noexcept { clockOffsetNs_.store(offsetNs, std::memory_order_relaxed); }
    // From the next frame on: this geometry and imaging, and this imager (null: the one in use,
    // as for a change of the picture only, or the one a reconfiguration not yet applied brought).
    void reconfigure(const beamform::AcquisitionGeometry& geometry, ImagingSetup imaging, std::unique_ptr<FrameImager> imager);
    // A change of the picture only (TGC, gain, dynamic range, persistence, grey map, display
    // raster; the grid and the beamformer as they are): drawn from the next picture on, without
    // waiting for the beamformer's next frame (a reconfiguration not yet applied takes it along).
    void changePicture(const ImagingSetup& imaging);
    [[nodiscard]] std::shared_ptr<const RfLines> latestRf() const { return latestRf_.load(); }
    // A frame joined from several hosts' partials, its envelope taken (a cluster's display host,
    // whose feed calls this on its own thread): drawn on the picture thread, on its own grid; a
    // newer one replaces one still waiting (counted skipped).
    void showJoined(JoinedImage image);

    // The cine and the latest picture let go (another exam begins): only frames published from
    // now on are shown, reviewed or exported.
    void forgetPictures();
    [[nodiscard]] std::shared_ptr<const DisplayFrame> latest() const { return latest_.load(); }
    [[nodiscard]] std::vector<std::shared_ptr<const DisplayFrame>> cine() const;
    [[nodiscard]] std::uint64_t displayed() const noexcept { return displayed_.load(); }
    [[nodiscard]] std::uint64_t skipped() const noexcept { return skipped_.load(); }
    [[nodiscard]] ingest::LatencyHistogram::Snapshot latency() const noexcept { return latency_.snapshot(); }
    [[nodiscard]] std::string imagerName() const;
    // Seconds the imager has spent on frames, and how many frames, since the start.
    [[nodiscard]] double imagerSeconds() const noexcept { return static_cast<double>(imagerNs_.load()) / 1e9; }
    [[nodiscard]] std::uint64_t imagedFrames() const noexcept { return imaged_.load(); }
    [[nodiscard]] std::uint64_t imagingFailures() const noexcept { return imagingFailures_.load(); }
    [[nodiscard]] bool showsShots() const noexcept { return photoacoustic_.load(); }
    [[nodiscard]] std::uint64_t darkShots() const noexcept { return darkShots_.load(); }  // no pulse seen: not imaged
    // Laser shots: the pulse's time (front end clock) -> published.
    [[nodiscard]] ingest::LatencyHistogram::Snapshot shotLatency() const noexcept { return shotLatency_.snapshot(); }

private:
    struct Reconfiguration {
        beamform::AcquisitionGeometry geometry;
        ImagingSetup imaging;
        std::unique_ptr<FrameImager> imager;
    };
    void run();
    void loop();
    void apply(Reconfiguration next);                                // bf thread
    void imageFrame(ingest::FrameRef frame, std::uint64_t session);  // bf thread
    // picture thread:
    // The picture's chain for this grid and the settings wanted now (read under the lock: the
    // newest change wins, whichever thread brought it).
    void preparePicture(const beamform::PixelGrid& grid);
    // referencePeak > 0: the envelope value drawn at 0 dB (laser shots); else the frame's own peak.
    [[nodiscard]] Result<std::shared_ptr<DisplayFrame>> picture(const beamform::BeamformedImage& envelope, std::uint32_t frameId, float referencePeak);
    struct FrameFacts {  // what the picture keeps of its frame, once the frame is let go
        std::uint32_t frameId = 0;
        std::uint64_t session = 0;
        std::uint64_t readyNs = 0;
        std::uint64_t timestampNs = 0;
        std::uint32_t laserEnergyMicroJ = 0;
        bool photoacoustic = false;
        std::string incompleteAperture;  // joined from several hosts, lacking some
    };
    void drawAndPublish(beamform::BeamformedImage& envelope, const FrameFacts& facts);
    void normaliseShot(beamform::BeamformedImage& envelope, std::uint32_t energyMicroJ);  // picture thread
    void countFailure(std::uint32_t frameId, const Error& error);
    void drawJoined();  // picture thread: the joined images waiting, newest only
    [[nodiscard]] std::shared_ptr<RfLines> rfLines(const ingest::Frame& frame, const std::vector<int>& channels) const;

    beamform::AcquisitionGeometry geometry_;
    ImagingSetup imaging_;
    std::size_t cineFrames_;
    std::unique_ptr<FrameImager> imager_;  // bf thread (and the constructor)
    // The picture thread's: the grid's size and settings it draws for, its chain (none while they
    // give no display raster, and why), the session its persistence holds.
    beamform::PixelGrid pictureGrid_;
    std::size_t pictureColumns_ = 0, pictureRows_ = 0;
    ImagingSettings pictureSettings_;
    std::optional<image::GreyChain> chain_;
    std::optional<Error> pictureError_;
    std::uint64_t pictureSession_ = 0;
    bool pictureNormaliseShots_ = false;  // each shot scaled by the mean pulse energy over its own
    double meanShotEnergy_ = 0;           // the session's pulses so far (energy normalisation)
    std::uint64_t shotsSeen_ = 0;
    float shotReferencePeak_ = 0;  // the session's first shot's peak: 0 dB for every shot
    std::future<void> drawing_;    // bf thread: the picture in hand
    bool announce_ = true;         // the imager is logged when the thread starts
    FailureHandler onFailure_;
    mutable Mutex mutex_;
    std::string imagerName_ GUARDED_BY(mutex_);
    std::optional<Reconfiguration> next_ GUARDED_BY(mutex_);  // applied before the next frame
    struct PictureWanted {
        ImagingSettings settings;
        bool normaliseShots = false;
    };
    PictureWanted pictureWanted_ GUARDED_BY(mutex_);  // the newest picture settings asked for
    std::condition_variable wake_;
    std::condition_variable idle_;
    ingest::FrameRef pending_ GUARDED_BY(mutex_);
    bool busy_ GUARDED_BY(mutex_) = false;
    bool stopping_ GUARDED_BY(mutex_) = false;
    bool frozen_ GUARDED_BY(mutex_) = false;
    std::uint64_t session_ GUARDED_BY(mutex_) = 0;
    std::uint32_t lastFrameId_ GUARDED_BY(mutex_) = 0;
    bool anyPublished_ GUARDED_BY(mutex_) = false;
    std::optional<JoinedImage> joinedWaiting_ GUARDED_BY(mutex_);
    bool joinedDrawing_ GUARDED_BY(mutex_) = false;  // drawJoined() is queued or runs
    std::deque<std::shared_ptr<const DisplayFrame>> cine_ GUARDED_BY(mutex_);
    LatestValue<const DisplayFrame> latest_;
    LatestValue<const RfLines> latestRf_;
    std::vector<int> rfChannels_ GUARDED_BY(mutex_);
    std::atomic<std::uint64_t> displayed_{0};
    std::atomic<std::uint64_t> skipped_{0};
    std::atomic<std::uint64_t> imagerNs_{0};
    std::atomic<std::uint64_t> imaged_{0};
    std::atomic<std::uint64_t> imagingFailures_{0};
    std::atomic<bool> photoacoustic_{false};  // the kind of frame it shows (its geometry's)
    std::atomic<std::uint64_t> darkShots_{0};
    std::atomic<std::int64_t> clockOffsetNs_{0};
    ingest::LatencyHistogram latency_;
    ingest::LatencyHistogram shotLatency_;
    SerialExecutor pictures_{"picture"};  // after all it uses: drained before they go
    std::thread thread_;
};

}  // namespace sonolink::engine
