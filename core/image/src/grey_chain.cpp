#include "sonolink/image/grey_chain.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "sonolink/util/assert.h"

namespace sonolink::image {
namespace {

// 20 log10(x) for x >= 0 to within 3e-5 dB (0 gives about -764 dB): the exponent from the bits,
// log2 of the mantissa from a polynomial, in a loop the compiler vectorises (std::log10 is a
// call per pixel).
inline float fastDb(float x) {
    const auto bits = std::bit_cast<std::uint32_t>(x);
    const auto exponent = static_cast<float>(static_cast<int>(bits >> 23) - 127);
    const float m = std::bit_cast<float>((bits & 0x007FFFFFu) | 0x3F800000u) - 1.0f;  // [0, 1)
    // log2(1 + m) = m q(m), least squares of degree 6 on [0, 1)
    float q = -0.026067318f;
    q = q * m + 0.121916875f;
    q = q * m - 0.277367800f;
    q = q * m + 0.456895411f;
    q = q * m - 0.717898607f;
    q = q * m + 1.442517042f;
    constexpr float kDbPerOctave = 6.0205999f;  // 20 log10(2)
    return kDbPerOctave * (exponent + m * q);
}

float greyCurve(GreyMap map, double u) {
    switch (map) {
        case GreyMap::Soft: return static_cast<float>(std::pow(u, 0.7));
        case GreyMap::Contrast: return static_cast<float>(u * u * (3 - 2 * u));
        case GreyMap::Linear: break;
    }
    return static_cast<float>(u);
}

}  // namespace

std::vector<float> depthGainDb(const std::vector<double>& tgcDb, double gainDb, int rows) {
    std::vector<float> out(static_cast<std::size_t>(std::max(rows, 0)), static_cast<float>(gainDb));
    const auto n = tgcDb.size();
    if (n == 0 || rows <= 0) return out;
    if (n == 1 || rows == 1) {
        for (auto& g : out) g += static_cast<float>(tgcDb.front());
        return out;
    }
    // Slopes per knot interval (knots at 0, 1, ..., n - 1): one-sided at the ends, the harmonic
    // mean of the neighbouring differences inside, 0 where they differ in sign (monotone).
    std::vector<double> slope(n);
    slope.front() = tgcDb[1] - tgcDb[0];
    slope.back() = tgcDb[n - 1] - tgcDb[n - 2];
    for (std::size_t k = 1; k + 1 < n; ++k) {
        const double before = tgcDb[k] - tgcDb[k - 1];
        const double after = tgcDb[k + 1] - tgcDb[k];
        slope[k] = before * after <= 0 ? 0 : 2 / (1 / before + 1 / after);
    }
    for (int r = 0; r < rows; ++r) {
        const double at = static_cast<double>(r) * static_cast<double>(n - 1) / (rows - 1);
        const auto k = std::min(static_cast<std::size_t>(at), n - 2);
        const double t = at - static_cast<double>(k);
        const double t2 = t * t;
        const double t3 = t2 * t;
        const double value = (2 * t3 - 3 * t2 + 1) * tgcDb[k] + (t3 - 2 * t2 + t) * slope[k] + (-2 * t3 + 3 * t2) * tgcDb[k + 1] + (t3 - t2) * slope[k + 1];
        out[static_cast<std::size_t>(r)] += static_cast<float>(value);
    }
    return out;
}

GreyChain::GreyChain(RasterResampler resampler, GreySettings settings) : resampler_(std::move(resampler)), settings_(std::move(settings)) {
    const auto pixels = static_cast<std::size_t>(raster().columns) * static_cast<std::size_t>(raster().rows);
    current_.resize(pixels);
    shown_.resize(pixels);
    build();
}

void GreyChain::setSettings(GreySettings settings) {
    settings_ = std::move(settings);
    build();
}

void GreyChain::build() {
    rowGainDb_ = depthGainDb(settings_.tgcDb, settings_.gainDb, raster().rows);
    greyLut_.resize(kLevels);
    for (int level = 0; level < kLevels; ++level) {
        const double u = static_cast<double>(level) / (kLevels - 1);
        greyLut_[static_cast<std::size_t>(level)] = static_cast<std::uint8_t>(std::lround(255 * std::clamp(greyCurve(settings_.greyMap, u), 0.0f, 1.0f)));
    }
}

void GreyChain::process(std::span<const float> envelopeColumnMajor, std::span<std::uint8_t> pixels, float referencePeak) {
    SONOLINK_ASSERT(envelopeColumnMajor.size() == resampler_.gridPixels() && pixels.size() == current_.size(), "picture: an image of another size");
    gridDb_.resize(envelopeColumnMajor.size());  // the grid's size is fixed: allocates on the first frame only
    float peak = referencePeak;
    if (peak <= 0) {
        for (float v : envelopeColumnMajor) peak = std::max(peak, std::abs(v));
    }
    const float scale = peak > 0 ? 1.0f / peak : 0.0f;  // an all-zero frame: every pixel far below the range
    for (std::size_t i = 0; i < envelopeColumnMajor.size(); ++i) gridDb_[i] = fastDb(std::abs(envelopeColumnMajor[i]) * scale);
    resampler_.resample(gridDb_, current_);

    const auto columns = static_cast<std::size_t>(raster().columns);
    const auto range = static_cast<float>(settings_.dynamicRangeDb);
    const float keep = primed_ ? static_cast<float>(settings_.persistence) : 0.0f;
    const float toLevel = static_cast<float>(kLevels - 1) / range;
    for (std::size_t r = 0; r < rowGainDb_.size(); ++r) {
        const float gain = rowGainDb_[r];
        float* now = current_.data() + r * columns;
        float* shown = shown_.data() + r * columns;
        std::uint8_t* out = pixels.data() + r * columns;
        for (std::size_t c = 0; c < columns; ++c) {
            float db = now[c] + gain;
            db = db > 0 ? 0.0f : (db >= -range ? db : -range);  // a NaN too becomes black
            shown[c] = keep * shown[c] + (1 - keep) * db;
            out[c] = greyLut_[static_cast<std::size_t>(static_cast<int>((shown[c] + range) * toLevel + 0.5f))];
        }
    }
    primed_ = true;
}

}  // namespace sonolink::image
