#include "sonolink/app/acquisition_setup.h"

#include <cmath>

namespace sonolink::app {

transport::Configure configureFrom(const config::AppConfig& config) {
    transport::Configure c;
    c.payloadKind = transport::PayloadKind::Rf;
    c.channelCount = static_cast<std::uint16_t>(config.probe.elementCount);
    c.samplesPerChannel = static_cast<std::uint32_t>(config.acquisition.samplesPerChannel);
    c.samplingRateHz = static_cast<std::uint32_t>(std::lround(config.acquisition.samplingRateHz));
    c.centerFrequencyHz = static_cast<std::uint32_t>(std::lround(config.probe.centerFrequencyHz));
    c.pitchNm = static_cast<std::uint32_t>(std::lround(config.probe.pitchM * 1e9));
    c.frameRateMilliHz = static_cast<std::uint32_t>(std::lround(config.acquisition.frameRateHz * 1000));
    c.soundSpeedMmPerS = static_cast<std::uint32_t>(std::lround(config.acquisition.soundSpeedMps * 1000));
    c.anglesMilliDeg.clear();
    for (double angle : config.acquisition.planeWaveAnglesDeg) c.anglesMilliDeg.push_back(static_cast<std::int32_t>(std::lround(angle * 1000)));
    return c;
}

}  // namespace sonolink::app
