#include "sonolink/app/replay_source.h"

#include <cstring>

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
        if (c.channelCount != r.geometry.channels || static_cast<int>(c.samplesPerChannel) != r.geometry.samples ||
            static_cast<int>(c.anglesMilliDeg.size()) != r.geometry.waves || c.photoacoustic) {
            return fail(ErrorCode::InvalidArgument, fmt::format("the configuration ({} channels x {} samples, {} waves) does not match the recording "
                                                                "({} channels x {} samples, {} waves)", c.channelCount, c.samplesPerChannel,
                                                                c.anglesMilliDeg.size(), r.geometry.channels, r.geometry.samples, r.geometry.waves));
        }
        const auto count = std::size_t(r.geometry.waves) * std::size_t(r.geometry.channels) * std::size_t(r.geometry.samples);
        std::vector<std::vector<std::byte>> frames;
        for (int f = 0; f < r.frames; ++f) {
            std::vector<std::byte> bytes(count * 2);
            std::memcpy(bytes.data(), r.data16.data() + std::size_t(f) * count, bytes.size());  // little-endian host and wire
            frames.push_back(std::move(bytes));
        }
        return frames;
    };
}

}  // namespace sonolink::app
