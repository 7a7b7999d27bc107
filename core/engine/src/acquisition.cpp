#include "acquisition.h"

#include "sonolink/util/thread_affinity.h"

namespace sonolink::engine {

Acquisition::Acquisition(LinkHandle link, ingest::SessionOptions options, DisplayPipeline* display, RecordingTap& recording,
                         Callbacks callbacks)
    : link_(std::move(link)), options_(std::move(options)), display_(display), recording_(recording), callbacks_(std::move(callbacks)) {
    thread_ = std::thread([this] { run(); });
}

Acquisition::~Acquisition() {
    stop();
    thread_.join();
}

void Acquisition::go() {
    {
        std::lock_guard lock(mutex_);
        go_ = true;
    }
    wake_.notify_all();
}

void Acquisition::stop() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
}

void Acquisition::run() {
    nameCurrentThread("rx-link0");
    try {
        auto options = options_;
        options.onFrontEndError = callbacks_.frontEndError;
        auto session = ingest::StreamSession::open(*link_.link, std::move(options));
        if (!session) {
            callbacks_.opened(fail(std::move(session.error())));
            return;
        }
        if (display_) (*session)->ingest().addSink(*display_);
        (*session)->ingest().addSink(recording_);
        callbacks_.opened((*session)->linkInfo().peerHello.serial);
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [&] { return go_ || stop_.load(); });
            if (!go_) return;  // never streamed: the session just closes
        }
        auto result = (*session)->run(0, stop_, callbacks_.progress);
        if (display_) display_->release();  // their frames hold this session's ring slots
        recording_.drain();
        session->reset();
        callbacks_.ended(result);
    } catch (const std::exception& e) {
        if (display_) display_->release();
        recording_.drain();
        callbacks_.ended(fail(ErrorCode::Internal, std::string("acquisition thread: ") + e.what()));
    } catch (...) {
        if (display_) display_->release();
        recording_.drain();
        callbacks_.ended(fail(ErrorCode::Internal, "acquisition thread: an exception that is not a std::exception"));
    }
}

}  // namespace sonolink::engine
