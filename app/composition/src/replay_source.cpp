#include "sonolink/app/replay_source.h"

#include <cmath>
#include <cstring>
#include <numbers>

#include <fmt/format.h>

namespace sonolink::app {

Result<std::shared_ptr<const record::UffChannelData>> loadRecording(const std::string& path) {
    auto data = record::readUffChannelData(path);
    if (!data) return fail(std::move(data.error()));
    if (data->data16.empty()) {
        return fail(ErrorCode::Unimplemented, fmt::format("{} holds float samples; the front end replays int16 ADC samples only", path));
    }
    return std::shared_ptr<const record::UffChannelData>(std::make_shared<record::UffChannelData>(std::move(*data)));
}

decltype(transport::sim::FrontEndOptions::frameSource) replayFrameSource(std::shared_ptr<const record::UffChannelData> recording) {
    return [recording](const transport::Configure& c, const transport::sim::FrameLayout&) -> Result<std::vector<std::vector<std::byte>>> {
        const auto& r = *recording;
        if (c.channelCount != r.channels || static_cast<int>(c.samplesPerChannel) != r.samples ||
            static_cast<int>(c.anglesMilliDeg.size()) != r.waves || c.photoacoustic) {
            return fail(ErrorCode::InvalidArgument, fmt::format("the configuration ({} channels x {} samples, {} waves) does not match the recording "
                                                                "({} channels x {} samples, {} waves)", c.channelCount, c.samplesPerChannel,
                                                                c.anglesMilliDeg.size(), r.channels, r.samples, r.waves));
        }
        const auto count = std::size_t(r.waves) * std::size_t(r.channels) * std::size_t(r.samples);
        std::vector<std::vector<std::byte>> frames;
        for (int f = 0; f < r.frames; ++f) {
            std::vector<std::byte> bytes(count * 2);
            std::memcpy(bytes.data(), r.data16.data() + std::size_t(f) * count, bytes.size());  // little-endian host and wire
            frames.push_back(std::move(bytes));
        }
        return frames;
    };
}

transport::Configure acquisitionFromRecording(const record::UffChannelData& r) {
    transport::Configure c;
    c.payloadKind = transport::PayloadKind::Rf;
    c.channelCount = static_cast<std::uint16_t>(r.channels);
    c.samplesPerChannel = static_cast<std::uint32_t>(r.samples);
    c.samplingRateHz = static_cast<std::uint32_t>(std::lround(r.samplingFrequencyHz));
    c.soundSpeedMmPerS = static_cast<std::uint32_t>(std::lround(r.soundSpeedMps * 1000));
    c.pitchNm = r.elementX.size() > 1 ? static_cast<std::uint32_t>(std::lround((r.elementX[1] - r.elementX[0]) * 1e9)) : 300'000;
    c.frameRateMilliHz = 0;
    c.anglesMilliDeg.clear();
    for (double a : r.angleRad) c.anglesMilliDeg.push_back(static_cast<std::int32_t>(std::lround(a * 180 / std::numbers::pi * 1000)));
    return c;
}

record::UffChannelData recordingMetadataFor(const transport::Configure& c) {
    record::UffChannelData m;
    m.samplingFrequencyHz = c.samplingRateHz;
    m.soundSpeedMps = c.soundSpeedMmPerS * 1e-3;
    m.waves = c.photoacoustic ? 1 : static_cast<int>(c.anglesMilliDeg.size());
    m.channels = c.channelCount;
    m.samples = static_cast<int>(c.samplesPerChannel);
    for (int e = 0; e < m.channels; ++e) m.elementX.push_back((e - (m.channels - 1) / 2.0) * c.pitchNm * 1e-9);
    if (c.photoacoustic) m.angleRad = {0.0};
    else for (auto a : c.anglesMilliDeg) m.angleRad.push_back(a * 1e-3 * std::numbers::pi / 180);
    return m;
}

}  // namespace sonolink::app
