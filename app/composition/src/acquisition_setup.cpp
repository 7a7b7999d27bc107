#include "sonolink/app/acquisition_setup.h"

#include <cmath>
#include <numbers>

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
    c.laserRateMilliHz = static_cast<std::uint32_t>(std::lround(config.acquisition.laserRateHz * 1000));
    c.anglesMilliDeg.clear();
    for (double angle : config.acquisition.planeWaveAnglesDeg) c.anglesMilliDeg.push_back(static_cast<std::int32_t>(std::lround(angle * 1000)));
    return c;
}

PhotoacousticTiming photoacousticTimingOf(const config::AppConfig& config) {
    return {config.acquisition.photoacousticSoundSpeedMps, config.acquisition.photoacousticSystemDelayS};
}

beamform::AcquisitionGeometry geometryOf(const transport::Configure& c, const PhotoacousticTiming& shots) {
    beamform::AcquisitionGeometry g;
    g.waves = c.waveCount();
    g.channels = c.channelCount;
    g.samples = static_cast<int>(c.samplesPerChannel);
    g.samplingRateHz = c.samplingRateHz;
    g.soundSpeedMps = c.soundSpeedMmPerS * 1e-3;
    g.elementX = beamform::linearArrayElementX(g.channels, c.pitchNm * 1e-9);
    if (c.photoacoustic) {  // a laser shot: received only
        g.angleRad = {0.0};
        g.photoacoustic = {true};
        if (shots.soundSpeedMps > 0) g.soundSpeedMps = shots.soundSpeedMps;
        g.initialTimeS = -shots.systemDelayS;
    } else {
        for (auto a : c.anglesMilliDeg) g.angleRad.push_back(a * 1e-3 * std::numbers::pi / 180);
    }
    return g;
}

std::optional<beamform::AcquisitionGeometry> shotGeometryOf(const transport::Configure& c, const PhotoacousticTiming& shots) {
    if (c.laserRateMilliHz == 0 || c.photoacoustic) return std::nullopt;
    auto shot = c;
    shot.photoacoustic = true;
    shot.laserRateMilliHz = 0;
    return geometryOf(shot, shots);
}

transport::Configure configureOf(const beamform::AcquisitionGeometry& g) {
    transport::Configure c;
    c.payloadKind = transport::PayloadKind::Rf;
    c.channelCount = static_cast<std::uint16_t>(g.channels);
    c.samplesPerChannel = static_cast<std::uint32_t>(g.samples);
    c.samplingRateHz = static_cast<std::uint32_t>(std::lround(g.samplingRateHz));
    c.soundSpeedMmPerS = static_cast<std::uint32_t>(std::lround(g.soundSpeedMps * 1000));
    c.pitchNm = g.elementX.size() > 1 ? static_cast<std::uint32_t>(std::lround((g.elementX[1] - g.elementX[0]) * 1e9)) : 300'000;
    c.frameRateMilliHz = 0;
    c.photoacoustic = g.isShot();  // a recording of laser shots replays as shots
    c.anglesMilliDeg.clear();
    for (double a : g.angleRad) c.anglesMilliDeg.push_back(static_cast<std::int32_t>(std::lround(a * 180 / std::numbers::pi * 1000)));
    return c;
}

}  // namespace sonolink::app
