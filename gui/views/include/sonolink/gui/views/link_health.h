// LinkHealth: one sample of the link's health for the link-health panel, over the interval since
// the sample before: throughput, CRC errors, frames lost by cause, latency, the front end's
// temperature (NaN: not reported), its clock's offset from the host's (NaN: not measured) and,
// in dual mode, the laser's shots fired and missed and its pulse energy. The bridge makes these from the engine's statistics about
// twice a second; views never see the engine.
// Thread contract: a plain value: copy freely.
#pragma once

#include <algorithm>
#include <cmath>

#include <QtGlobal>

namespace sonolink::gui {

struct LinkHealth {
    double seconds = 0;  // since the bridge started
    double throughputGbps = 0;
    quint64 crcErrors = 0;  // in this interval
    quint64 headerErrors = 0;
    // Frames lost in this interval, by cause: no free buffer on the host, blocks missing (frame
    // incomplete), frames never seen, whole frames the front end dropped for want of credit, and
    // frames that arrived whole but the beamformer refused to image (nothing new on the screen).
    quint64 droppedNoBuffer = 0;
    quint64 droppedIncomplete = 0;
    quint64 droppedMissing = 0;
    quint64 droppedFrontEnd = 0;
    quint64 notImaged = 0;
    double latencyP50Ms = 0;  // block written -> picture ready
    double latencyP99Ms = 0;
    double temperatureC = 0;      // NaN before the front end reports one
    double clockOffsetUs = 0;     // the front end's clock minus the host's; NaN: not measured this session
    double clockPathDelayUs = 0;  // that exchange's path delay: the offset is known to within it
    // Dual mode's laser: whether one fires; shots in this interval (fired; missed, late or dark:
    // never imaged); the last pulse energy (NaN: none fired); totals; pulse to picture, p99.
    bool laserFires = false;
    quint64 shotsFired = 0;
    quint64 shotsMissed = 0;
    double shotEnergyMj = 0;
    quint64 shotsFiredTotal = 0;
    quint64 shotsMissedTotal = 0;
    double shotToShownP99Ms = 0;
    // How far the front end's clock is off at least: |offset| less what the exchange cannot tell apart.
    [[nodiscard]] double clockOffsetAtLeastUs() const { return std::max(0.0, std::abs(clockOffsetUs) - clockPathDelayUs); }
    [[nodiscard]] quint64 dropped() const { return droppedNoBuffer + droppedIncomplete + droppedMissing + droppedFrontEnd + notImaged; }
};

}  // namespace sonolink::gui
