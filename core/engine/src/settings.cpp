// Validation of the run-time settings against the facade's limits.
#include "sonolink/engine/settings.h"

#include <fmt/format.h>

namespace sonolink::engine {
namespace {

void check(std::vector<std::string>& out, const char* what, double value, Limit limit, const char* unit) {
    if (!limit.holds(value))
        out.push_back(fmt::format("{} {:g}{}{}: must be {:g} to {:g}{}{}", what, value, *unit ? " " : "", unit, limit.min, limit.max, *unit ? " " : "", unit));
}

}  // namespace

std::vector<std::string> problems(const ImagingSettings& s) {
    std::vector<std::string> out;
    check(out, "gain", s.gainDb, limits::kGainDb, "dB");
    check(out, "dynamic range", s.dynamicRangeDb, limits::kDynamicRangeDb, "dB");
    check(out, "depth start", s.depthStartMm, limits::kDepthMm, "mm");
    check(out, "depth end", s.depthEndMm, limits::kDepthMm, "mm");
    if (!(s.depthEndMm > s.depthStartMm))
        out.push_back(fmt::format("depth {:g} to {:g} mm: the end must lie deeper than the start", s.depthStartMm, s.depthEndMm));
    check(out, "width", s.widthMm, limits::kWidthMm, "mm");
    check(out, "columns", s.columns, limits::kPixels, "");
    check(out, "rows", s.rows, limits::kPixels, "");
    check(out, "F-number", s.fNumber, limits::kFNumber, "");
    if (!limits::kTgcPoints.holds(static_cast<double>(s.tgcDb.size()))) {
        out.push_back(fmt::format("{} TGC points: {:g} to {:g}", s.tgcDb.size(), limits::kTgcPoints.min, limits::kTgcPoints.max));
    }
    for (std::size_t i = 0; i < s.tgcDb.size(); ++i) {
        const auto what = fmt::format("TGC point {}", i + 1);
        check(out, what.c_str(), s.tgcDb[i], limits::kTgcDb, "dB");
    }
    check(out, "persistence", s.persistence, limits::kPersistence, "");
    check(out, "display columns", s.displayColumns, limits::kDisplayPixels, "");
    check(out, "display rows", s.displayRows, limits::kDisplayPixels, "");
    return out;
}

bool beamformAlike(const ImagingSettings& a, const ImagingSettings& b) {
    return a.depthStartMm == b.depthStartMm && a.depthEndMm == b.depthEndMm && a.widthMm == b.widthMm && a.columns == b.columns && a.rows == b.rows &&
           a.fNumber == b.fNumber && a.window == b.window;
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

std::vector<std::string> problems(const PhotoacousticSettings& s) {
    std::vector<std::string> out;
    check(out, "photoacoustic gain", s.gainDb, limits::kGainDb, "dB");
    check(out, "photoacoustic dynamic range", s.dynamicRangeDb, limits::kDynamicRangeDb, "dB");
    check(out, "photoacoustic threshold", s.threshold, limits::kShotThreshold, "");
    check(out, "overlay opacity", s.opacity, limits::kShotOpacity, "");
    return out;
}

}  // namespace sonolink::engine
