// The link BER measurement through the real data path: the simulated front end sends PRBS-31 in
// test-pattern blocks with bits flipped at a known rate (header and payload alike); ingest checks
// every test-pattern payload, CRC-good or not. At each rate the injected BER lies within the
// measured BER's 99.9 % confidence bounds, CRC errors are counted apart, and a clean link shows
// no error with the upper bound -ln(1 - CL) / N.
#include <cmath>

#include <gtest/gtest.h>

#include "sonolink/ingest/stream_session.h"
#include "sonolink/selftest/ber_statistics.h"
#include "sonolink/transport/sim/in_process_front_end.h"

namespace sonolink {
namespace {

struct Measured {
    ingest::IngestStats stats;
    std::uint64_t bitsFlipped = 0;
};

Measured measure(double injectedBer, std::uint32_t frames, std::uint64_t seed) {
    Measured m;
    auto link = transport::sim::SimLink::create({"", 64 * 1024, 256, std::chrono::milliseconds(5000)});
    EXPECT_TRUE(link) << link.error().describe();
    if (!link) return m;
    transport::sim::FrontEndOptions fe;
    fe.faults.bitErrorRate = injectedBer;
    fe.faults.seed = seed;
    auto frontEnd = transport::sim::InProcessFrontEnd::start(**link, fe);
    EXPECT_TRUE(frontEnd) << frontEnd.error().describe();
    if (!frontEnd) return m;
    ingest::SessionOptions options;
    options.configure.payloadKind = transport::PayloadKind::Prbs31;
    options.configure.channelCount = 128;
    options.configure.samplesPerChannel = 255;  // one 64 KiB slot per transmit
    options.configure.anglesMilliDeg = {-7000, -5000, -3000, -1000, 1000, 3000, 5000, 7000};
    options.configure.frameRateMilliHz = 0;
    options.ingest.checkTestPatterns = true;
    auto session = ingest::StreamSession::open(**link, options);
    EXPECT_TRUE(session) << session.error().describe();
    if (!session) return m;
    std::atomic<bool> stop{false};
    auto summary = (*session)->run(frames, stop);
    EXPECT_TRUE(summary) << summary.error().describe();
    (*frontEnd)->join();
    if (summary) m.stats = summary->stats;
    m.bitsFlipped = (*frontEnd)->simulator().faults().bitsFlipped;
    return m;
}

TEST(LinkBerTest, TheInjectedRateLiesWithinTheMeasuredBounds) {
    constexpr double kConfidence = 0.999;
    for (const double ber : {1e-7, 1e-6, 1e-5}) {
        // Enough bits for about 300 errors (8 blocks of 65,280 payload bytes per frame).
        const auto frames = static_cast<std::uint32_t>(std::max(50.0, std::ceil(300 / ber / (8 * 65280.0 * 8))));
        const auto m = measure(ber, frames, static_cast<std::uint64_t>(-std::log10(ber)));
        const auto& p = m.stats.patterns;
        ASSERT_GT(p.bitErrors, 0u) << ber;
        const auto bounds = selftest::estimateBer(p.bitErrors, p.bitsChecked, kConfidence);
        EXPECT_LE(bounds.lower, ber) << "measured " << bounds.rate << " (" << p.bitErrors << " in " << p.bitsChecked << " bits)";
        EXPECT_GE(bounds.upper, ber) << "measured " << bounds.rate << " (" << p.bitErrors << " in " << p.bitsChecked << " bits)";
        EXPECT_LE(p.bitErrors, m.bitsFlipped);                      // never more than were flipped
        EXPECT_GT(p.bitsChecked, 0.95 * 8 * 65280.0 * 8 * frames);  // nearly every payload bit sent
        EXPECT_GT(m.stats.payloadCrcErrors, 0u);                    // the damaged blocks, counted apart
        EXPECT_LE(m.stats.payloadCrcErrors, p.bitErrors + p.lockLosses);
        RecordProperty("ber_" + std::to_string(ber), std::to_string(bounds.rate));
    }
}

TEST(LinkBerTest, ACleanLinkHasNoErrorAndTheBoundOfItsBits) {
    const auto m = measure(0, 200, 1);
    const auto& p = m.stats.patterns;
    EXPECT_EQ(p.bitErrors, 0u);
    EXPECT_EQ(p.lockLosses, 0u);
    EXPECT_EQ(p.bitsChecked, 200ull * 8 * (65280 * 8 - 31));  // each block locks on its first 31 bits
    const auto bounds = selftest::estimateBer(0, p.bitsChecked, 0.95);
    EXPECT_NEAR(bounds.upper * static_cast<double>(p.bitsChecked), -std::log(0.05), 1e-9);
}

}  // namespace
}  // namespace sonolink
