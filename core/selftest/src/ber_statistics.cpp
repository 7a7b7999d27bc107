#include "sonolink/selftest/ber_statistics.h"

#include <cmath>
#include <limits>

#include "sonolink/util/assert.h"

namespace sonolink::selftest {
namespace {

// The regularised upper incomplete gamma function Q(a, x) = P(X < a; x) for a Poisson X of mean
// x (a an integer): a series below a + 1, a continued fraction above (as in Numerical Recipes).
double gammaQ(double a, double x) {
    if (x <= 0) return 1.0;
    const double logPrefix = a * std::log(x) - x - std::lgamma(a);
    if (x < a + 1) {
        double term = 1.0 / a, sum = term;
        for (int n = 1; n < 100000; ++n) {
            term *= x / (a + n);
            sum += term;
            if (std::fabs(term) < std::fabs(sum) * 1e-16) break;
        }
        return 1.0 - sum * std::exp(logPrefix);
    }
    const double tiny = std::numeric_limits<double>::min() / std::numeric_limits<double>::epsilon();
    double b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d;
    for (int i = 1; i < 100000; ++i) {
        const double an = -i * (i - a);
        b += 2;
        d = an * d + b;
        if (std::fabs(d) < tiny) d = tiny;
        c = b + an / c;
        if (std::fabs(c) < tiny) c = tiny;
        d = 1 / d;
        const double delta = d * c;
        h *= delta;
        if (std::fabs(delta - 1) < 1e-16) break;
    }
    return std::exp(logPrefix) * h;
}

// P(X <= k; m) for a Poisson X of mean m.
double poissonAtMost(std::uint64_t k, double m) { return gammaQ(static_cast<double>(k) + 1, m); }

// The m in [lo, hi] where f (decreasing in m) crosses target, by bisection to full precision.
template <typename F> double solveDecreasing(F f, double target, double lo, double hi) {
    while (f(hi) > target) hi *= 2;
    for (int i = 0; i < 200 && hi - lo > 1e-15 * hi; ++i) {
        const double mid = 0.5 * (lo + hi);
        (f(mid) > target ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

void checkConfidence(double confidence) { SONOLINK_ASSERT(confidence > 0 && confidence < 1, "a confidence level lies strictly between 0 and 1"); }

}  // namespace

double poissonUpperMean(std::uint64_t errors, double confidence) {
    checkConfidence(confidence);
    if (errors == 0) return -std::log1p(-confidence);
    const double e = static_cast<double>(errors);
    return solveDecreasing([&](double m) { return poissonAtMost(errors, m); }, 1 - confidence, e, e + 10 * std::sqrt(e) + 10);
}

double poissonLowerMean(std::uint64_t errors, double confidence) {
    checkConfidence(confidence);
    if (errors == 0) return 0;
    // P(X >= E; m) = 1 - P(X <= E - 1; m) grows with m: solve P(X <= E - 1; m) = confidence.
    const double e = static_cast<double>(errors);
    return solveDecreasing([&](double m) { return poissonAtMost(errors - 1, m); }, confidence, 0, e + 10);
}

BerEstimate estimateBer(std::uint64_t errors, std::uint64_t bits, double confidence) {
    if (bits == 0) return {0, 1, 0};
    const double n = static_cast<double>(bits);
    return {static_cast<double>(errors) / n, std::min(1.0, poissonUpperMean(errors, confidence) / n), std::min(1.0, poissonLowerMean(errors, confidence) / n)};
}

std::uint64_t bitsToShow(double limit, double confidence, std::uint64_t allowedErrors) {
    SONOLINK_ASSERT(limit > 0 && limit < 1, "a BER limit lies strictly between 0 and 1");
    return static_cast<std::uint64_t>(std::ceil(poissonUpperMean(allowedErrors, confidence) / limit));
}

std::string_view toString(BerVerdict verdict) noexcept {
    switch (verdict) {
        case BerVerdict::Pass: return "pass";
        case BerVerdict::Fail: return "fail";
        case BerVerdict::Undecided: return "undecided";
    }
    return "?";
}

BerVerdict berVerdict(std::uint64_t errors, std::uint64_t bits, double limit, double confidence) {
    const auto b = estimateBer(errors, bits, confidence);
    if (bits > 0 && b.upper <= limit) return BerVerdict::Pass;
    if (b.lower > limit) return BerVerdict::Fail;
    return BerVerdict::Undecided;
}

}  // namespace sonolink::selftest
