// Acquisition: one link session on the `rx-link0` thread: the session opened on the link (front
// end accepted and configured), then, on go(), streaming until stop(), the front end's frame
// limit or a failure; the frames go to the display pipeline and the recording tap (ingest checks
// test patterns itself). When streaming ends, the consumers let go of their frames
// before the session goes, and the session's accounting is handed over before the thread ends.
// Thread contract: construct/go/stop/destroy from one thread (ctl); callbacks on the rx thread.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

#include "sonolink/util/thread_annotations.h"
#include "display_pipeline.h"
#include "recording_tap.h"
#include "sonolink/engine/engine_backends.h"
#include "sonolink/ingest/stream_session.h"

namespace sonolink::engine {

class Acquisition {
public:
    struct Callbacks {
        std::function<void(const Result<transport::LinkInfo>&)> opened;  // the session's link and front end, or why none
        std::function<void(const ingest::SessionSummary&)> progress;
        std::function<void(const transport::ErrorReport&)> frontEndError;  // the front end's own reports
        // Last, before the thread ends: how it ended, and everything it counted (also when it failed).
        std::function<void(const Result<ingest::SessionSummary>&, const ingest::SessionSummary& accounted)> ended;
    };
    struct Consumers {
        DisplayPipeline* display = nullptr;  // null: no display products
        DisplayPipeline* shots = nullptr;    // dual mode: the laser shots' (null: none)
        RecordingTap* recording = nullptr;
        ingest::FrameSink* capture = nullptr;      // null: none (the element check's frames)
        ingest::FrameSink* shotCapture = nullptr;  // null: none (dual mode: the phantom check's laser shot)
    };
    // rxCpu >= 0 pins the rx thread to that CPU (a failure to pin fails the session with the reason).
    Acquisition(transport::Link& link, ingest::SessionOptions options, int rxCpu, Consumers consumers, Callbacks callbacks);
    ~Acquisition();  // stops and joins
    Acquisition(const Acquisition&) = delete;
    Acquisition& operator=(const Acquisition&) = delete;

    void go(std::uint32_t frameLimit);  // 0: until stop()
    void stop();

private:
    void run();
    void stream(ingest::StreamSession& session);
    void releaseDisplays();  // the frames they hold let go (before the session goes)

    transport::Link& link_;
    ingest::SessionOptions options_;
    int rxCpu_;
    Consumers consumers_;
    Callbacks callbacks_;
    Mutex mutex_;
    std::condition_variable wake_;
    bool go_ GUARDED_BY(mutex_) = false;
    std::uint32_t frameLimit_ GUARDED_BY(mutex_) = 0;
    std::atomic<bool> stop_{false};
    std::thread thread_;
};

}  // namespace sonolink::engine
