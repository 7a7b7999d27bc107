// From configuration to what the link needs, and between the wire and the engine: the Configure
// message sent to the front end (probe, acquisition, payload kind), and the one acquisition
// geometry a Configure stands for (what the beamformers, the recorder and UFF files use), both
// ways. The composition root owns these mappings, so core and transport never see each other's
// types or AppConfig's JSON-shaped sections. Thread contract: pure functions.
#pragma once

#include <optional>

#include "sonolink/beamform/acquisition_geometry.h"
#include "sonolink/config/app_config.h"
#include "sonolink/transport/protocol/control_messages.h"

namespace sonolink::app {

[[nodiscard]] transport::Configure configureFrom(const config::AppConfig& config);
// How photoacoustic shots are reconstructed (acquisition.photoacoustic_*): their sound speed (0:
// the Configure's) and the delay from the laser's trigger to the sound's time zero.
struct PhotoacousticTiming {
    double soundSpeedMps = 0;
    double systemDelayS = 0;
};
[[nodiscard]] PhotoacousticTiming photoacousticTimingOf(const config::AppConfig& config);
// The geometry a live acquisition with this Configure produces (a linear array at its pitch); a
// photoacoustic one, a laser shot received only, its first sample `systemDelayS` before the
// sound's time zero, at the shots' own sound speed.
[[nodiscard]] beamform::AcquisitionGeometry geometryOf(const transport::Configure& configure, const PhotoacousticTiming& shots = {});
// Dual mode (a laser rate beside ultrasound frames): the geometry of its laser shots' frames;
// none without one.
[[nodiscard]] std::optional<beamform::AcquisitionGeometry> shotGeometryOf(const transport::Configure& configure, const PhotoacousticTiming& shots = {});
// A recording's geometry as a Configure (RF, as fast as credits allow): what replays it.
[[nodiscard]] transport::Configure configureOf(const beamform::AcquisitionGeometry& geometry);

}  // namespace sonolink::app
