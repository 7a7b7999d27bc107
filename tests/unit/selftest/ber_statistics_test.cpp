// BER statistics against the figures BER testers print: Keysight J-BERT N4903B's table of the
// bits that show BER < 1e-12 at 95 % for 0 to 6 errors, its early-fail figure, and the chi-square
// identity; verdicts on both sides of a limit.
#include "sonolink/selftest/ber_statistics.h"

#include <cmath>

#include <gtest/gtest.h>

namespace sonolink::selftest {
namespace {

TEST(BerStatisticsTest, TheBitsThatShowALimitAreTheInstrumentsTable) {
    // J-BERT N4903B user guide p. 247: x 1e12 bits for BER < 1e-12 at 95 % with 0..6 errors.
    const double table[] = {2.996, 4.744, 6.296, 7.754, 9.154, 10.51, 11.84};
    for (std::uint64_t e = 0; e < 7; ++e) {
        EXPECT_NEAR(static_cast<double>(bitsToShow(1e-12, 0.95, e)) / 1e12, table[e], 0.006) << e << " errors";
    }
    EXPECT_NEAR(poissonUpperMean(0, 0.95), -std::log(0.05), 1e-12);  // -ln(1 - CL)
    EXPECT_NEAR(poissonUpperMean(0, 0.90), -std::log(0.10), 1e-12);
}

TEST(BerStatisticsTest, OneErrorEarlyProvesARateAboveTheLimit) {
    // "BER > 1e-12 is proven after 1 error in <= 0.05129e12 bits" (the same guide).
    EXPECT_NEAR(poissonLowerMean(1, 0.95), 0.05129, 1e-5);
    EXPECT_EQ(berVerdict(1, 50'000'000'000ull, 1e-12, 0.95), BerVerdict::Fail);
    EXPECT_EQ(berVerdict(1, 60'000'000'000ull, 1e-12, 0.95), BerVerdict::Undecided);
}

TEST(BerStatisticsTest, BoundsFollowTheChiSquareIdentityForManyErrors) {
    // Upper bound = chi2(CL; 2(E+1)) / 2: for large E about E + z sqrt(E) + (z^2 + 2) / 3, the
    // lower about E - z sqrt(E) + (z^2 - 1) / 3 (z = 1.645 at 95 %).
    for (std::uint64_t e : {100ull, 10'000ull, 1'000'000ull}) {
        const double x = static_cast<double>(e);
        EXPECT_NEAR(poissonUpperMean(e, 0.95), x + 1.645 * std::sqrt(x) + 1.57, 0.02 * std::sqrt(x) + 0.5) << e;
        EXPECT_NEAR(poissonLowerMean(e, 0.95), x - 1.645 * std::sqrt(x) + 0.57, 0.02 * std::sqrt(x) + 0.5) << e;
    }
    // Exact: P(X <= 3; m) = 0.05 at m = 7.7537.
    EXPECT_NEAR(poissonUpperMean(3, 0.95), 7.7537, 1e-3);
}

TEST(BerStatisticsTest, VerdictsOnBothSidesOfTheLimit) {
    EXPECT_EQ(berVerdict(0, 3'000'000'000'000ull, 1e-12, 0.95), BerVerdict::Pass);
    EXPECT_EQ(berVerdict(0, 2'990'000'000'000ull, 1e-12, 0.95), BerVerdict::Undecided);
    EXPECT_EQ(berVerdict(0, 0, 1e-12, 0.95), BerVerdict::Undecided);
    EXPECT_EQ(berVerdict(100, 1'000'000, 1e-6, 0.95), BerVerdict::Fail);
    const auto b = estimateBer(10, 1'000'000'000, 0.95);
    EXPECT_DOUBLE_EQ(b.rate, 1e-8);
    EXPECT_GT(b.upper, b.rate);
    EXPECT_LT(b.lower, b.rate);
    EXPECT_EQ(toString(BerVerdict::Undecided), "undecided");
}

}  // namespace
}  // namespace sonolink::selftest
