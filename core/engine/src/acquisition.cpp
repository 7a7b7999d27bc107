#include "acquisition.h"

#include "sonolink/util/thread_affinity.h"

namespace sonolink::engine {

Acquisition::Acquisition(transport::Link& link, ingest::SessionOptions options, int rxCpu, Consumers consumers, Callbacks callbacks)
    : link_(link), options_(std::move(options)), rxCpu_(rxCpu), consumers_(consumers), callbacks_(std::move(callbacks)) {
    thread_ = std::thread([this] { run(); });
}

Acquisition::~Acquisition() {
    stop();
    thread_.join();
}

void Acquisition::go(std::uint32_t frameLimit) {
    {
        MutexLock lock(mutex_);
        go_ = true;
        frameLimit_ = frameLimit;
    }
    wake_.notify_all();
}

void Acquisition::stop() {
    {
        MutexLock lock(mutex_);
        stop_ = true;
    }
    link_.interrupt();  // a session still waiting for its front end ends now, not at the accept timeout
    wake_.notify_all();
}

void Acquisition::stream(ingest::StreamSession& session) {
    std::uint32_t frameLimit = 0;
    {
        UniqueLock lock(mutex_);
        while (!go_ && !stop_.load()) wake_.wait(lock.native());
        if (!go_) return callbacks_.ended(fail(ErrorCode::Cancelled, "closed before streaming"), session.accounting());
        frameLimit = frameLimit_;
    }
    Result<ingest::SessionSummary> result = fail(ErrorCode::Internal, "not streamed");
    try {
        result = session.run(frameLimit, stop_, callbacks_.progress);
    } catch (const std::exception& e) {
        result = fail(ErrorCode::Internal, std::string("acquisition thread: ") + e.what());
    } catch (...) {
        result = fail(ErrorCode::Internal, "acquisition thread: an exception that is not a std::exception");
    }
    // The consumers' frames hold this session's ring slots: they let go before the session goes.
    releaseDisplays();
    if (consumers_.recording) consumers_.recording->drain();
    auto accounted = session.accounting();
    if (result) accounted.elapsed = result->elapsed;  // the session's own end, not its last progress
    callbacks_.ended(result, accounted);
}

void Acquisition::releaseDisplays() {
    if (consumers_.display) consumers_.display->release();
    if (consumers_.shots) consumers_.shots->release();
}

void Acquisition::run() {
    nameCurrentThread("rx-link0");
    try {
        if (rxCpu_ >= 0) {
            if (auto pinned = pinCurrentThread(rxCpu_); !pinned) return callbacks_.opened(fail(std::move(pinned.error())));
        }
        auto options = options_;
        options.onFrontEndError = callbacks_.frontEndError;
        auto session = ingest::StreamSession::open(link_, std::move(options));
        if (!session) return callbacks_.opened(fail(std::move(session.error())));
        if (consumers_.display) (*session)->ingest().addSink(*consumers_.display);
        if (consumers_.shots) (*session)->ingest().addSink(*consumers_.shots);
        if (consumers_.recording) (*session)->ingest().addSink(*consumers_.recording);
        if (consumers_.capture) (*session)->ingest().addSink(*consumers_.capture);
        if (consumers_.shotCapture) (*session)->ingest().addSink(*consumers_.shotCapture);
        callbacks_.opened((*session)->linkInfo());
        stream(**session);
    } catch (const std::exception& e) {
        releaseDisplays();
        if (consumers_.recording) consumers_.recording->drain();
        callbacks_.opened(fail(ErrorCode::Internal, std::string("acquisition thread: ") + e.what()));
    } catch (...) {
        releaseDisplays();
        if (consumers_.recording) consumers_.recording->drain();
        callbacks_.opened(fail(ErrorCode::Internal, "acquisition thread: an exception that is not a std::exception"));
    }
}

}  // namespace sonolink::engine
