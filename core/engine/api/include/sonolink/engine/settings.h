// Run-time settings the GUI changes through the facade: imaging (the grid and beamformer, and
// the picture: TGC, gain, dynamic range, persistence, grey map, display raster; applied from the
// next frame) and acquisition (applied at the next connect), their limits (the configuration
// loader holds its file to the same ones) and their validation, which names every value out of range.
// Thread contract: plain values and pure functions.
#pragma once

#include <string>
#include <vector>

namespace sonolink::engine {

struct Limit {
    double min;
    double max;
    [[nodiscard]] constexpr bool holds(double v) const noexcept { return v >= min && v <= max; }
};

namespace limits {
inline constexpr Limit kGainDb{-60, 60};
inline constexpr Limit kDynamicRangeDb{10, 120};
inline constexpr Limit kDepthMm{0.5, 300};
inline constexpr Limit kWidthMm{0, 300};   // 0: the probe's aperture
inline constexpr Limit kPixels{16, 4096};  // rows and columns of the image
inline constexpr Limit kFNumber{0.1, 20};
inline constexpr Limit kAngleDeg{-45, 45};
inline constexpr Limit kAngles{1, 32};       // transmits per frame
inline constexpr Limit kSamples{64, 65536};  // per channel
inline constexpr Limit kFrameRateHz{0.1, 20000};
inline constexpr Limit kElements{1, 256};
inline constexpr Limit kPitchMm{0.01, 5};
inline constexpr Limit kCenterFrequencyMHz{0.5, 50};
inline constexpr Limit kTgcDb{-40, 40};  // each time-gain control point
inline constexpr Limit kTgcPoints{8, 32};
inline constexpr Limit kPersistence{0, 0.95};     // the weight of the picture shown before
inline constexpr Limit kDisplayPixels{64, 4096};  // the display raster's box
inline constexpr Limit kShotThreshold{0, 1};      // of the photoacoustic colour scale
inline constexpr Limit kShotOpacity{0, 1};
}  // namespace limits

enum class Apodization { Rectangular, Hann, Tukey };

// How the dynamic range is spread over the grey levels: evenly; low echoes lifted (gamma 0.7);
// an S-curve (mid-greys spread).
enum class GreyMap { Linear, Soft, Contrast };

struct ImagingSettings {
    double gainDb = 0;
    double dynamicRangeDb = 60;
    double depthStartMm = 3;
    double depthEndMm = 38;
    double widthMm = 0;  // lateral span of the image, centred; 0: the probe's aperture
    int columns = 256;
    int rows = 512;  // at least: the engine beamforms more where the depth step would pass c / (7 f0)
    double fNumber = 1.5;
    Apodization window = Apodization::Hann;
    // The picture (changing these leaves the beamformer as it is): time-gain compensation in dB
    // at points spread evenly from the depth start to the depth end, joined smoothly; frame
    // averaging; the grey map; the box the display raster fits at equal mm per pixel.
    std::vector<double> tgcDb = std::vector<double>(8, 0.0);
    double persistence = 0;  // 0: off
    GreyMap greyMap = GreyMap::Linear;
    int displayColumns = 512;
    int displayRows = 512;
    bool operator==(const ImagingSettings&) const = default;
};
// Whether a and b beamform alike (the same grid, F-number and window): a change between them
// is one of the picture only.
[[nodiscard]] bool beamformAlike(const ImagingSettings& a, const ImagingSettings& b);

struct AcquisitionSettings {
    std::vector<double> anglesDeg{0.0};  // plane-wave steering angles, one transmit each
    int samplesPerChannel = 2048;
    double frameRateHz = 30;
    int elementCount = 128;  // the probe
    double pitchMm = 0.3;
    double centerFrequencyMHz = 5;
    bool operator==(const AcquisitionSettings&) const = default;
};

// Laser shots on screen: ultrasound only, photoacoustic only, the shots as a colour overlay on
// the latest B-mode (co-registered: the same grid), or the two side by side.
enum class ShotView { Ultrasound, Photoacoustic, Overlay, SideBySide };
// Perceptual maps (lightness rises monotonically): hot (black, red, yellow, white) and iron
// (black, violet, orange, yellow, white, as a thermal camera's).
enum class ShotColourMap { Hot, Iron };

struct PhotoacousticSettings {
    ShotView view = ShotView::Overlay;
    ShotColourMap map = ShotColourMap::Hot;
    double gainDb = 0;  // the shots' own picture: gain and dynamic range
    double dynamicRangeDb = 30;
    double threshold = 0.35;       // below this fraction of the colour scale: not drawn
    double opacity = 0.7;          // of the colour over the B-mode
    bool normaliseEnergy = false;  // each shot scaled by the session's mean pulse energy over its own
    bool operator==(const PhotoacousticSettings&) const = default;
};

// Every value out of its limit or inconsistent, in words ("gain 80 dB: must be -60 to 60 dB");
// empty when all are fine.
[[nodiscard]] std::vector<std::string> problems(const ImagingSettings& settings);
[[nodiscard]] std::vector<std::string> problems(const AcquisitionSettings& settings);
[[nodiscard]] std::vector<std::string> problems(const PhotoacousticSettings& settings);

}  // namespace sonolink::engine
