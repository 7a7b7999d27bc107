#include "sonolink/selftest/element_check.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "correlation.h"

namespace sonolink::selftest {
namespace {

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
    std::nth_element(v.begin(), mid, v.end());
    return *mid;
}

// The frames' mean per channel (waves x samples each, channel-major), and each channel's power
// (mean square) and noise power (what differs from frame to frame, unbiased).
struct Moments {
    std::vector<std::vector<float>> mean;  // [channel][wave * samples + k]
    std::vector<double> power, noise;
};

Moments moments(const ChannelFrames& f) {
    const auto per = static_cast<std::size_t>(f.waves) * static_cast<std::size_t>(f.samples);
    Moments m;
    m.mean.assign(static_cast<std::size_t>(f.channels), std::vector<float>(per, 0.0f));
    m.power.assign(static_cast<std::size_t>(f.channels), 0.0);
    m.noise.assign(static_cast<std::size_t>(f.channels), 0.0);
    const auto at = [&](int frame, int wave, int channel) {
        return f.data.data() + ((static_cast<std::size_t>(frame) * f.waves + wave) * f.channels + channel) * static_cast<std::size_t>(f.samples);
    };
    for (int c = 0; c < f.channels; ++c) {
        auto& mean = m.mean[static_cast<std::size_t>(c)];
        double power = 0;
        for (int fr = 0; fr < f.frames; ++fr) {
            for (int w = 0; w < f.waves; ++w) {
                const auto* x = at(fr, w, c);
                for (int k = 0; k < f.samples; ++k) {
                    mean[static_cast<std::size_t>(w) * f.samples + k] += x[k];
                    power += static_cast<double>(x[k]) * x[k];
                }
            }
        }
        for (auto& v : mean) v /= static_cast<float>(f.frames);
        double noise = 0;
        for (int fr = 0; fr < f.frames; ++fr) {
            for (int w = 0; w < f.waves; ++w) {
                const auto* x = at(fr, w, c);
                for (int k = 0; k < f.samples; ++k) {
                    const double d = x[k] - mean[static_cast<std::size_t>(w) * f.samples + k];
                    noise += d * d;
                }
            }
        }
        const double n = static_cast<double>(f.frames) * static_cast<double>(per);
        m.power[static_cast<std::size_t>(c)] = power / n;
        m.noise[static_cast<std::size_t>(c)] = f.frames > 1 ? noise / n * f.frames / (f.frames - 1) : 0.0;
    }
    return m;
}

// The envelope of a channel's mean: rectified, then a moving average over two periods.
std::vector<float> envelope(const std::vector<float>& trace, int samples, int width) {
    std::vector<float> out(trace.size());
    for (std::size_t start = 0; start < trace.size(); start += static_cast<std::size_t>(samples)) {  // each wave on its own
        double sum = 0;
        const auto n = static_cast<std::size_t>(samples);
        const auto half = static_cast<std::size_t>(width / 2);
        for (std::size_t k = 0; k < std::min(half, n); ++k) sum += std::abs(trace[start + k]);
        for (std::size_t k = 0; k < n; ++k) {
            if (k + half < n) sum += std::abs(trace[start + k + half]);
            if (k >= half + 1) sum -= std::abs(trace[start + k - half - 1]);
            out[start + k] = static_cast<float>(sum);
        }
    }
    return out;
}

}  // namespace

const char* toString(ElementFault fault) noexcept {
    switch (fault) {
        case ElementFault::None: return "ok";
        case ElementFault::Dead: return "dead";
        case ElementFault::Weak: return "weak";
        case ElementFault::Noisy: return "noisy";
        case ElementFault::Swapped: return "swapped";
        case ElementFault::Uncorrelated: return "uncorrelated";
    }
    return "unknown";
}

std::vector<int> ElementCheck::flagged() const {
    std::vector<int> out;
    for (std::size_t c = 0; c < channels.size(); ++c) {
        if (channels[c].fault != ElementFault::None) out.push_back(static_cast<int>(c));
    }
    return out;
}

namespace {

// At least one frame of three channels, and as many samples as the shape says.
Status checkShape(const ChannelFrames& f) {
    if (f.frames < 1 || f.waves < 1 || f.channels < 3 || f.samples < 1) {
        return fail(ErrorCode::InvalidArgument, fmt::format("element check of {} frames x {} waves x {} channels x {} samples: at least one "
                                                            "frame of three channels is needed",
                                                            f.frames, f.waves, f.channels, f.samples));
    }
    if (f.data.size() != static_cast<std::size_t>(f.frames) * f.waves * f.channels * static_cast<std::size_t>(f.samples)) {
        return fail(ErrorCode::InvalidArgument, fmt::format("element check: {} samples for {} frames x {} waves x {} channels x {}", f.data.size(), f.frames,
                                                            f.waves, f.channels, f.samples));
    }
    return {};
}

// The misplaced channels paired: one is swapped with another whose place its signal fits
// (fitAt(channel, place) >= fits), and whose signal fits its place; the rest are uncorrelated.
template <typename FitAt> void pairSwapped(ElementCheck& r, const std::vector<std::size_t>& misplaced, double fits, const FitAt& fitAt) {
    for (const auto a : misplaced) {
        auto& ch = r.channels[a];
        if (ch.fault == ElementFault::Swapped) continue;
        for (const auto b : misplaced) {
            if (b == a || r.channels[b].fault == ElementFault::Swapped) continue;
            if (fitAt(a, b) >= fits && fitAt(b, a) >= fits) {
                ch.fault = r.channels[b].fault = ElementFault::Swapped;
                ch.swappedWith = static_cast<int>(b);
                r.channels[b].swappedWith = static_cast<int>(a);
                break;
            }
        }
        if (ch.fault != ElementFault::Swapped) ch.fault = ElementFault::Uncorrelated;
    }
}

}  // namespace

Result<ElementCheck> checkElements(const ChannelFrames& f, const ElementLimits& limits) {
    if (auto ok = checkShape(f); !ok) return fail(std::move(ok.error()));
    const auto m = moments(f);
    const auto channels = static_cast<std::size_t>(f.channels);
    ElementCheck r;
    r.channels.resize(channels);
    r.snrMeasured = f.frames > 1 && std::any_of(m.noise.begin(), m.noise.end(), [](double n) { return n > 0; });
    std::vector<double> rms(channels), snr(channels);
    for (std::size_t c = 0; c < channels; ++c) {
        auto& ch = r.channels[c];
        ch.rms = std::sqrt(m.power[c]);
        const double noise = m.noise[c], signal = std::max(m.power[c] - noise, 0.0);  // the mean's power, less the noise's
        ch.snrDb = r.snrMeasured ? 10 * std::log10(std::max(signal, 1e-12) / std::max(noise, 1e-12)) : 0.0;
        rms[c] = ch.rms;
        snr[c] = ch.snrDb;
    }
    const int width = std::max(2, static_cast<int>(std::lround(2 * f.samplesPerPeriod)));
    std::vector<std::vector<float>> env(channels);
    for (std::size_t c = 0; c < channels; ++c) env[c] = envelope(m.mean[c], f.samples, width);
    const auto rho = [&](std::size_t a, std::size_t b) { return pearson<float>(env[a], env[b]); };
    // Where channel c's signal fits: its correlation with the better neighbour of position p (not c itself).
    const auto fitAt = [&](std::size_t c, std::size_t p) {
        double best = -1;
        if (p > 0 && p - 1 != c) best = std::max(best, rho(c, p - 1));
        if (p + 1 < channels && p + 1 != c) best = std::max(best, rho(c, p + 1));
        return best;
    };
    std::vector<double> neighbour(channels);
    for (std::size_t c = 0; c < channels; ++c) neighbour[c] = r.channels[c].neighbourCorrelation = fitAt(c, c);
    r.medianRms = median(rms);
    r.medianSnrDb = median(snr);
    r.medianCorrelation = median(neighbour);
    std::vector<std::size_t> misplaced;
    for (std::size_t c = 0; c < channels; ++c) {
        auto& ch = r.channels[c];
        if (ch.rms < limits.deadRmsFraction * r.medianRms) ch.fault = ElementFault::Dead;
        else if (ch.rms < limits.weakRmsFraction * r.medianRms) ch.fault = ElementFault::Weak;
        else if (r.snrMeasured && ch.snrDb < r.medianSnrDb - limits.noisySnrDropDb) ch.fault = ElementFault::Noisy;
        else if (ch.neighbourCorrelation < limits.neighbourCorrelationFraction * r.medianCorrelation) misplaced.push_back(c);
    }
    pairSwapped(r, misplaced, limits.neighbourCorrelationFraction * r.medianCorrelation, fitAt);
    return r;
}

}  // namespace sonolink::selftest
