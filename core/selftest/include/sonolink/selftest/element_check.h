// Element check: per channel, over a few frames of one scene (the front end's phantom), the RMS,
// the SNR (the frames' mean against what differs from frame to frame) and the correlation of the
// channel's envelope with its better neighbour; each channel flagged dead, weak, noisy, swapped
// (with the channel whose place its signal fits) or uncorrelated, against limits relative to the
// array's median channel, so that one set of limits serves every probe and phantom.
// Thread contract: pure functions.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sonolink/util/result.h"

namespace sonolink::selftest {

struct ElementLimits {
    double deadRmsFraction = 0.05;              // RMS under this fraction of the median channel's: dead
    double weakRmsFraction = 0.5;               // under this: weak
    double noisySnrDropDb = 10;                 // SNR this many dB under the median channel's: noisy
    double neighbourCorrelationFraction = 0.7;  // envelope correlation under this fraction of the median's: swapped or uncorrelated
};

// frames x waves x channels x samples, int16 as the front end sends them.
struct ChannelFrames {
    int frames = 0, waves = 0, channels = 0, samples = 0;
    std::span<const std::int16_t> data;
    double samplesPerPeriod = 8;  // sampling rate / centre frequency: the envelope's smoothing (two periods)
};

enum class ElementFault { None, Dead, Weak, Noisy, Swapped, Uncorrelated };
[[nodiscard]] const char* toString(ElementFault fault) noexcept;

struct ChannelFigures {
    double rms = 0;
    double snrDb = 0;                 // 0 when not measured (identical frames)
    double neighbourCorrelation = 0;  // the envelope's, with the better of its neighbours
    ElementFault fault = ElementFault::None;
    int swappedWith = -1;  // Swapped: the channel whose place this signal fits
};

struct ElementCheck {
    std::vector<ChannelFigures> channels;
    double medianRms = 0;
    double medianSnrDb = 0;
    double medianCorrelation = 0;
    bool snrMeasured = false;                        // the frames differed (noise of their own): SNR and noisy checked
    [[nodiscard]] std::vector<int> flagged() const;  // the channels with a fault, in order
};

// InvalidArgument for a shape that does not match the data, fewer than 3 channels or no frame.
[[nodiscard]] Result<ElementCheck> checkElements(const ChannelFrames& frames, const ElementLimits& limits);

}  // namespace sonolink::selftest
