// RfTraces: the RF of chosen channels of the newest frame shown, as the RF view draws it: one
// trace of raw ADC counts per channel, sample k at t0Us + k * dtUs. The bridge makes these from
// the engine's RF lines; views never see the engine.
// Thread contract: a plain value: copy freely.
#pragma once

#include <QList>
#include <QtGlobal>

#include <cstdint>
#include <span>
#include <vector>

namespace sonolink::gui {

struct RfTraces {
    quint64 session = 0;
    quint32 frameId = 0;
    QList<int> channels;
    int samplesPerChannel = 0;
    double t0Us = 0;
    double dtUs = 0;
    std::vector<std::int16_t> samples;  // channel-major
    [[nodiscard]] std::span<const std::int16_t> trace(int index) const {
        return {samples.data() + static_cast<std::size_t>(index) * static_cast<std::size_t>(samplesPerChannel), static_cast<std::size_t>(samplesPerChannel)};
    }
};

}  // namespace sonolink::gui
