// Recording through the facade (ctl thread): started, its progress twice a second, stopped, or
// failed at once with the reason (the recorder closes the file, so what was written before
// stays readable). Totals move into the statistics without ever going backwards.
#include <chrono>

#include <fmt/format.h>

#include "engine_impl.h"

namespace sonolink::engine {

void Engine::Impl::startRecording(const std::string& path) {
    if (recording.current()) return refuse("startRecording", ErrorCode::FailedPrecondition, "already recording");
    const auto gen = ++recordingGeneration;
    recordingFailureReported = false;
    record::RecorderOptions options;
    std::weak_ptr<Impl> self = weak_from_this();
    options.onFailure = [self, gen, path](const Error& error) {
        if (auto impl = self.lock()) impl->ctl->post([impl, gen, path, error] { impl->onRecordingFailed(gen, path, error); });
    };
    options.shotGeometry = config.shotGeometry;  // dual mode: the laser shots beside the ultrasound frames
    auto recorder = record::Recorder::start(path, config.geometry, std::move(options));
    if (!recorder) {
        emit(RecordingChanged{RecordingPhase::Failed, path, 0, 0, 0, 0, recorder.error().message()});
        return report(ErrorOrigin::Recorder, Severity::Error, recorder.error(), path);
    }
    recordingPath = path;
    recording.set(std::shared_ptr<record::Recorder>(std::move(*recorder)));
    emit(RecordingChanged{RecordingPhase::Started, path, 0, 0, 0, 0, ""});
    ctl->postAfter(std::chrono::milliseconds(500), [this, gen] { recordingProgress(gen); });
}

void Engine::Impl::recordingProgress(std::uint64_t gen) {
    if (gen != recordingGeneration || closing) return;
    const auto recorder = recording.current();
    if (!recorder) return;
    emit(RecordingChanged{RecordingPhase::Progress, recordingPath, recorder->framesRecorded(), recorder->bytesWritten(), recorder->framesRefused(),
                          recorder->framesSkipped(), ""});
    ctl->postAfter(std::chrono::milliseconds(500), [this, gen] { recordingProgress(gen); });
}

// Takes the recorder out of the tap and stops it (the file closed); its totals go to the
// statistics before it leaves the tap and again for what it wrote while stopping.
std::optional<RecordingChanged> Engine::Impl::finishRecording() {
    std::shared_ptr<record::Recorder> recorder;
    std::uint64_t recorded = 0, refused = 0, skipped = 0;
    tally.update([&](SessionTotals& t) {  // out of the tap and into the totals at once, for stats()
        recorder = recording.take();
        if (!recorder) return;
        recorded = recorder->framesRecorded();
        refused = recorder->framesRefused();
        skipped = recorder->framesSkipped();
        t.recordedBefore += recorded;
        t.refusedBefore += refused;
        t.skippedBefore += skipped;
    });
    if (!recorder) return std::nullopt;
    auto stopped = recorder->stop();
    tally.update([&](SessionTotals& t) {
        t.recordedBefore += recorder->framesRecorded() - recorded;
        t.refusedBefore += recorder->framesRefused() - refused;
        t.skippedBefore += recorder->framesSkipped() - skipped;
    });
    RecordingChanged done{stopped ? RecordingPhase::Stopped : RecordingPhase::Failed,
                          recordingPath,
                          recorder->framesRecorded(),
                          recorder->bytesWritten(),
                          recorder->framesRefused(),
                          recorder->framesSkipped(),
                          stopped ? "" : stopped.error().message()};
    if (!stopped) lastRecordingError = stopped.error();
    return done;
}

void Engine::Impl::onRecordingFailed(std::uint64_t gen, const std::string& path, const Error& error) {
    if (gen != recordingGeneration || recordingFailureReported) return;
    recordingFailureReported = true;
    auto done = finishRecording();  // closes the file now: what was written before stays readable
    emit(RecordingChanged{RecordingPhase::Failed, path, done ? done->frames : 0, done ? done->bytes : 0, done ? done->framesRefused : 0,
                          done ? done->framesSkipped : 0, error.message()});
    report(ErrorOrigin::Recorder, Severity::Error, Error(error).addContext(fmt::format("recording to {}", path)), path);
}

void Engine::Impl::stopRecording() {
    auto done = finishRecording();
    if (!done) return;
    ++recordingGeneration;  // a failure callback still on its way is stale now
    if (done->phase == RecordingPhase::Failed && !recordingFailureReported) {
        recordingFailureReported = true;
        emit(*done);
        return report(ErrorOrigin::Recorder, Severity::Error, lastRecordingError ? *lastRecordingError : Error(ErrorCode::DataLoss, done->error), done->path);
    }
    emit(*done);
    archiveFile(done->path, "recording");  // whole and closed: on its way to the archive
}

}  // namespace sonolink::engine
