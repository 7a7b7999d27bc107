// replayFrameSource(): a recording (UFF file) as the simulated front end's frame source, so that
// replay goes through the same link and ingest path as live acquisition, bit-exactly. The
// recording is read once; a Configure that does not match its geometry is refused with the
// reason (configureOf(recording.geometry), acquisition_setup.h, gives the one that matches).
// Thread contract: the returned source is called on the front end's thread.
#pragma once

#include <memory>
#include <string>

#include "sonolink/record/uff_channel_data.h"
#include "sonolink/transport/sim/front_end_simulator.h"

namespace sonolink::app {

[[nodiscard]] Result<std::shared_ptr<const record::UffChannelData>> loadRecording(const std::string& path);
[[nodiscard]] decltype(transport::sim::FrontEndOptions::frameSource) replayFrameSource(std::shared_ptr<const record::UffChannelData> recording);

}  // namespace sonolink::app
