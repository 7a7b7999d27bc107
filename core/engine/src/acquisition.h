// Acquisition: one link session on the `rx-link0` thread: the link from the backends, the
// session opened (front end accepted and configured), then, on go(), streaming until stop() or
// a failure; the frames go to the display pipeline and the recording tap. When streaming ends,
// the consumers let go of their frames before the session goes. Results come back through
// callbacks (on the rx thread). Thread contract: start/go/stop/destroy from one thread (ctl).
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

#include "display_pipeline.h"
#include "recording_tap.h"
#include "sonolink/engine/engine_backends.h"
#include "sonolink/ingest/stream_session.h"

namespace sonolink::engine {

class Acquisition {
public:
    struct Callbacks {
        std::function<void(const Result<std::string>&)> opened;  // the front end's serial number, or why no session
        std::function<void(const ingest::SessionSummary&)> progress;
        std::function<void(const transport::ErrorReport&)> frontEndError;  // the front end's own reports
        std::function<void(const Result<ingest::SessionSummary>&)> ended;  // last, before the thread ends
    };
    // display may be null (no display products).
    Acquisition(LinkHandle link, ingest::SessionOptions options, DisplayPipeline* display, RecordingTap& recording, Callbacks callbacks);
    ~Acquisition();  // stops and joins
    Acquisition(const Acquisition&) = delete;
    Acquisition& operator=(const Acquisition&) = delete;

    void go();
    void stop();

private:
    void run();

    LinkHandle link_;
    ingest::SessionOptions options_;
    DisplayPipeline* display_;
    RecordingTap& recording_;
    Callbacks callbacks_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool go_ = false;
    std::atomic<bool> stop_{false};
    std::thread thread_;
};

}  // namespace sonolink::engine
