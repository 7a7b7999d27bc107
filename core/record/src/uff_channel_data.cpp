#include "sonolink/record/uff_channel_data.h"

#include <fmt/format.h>

namespace sonolink::record {

Result<beamform::ChannelDataView> UffChannelData::frame(int index) const {
    if (index < 0 || index >= frames) return fail(ErrorCode::InvalidArgument, fmt::format("frame {} of {}", index, frames));
    const auto perFrame = geometry.samplesPerFrame();
    beamform::ChannelDataView view{&geometry, {}, {}};
    if (!data16.empty()) view.samples16 = std::span<const std::int16_t>(data16).subspan(static_cast<std::size_t>(index) * perFrame, perFrame);
    else if (!dataFloat.empty()) view.samples = std::span<const float>(dataFloat).subspan(static_cast<std::size_t>(index) * perFrame, perFrame);
    if (auto ok = isIq() ? geometry.validate() : view.validate(); !ok) return fail(std::move(ok.error()));
    return view;
}

std::span<const std::complex<float>> UffChannelData::iqFrame(int index) const {
    const auto perFrame = geometry.samplesPerFrame();
    if (!isIq() || index < 0 || index >= frames) return {};
    return std::span<const std::complex<float>>(dataIq).subspan(static_cast<std::size_t>(index) * perFrame, perFrame);
}

}  // namespace sonolink::record
