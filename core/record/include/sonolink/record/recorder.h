// Recorder: records frames as they are delivered into a UFF file, losslessly or not at all.
// onFrame (the ingest thread) only queues the frame's reference, so the ring slots stay held
// while the `rec` thread writes the blocks straight from them (UffStreamWriter) and then lets
// go. If the writer falls behind by the queue's depth, or a write fails (disk full), recording
// stops with that error, and every later frame is counted as refused; frames that never arrived
// (a front end out of free slots drops whole frames) are gaps in the file's frame ids, counted as
// skipped: never a silent gap. A failure is reported at once (onFailure); what was written stays.
// Dual mode's laser shots go to a group of their own (/photoacoustic_data, their ids, pulse times
// and energies in /photoacoustic_acquisition), apart from the ultrasound frames.
// Thread contract: onFrame on the ingest thread; drain(), stop() and the counters from one other thread.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "sonolink/ingest/frame.h"
#include "sonolink/record/uff_stream_writer.h"

namespace sonolink::record {

// Where a dual-mode recording keeps its laser shots (a UFF channel_data of USTB's photoacoustic
// wavefront) and their per-frame values.
inline constexpr const char* kShotGroup = "/photoacoustic_data";
inline constexpr const char* kShotAcquisitionGroup = "photoacoustic_acquisition";

struct RecorderOptions {
    std::size_t queueFrames = 16;  // frames that may wait for the disk
    // Dual mode: the laser shots' geometry (a second stream in the file); none: every frame is
    // the recording geometry's kind.
    std::optional<beamform::AcquisitionGeometry> shotGeometry;
    std::chrono::microseconds simulatedWriteLatency{0};  // tests: a disk this much slower per frame
    // Called once when recording fails (on the rec or the ingest thread, no recorder lock held):
    // copy and return.
    std::function<void(const Error&)> onFailure;
};

class Recorder final : public ingest::FrameSink {
public:
    [[nodiscard]] static Result<std::unique_ptr<Recorder>> start(const std::string& path, const beamform::AcquisitionGeometry& geometry,
                                                                 RecorderOptions options = {});
    ~Recorder() override;

    void onFrame(const ingest::FrameRef& frame) noexcept override;
    // Waits until every queued frame is written (or refused) and its slots are released: call it
    // before the engine that delivered the frames goes away (a link session ends). Recording goes on.
    void drain();
    // Writes what is queued, closes the file; the first error if recording failed.
    [[nodiscard]] Status stop();

    [[nodiscard]] std::uint64_t framesRecorded() const noexcept { return recorded_.load(); }
    [[nodiscard]] std::uint64_t framesRefused() const noexcept { return refused_.load(); }
    // Frames missing between recorded ones: ids the front end numbered that never arrived.
    [[nodiscard]] std::uint64_t framesSkipped() const noexcept { return skipped_.load(); }
    [[nodiscard]] std::uint64_t bytesWritten() const noexcept { return bytes_.load(); }

private:
    struct Streams {
        int ultrasound = 0;  // the writer's stream for each kind; -1: none
        int shots = -1;
    };
    Recorder(std::unique_ptr<UffStreamWriter> writer, RecorderOptions options, Streams streams);
    void run();
    Status write(const ingest::Frame& frame);
    void failed(const Error& error);  // no lock held

    std::unique_ptr<UffStreamWriter> writer_;
    RecorderOptions options_;
    Streams streams_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::condition_variable idle_;
    std::deque<ingest::FrameRef> queue_;
    bool writing_ = false;
    bool stopping_ = false;
    std::optional<Error> error_;
    std::atomic<std::uint64_t> recorded_{0};
    std::atomic<std::uint64_t> refused_{0};
    std::atomic<std::uint64_t> skipped_{0};
    std::optional<std::uint32_t> lastFrameId_;  // rec thread
    std::atomic<std::uint64_t> bytes_{0};
    std::thread thread_;
};

}  // namespace sonolink::record
