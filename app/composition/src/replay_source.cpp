#include "sonolink/app/replay_source.h"

#include <fmt/format.h>

#include "sonolink/app/archive_source.h"
#include "sonolink/record/recorder.h"
#include "sonolink/record/recording_kinds.h"
#include "sonolink/util/log.h"

namespace sonolink::app {
namespace {
log::Category& replayLog() { return log::category("replay"); }
}  // namespace

Result<std::shared_ptr<RecordingReplay>> RecordingReplay::open(const std::string& path, const config::ArchiveSettings& archive, const std::string& group) {
    auto reader = openRecording(path, archive, group);
    if (!reader) return fail(std::move(reader.error()));
    // A recording that cannot be imaged (no element positions, an angle that is no number) is
    // refused before a window opens on it, not left showing no picture.
    if (auto ok = reader->header().geometry.validate(); !ok) return fail(ErrorCode::InvalidArgument, fmt::format("{}: {}", path, ok.error().message()));
    auto first = reader->read({0, 1, 0});  // a recording whose first frame does not read is refused now, not mid-replay
    if (!first) return fail(std::move(first.error()));
    if (first->data16.empty()) {
        return fail(ErrorCode::Unimplemented,
                    fmt::format("{} holds {} samples; the front end replays int16 ADC samples only", path, first->isIq() ? "IQ" : "float"));
    }
    auto replay = std::shared_ptr<RecordingReplay>(new RecordingReplay(path, std::move(*reader)));
    if (group == "/channel_data" && !path.starts_with("s3://")) {  // a dual-mode recording: its shots too
        // Shots that cannot go out again (damaged, or too few to show the laser's rate) are said;
        // the ultrasound frames replay all the same.
        auto ids = record::readFrameIds(path);
        if (ids && !ids->shots.empty()) {
            auto shots = open(path, archive, record::kShotGroup);
            if (!shots) {
                log::warn(replayLog(), "{}: its laser shots are not replayed ({}); its ultrasound frames are", path, shots.error().message());
            } else if (ids->laserRateHz() <= 0) {
                log::warn(replayLog(),
                          "{}: its {} laser shot(s) show no rate (their times are missing, or fewer than two): only its ultrasound "
                          "frames are replayed",
                          path, ids->shots.size());
            } else {
                replay->shots_ = std::move(*shots);
                replay->laserRateHz_ = ids->laserRateHz();
            }
        }
    }
    return replay;
}

Result<std::uint32_t> RecordingReplay::frameCount(const transport::Configure& c, const transport::sim::FrameLayout& layout) {
    const auto& g = geometry();
    if (c.channelCount != g.channels || static_cast<int>(c.samplesPerChannel) != g.samples || c.waveCount() != g.waves || c.photoacoustic != g.isShot()) {
        return fail(ErrorCode::InvalidArgument, fmt::format("the configuration ({} channels x {} samples, {} {}) does not match the recording "
                                                            "({} channels x {} samples, {} {})",
                                                            c.channelCount, c.samplesPerChannel, c.waveCount(), c.photoacoustic ? "laser shot" : "waves",
                                                            g.channels, g.samples, g.waves, g.isShot() ? "laser shot" : "waves"));
    }
    if (layout.frameBytes != g.samplesPerFrame() * sizeof(std::int16_t)) {
        return fail(ErrorCode::InvalidArgument, fmt::format("a frame of {} holds {} bytes; the configured layout needs {}", path_,
                                                            g.samplesPerFrame() * sizeof(std::int16_t), layout.frameBytes));
    }
    return frames();
}

Status RecordingReplay::readFrame(std::uint32_t index, std::span<std::byte> out) {
    // Little-endian host and wire: the int16 samples are the frame's bytes.
    if (out.size() % sizeof(std::int16_t) != 0 || reinterpret_cast<std::uintptr_t>(out.data()) % alignof(std::int16_t) != 0) {
        return fail(ErrorCode::InvalidArgument, "a replay buffer must hold whole, aligned int16 samples");
    }
    return reader_.readFrame16(static_cast<int>(index), {reinterpret_cast<std::int16_t*>(out.data()), out.size() / sizeof(std::int16_t)});
}

}  // namespace sonolink::app
