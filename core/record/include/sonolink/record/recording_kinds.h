// The kinds of frame in a recording: the front end's ids of its ultrasound frames
// (/acquisition/frame_id) and of dual mode's laser shots (/photoacoustic_acquisition/frame_id,
// beside /photoacoustic_data), so that each ultrasound frame can be paired with the last shot
// before it, as the console laid them over each other. Thread contract: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sonolink/util/result.h"

namespace sonolink::record {

struct RecordingFrameIds {
    std::vector<std::uint32_t> ultrasound;   // by frame index in /channel_data
    std::vector<std::uint32_t> shots;        // by frame index in /photoacoustic_data (empty: none)
    std::vector<std::uint64_t> shotTimesNs;  // each shot's pulse time (/photoacoustic_acquisition/frame_time_ns)
    // The laser's rate as recorded: the median interval between successive shots (0: fewer than two).
    [[nodiscard]] double laserRateHz() const;
};

// InvalidArgument for a file that is no recording, or whose ids do not match its frames.
[[nodiscard]] Result<RecordingFrameIds> readFrameIds(const std::string& path);

// The index (in shots) of the last shot whose id is below frameId; none before the first.
[[nodiscard]] std::optional<std::size_t> lastShotBefore(const RecordingFrameIds& ids, std::uint32_t frameId);

}  // namespace sonolink::record
