// Bit error rate statistics, as BER testers state them: from E errors in N bits, the rate and its
// upper and lower bounds at a confidence level (Poisson: the mean whose chance of E or fewer, or
// of E or more, errors is 1 - CL; zero errors: -ln(1 - CL) / N), the bits a test needs to show a
// limit, and the verdict: pass when the upper bound is at or under the limit, fail as soon as the
// lower bound is above it (proven worse: the test may stop), undecided between.
// Thread contract: pure functions.
#pragma once

#include <cstdint>
#include <string_view>

namespace sonolink::selftest {

// The Poisson mean m with P(X <= errors; m) = 1 - confidence (the upper bound on the mean).
[[nodiscard]] double poissonUpperMean(std::uint64_t errors, double confidence);
// The Poisson mean m with P(X >= errors; m) = 1 - confidence (0 for no error).
[[nodiscard]] double poissonLowerMean(std::uint64_t errors, double confidence);

struct BerEstimate {
    double rate = 0;   // errors / bits
    double upper = 0;  // at the confidence level
    double lower = 0;
};
[[nodiscard]] BerEstimate estimateBer(std::uint64_t errors, std::uint64_t bits, double confidence);

// The error-free bits that show BER <= limit at the confidence (2.996e12 for 1e-12 at 95 %).
[[nodiscard]] std::uint64_t bitsToShow(double limit, double confidence, std::uint64_t allowedErrors = 0);

enum class BerVerdict { Pass, Fail, Undecided };
[[nodiscard]] std::string_view toString(BerVerdict verdict) noexcept;
[[nodiscard]] BerVerdict berVerdict(std::uint64_t errors, std::uint64_t bits, double limit, double confidence);

}  // namespace sonolink::selftest
