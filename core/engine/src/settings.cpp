// Validation of the run-time settings against the facade's limits.
#include "sonolink/engine/settings.h"

#include <fmt/format.h>

namespace sonolink::engine {
namespace {

void check(std::vector<std::string>& out, const char* what, double value, Limit limit, const char* unit) {
    if (!limit.holds(value)) out.push_back(fmt::format("{} {:g}{}{}: must be {:g} to {:g}{}{}", what, value, *unit ? " " : "", unit, limit.min, limit.max, *unit ? " " : "", unit));
}

}  // namespace

std::vector<std::string> problems(const ImagingSettings& s) {
    std::vector<std::string> out;
    check(out, "gain", s.gainDb, limits::kGainDb, "dB");
    check(out, "dynamic range", s.dynamicRangeDb, limits::kDynamicRangeDb, "dB");
    check(out, "depth start", s.depthStartMm, limits::kDepthMm, "mm");
    check(out, "depth end", s.depthEndMm, limits::kDepthMm, "mm");
    if (!(s.depthEndMm > s.depthStartMm)) out.push_back(fmt::format("depth {:g} to {:g} mm: the end must lie deeper than the start", s.depthStartMm, s.depthEndMm));
    check(out, "width", s.widthMm, limits::kWidthMm, "mm");
    check(out, "columns", s.columns, limits::kPixels, "");
    check(out, "rows", s.rows, limits::kPixels, "");
    check(out, "F-number", s.fNumber, limits::kFNumber, "");
    return out;
}

std::vector<std::string> problems(const AcquisitionSettings& s) {
    std::vector<std::string> out;
    if (!limits::kAngles.holds(static_cast<double>(s.anglesDeg.size()))) {
        out.push_back(fmt::format("{} angles: 1 to 32 transmits per frame", s.anglesDeg.size()));
    }
    for (double a : s.anglesDeg) check(out, "angle", a, limits::kAngleDeg, "degrees");
    check(out, "samples per channel", s.samplesPerChannel, limits::kSamples, "");
    check(out, "frame rate", s.frameRateHz, limits::kFrameRateHz, "Hz");
    check(out, "elements", s.elementCount, limits::kElements, "");
    check(out, "pitch", s.pitchMm, limits::kPitchMm, "mm");
    check(out, "centre frequency", s.centerFrequencyMHz, limits::kCenterFrequencyMHz, "MHz");
    return out;
}

}  // namespace sonolink::engine
