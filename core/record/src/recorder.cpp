#include "sonolink/record/recorder.h"

#include <filesystem>

#include <fmt/format.h>

#include "sonolink/util/thread_affinity.h"

namespace sonolink::record {

Result<std::unique_ptr<Recorder>> Recorder::start(const std::string& path, const beamform::AcquisitionGeometry& geometry, RecorderOptions options) {
    auto writer = UffStreamWriter::create(path, geometry);
    if (!writer) return fail(std::move(writer.error()));
    Streams streams{geometry.isShot() ? -1 : 0, geometry.isShot() ? 0 : -1};
    if (options.shotGeometry && !geometry.isShot()) {  // dual mode: the shots in a group of their own
        auto shots = (*writer)->addStream(*options.shotGeometry, kShotGroup, kShotAcquisitionGroup);
        if (!shots) {
            (void)(*writer)->close();
            std::error_code ec;
            std::filesystem::remove(path, ec);
            return fail(std::move(shots.error()));
        }
        streams.shots = *shots;
    }
    return std::unique_ptr<Recorder>(new Recorder(std::move(*writer), options, streams));
}

Recorder::Recorder(std::unique_ptr<UffStreamWriter> writer, RecorderOptions options, Streams streams)
    : writer_(std::move(writer)), options_(std::move(options)), streams_(streams), thread_([this] { run(); }) {}

Recorder::~Recorder() { (void)stop(); }

void Recorder::onFrame(const ingest::FrameRef& frame) noexcept {
    std::optional<Error> fellBehind;
    {
        std::lock_guard lock(mutex_);
        if (error_ || stopping_) {
            ++refused_;
            return;
        }
        if (queue_.size() < options_.queueFrames) {
            queue_.push_back(frame);  // holds the frame's ring slots until written
            wake_.notify_one();
            return;
        }
        error_ =
            Error(ErrorCode::ResourceExhausted, fmt::format("the recorder fell behind: {} frames were waiting for the disk; recording stopped before frame {} "
                                                            "(nothing after it is recorded)",
                                                            queue_.size(), frame->frameId()));
        ++refused_;
        fellBehind = error_;
    }
    failed(*fellBehind);
}

void Recorder::failed(const Error& error) {
    if (!options_.onFailure) return;
    try {
        options_.onFailure(error);
    } catch (...) {  // a callback's failure must not end the ingest or rec thread
    }
}

Status Recorder::write(const ingest::Frame& frame) {
    // Ids the front end numbered between two recorded frames never arrived (it had no free
    // buffer, or the link lost them): the file shows the gap in its frame ids, and it is counted.
    // A lower id is a new session (or the 32-bit id wrapping), not a gap.
    if (lastFrameId_ && frame.frameId() > *lastFrameId_ + 1) skipped_ += frame.frameId() - *lastFrameId_ - 1;
    lastFrameId_ = frame.frameId();
    const int stream = frame.isPhotoacoustic() ? streams_.shots : streams_.ultrasound;
    if (stream < 0) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("frame {} is {} and this recording holds {} frames only", frame.frameId(),
                                frame.isPhotoacoustic() ? "a laser shot's" : "an ultrasound frame", frame.isPhotoacoustic() ? "ultrasound" : "laser shots'"));
    }
    if (auto ok = writer_->beginFrame(frame.frameId(), frame.timestampNs(), stream, frame.block(0).header.laserEnergyMicroJ); !ok) return ok;
    for (std::uint16_t b = 0; b < frame.blockCount(); ++b) {
        const auto& block = frame.block(b);
        const auto& h = block.header;
        if (auto ok = writer_->writeBlock(h.waveIndex, h.firstChannel, h.channelCount, static_cast<int>(h.firstSample), static_cast<int>(h.sampleCount),
                                          block.payload);
            !ok) {
            return ok;
        }
    }
    if (options_.simulatedWriteLatency.count() > 0) std::this_thread::sleep_for(options_.simulatedWriteLatency);
    return writer_->endFrame();  // on disk now: a failure shows at once, and what is written stays readable
}

void Recorder::run() {
    nameCurrentThread("rec");
    while (true) {
        ingest::FrameRef frame;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
            if (queue_.empty()) return;  // stopping and drained
            frame = std::move(queue_.front());
            queue_.pop_front();
            writing_ = true;
        }
        Status written;
        try {
            written = write(*frame);
        } catch (const std::exception& e) {
            written = fail(ErrorCode::Internal, fmt::format("recording: {}", e.what()));
        }
        std::uint64_t bytes = 0;
        for (std::uint16_t b = 0; b < frame->blockCount(); ++b) bytes += frame->block(b).payload.size();
        frame = {};  // the ring slots go back
        std::optional<Error> failure;
        {
            std::lock_guard lock(mutex_);
            if (!written) {
                if (!error_) failure = error_ = written.error();
                refused_ += queue_.size();
                queue_.clear();
                // Recorded is exactly what the file holds: the frames of the writer's last good
                // flush (this one included when the flush that failed made it with the reserve's
                // room); the others given to the writer count as refused.
                const auto attempted = recorded_ + 1;
                const auto durable = std::min<std::uint64_t>(static_cast<std::uint64_t>(std::max(writer_->frames(), 0)), attempted);
                bytes_ = (bytes_ + bytes) / attempted * durable;
                refused_ += attempted - durable;
                recorded_ = durable;
            } else {
                ++recorded_;
                bytes_ += bytes;
            }
            writing_ = false;
            if (queue_.empty()) idle_.notify_all();
        }
        if (failure) failed(*failure);
    }
}

void Recorder::drain() {
    std::unique_lock lock(mutex_);
    idle_.wait(lock, [&] { return queue_.empty() && !writing_; });
}

Status Recorder::stop() {
    {
        std::lock_guard lock(mutex_);
        if (stopping_ && !thread_.joinable()) return error_ ? Status(fail(*error_)) : Status{};
        stopping_ = true;
    }
    wake_.notify_one();
    if (thread_.joinable()) thread_.join();
    auto closed = writer_->close();
    std::lock_guard lock(mutex_);
    if (error_) return fail(*error_);
    return closed;
}

}  // namespace sonolink::record
