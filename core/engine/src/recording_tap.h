// RecordingTap: the frame sink that recording is switched through: while a Recorder is set,
// every frame goes to it (losslessly, or the recorder stops with the error); set and cleared
// while streaming. Thread contract: onFrame on the ingest thread; the rest from any thread.
#pragma once

#include <memory>

#include "latest_value.h"
#include "sonolink/ingest/frame.h"
#include "sonolink/record/recorder.h"

namespace sonolink::engine {

class RecordingTap final : public ingest::FrameSink {
public:
    void onFrame(const ingest::FrameRef& frame) noexcept override {
        if (auto recorder = recorder_.load()) recorder->onFrame(frame);
    }
    void set(std::shared_ptr<record::Recorder> recorder) { recorder_.store(std::move(recorder)); }
    [[nodiscard]] std::shared_ptr<record::Recorder> take() { return recorder_.exchange(nullptr); }
    [[nodiscard]] std::shared_ptr<record::Recorder> current() const { return recorder_.load(); }
    // Waits until the recorder has written (or refused) every frame it was given.
    void drain() {
        if (auto recorder = recorder_.load()) recorder->drain();
    }

private:
    LatestValue<record::Recorder> recorder_;
};

}  // namespace sonolink::engine
