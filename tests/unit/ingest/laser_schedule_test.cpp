// LaserSchedule: shots placed on the front end's clock at the laser's rate and handed out a lead
// ahead; a shot whose time passed before it could go counted late and never sent; reports
// accounted once each, strangers refused; the energies and fire-time errors summed up.
#include "sonolink/ingest/laser_schedule.h"

#include <gtest/gtest.h>

namespace sonolink::ingest {
namespace {

using transport::ShotOutcome;
using transport::ShotReport;
constexpr std::uint64_t kMs = 1'000'000;

TEST(LaserScheduleTest, HandsOutEachShotALeadAheadAtTheLasersRate) {
    LaserSchedule schedule(20'000, std::chrono::milliseconds(100));  // 20 Hz: 50 ms apart
    const std::uint64_t t0 = 1'000'000 * kMs;
    auto first = schedule.due(t0);
    ASSERT_TRUE(first);
    EXPECT_EQ(first->shotId, 0u);
    EXPECT_EQ(first->fireTimeNs, t0 + 100 * kMs);
    EXPECT_FALSE(schedule.due(t0 + 49 * kMs));  // shot 1 (t0 + 150 ms) is not yet within the lead
    auto second = schedule.due(t0 + 50 * kMs);
    ASSERT_TRUE(second);
    EXPECT_EQ(second->fireTimeNs, t0 + 150 * kMs);
    EXPECT_FALSE(schedule.due(t0 + 50 * kMs));
    EXPECT_EQ(schedule.counts().scheduled, 2u);
    EXPECT_EQ(schedule.counts().pending(), 2u);
}

TEST(LaserScheduleTest, AShotWhoseTimeWentByIsCountedLateAndNeverSent) {
    LaserSchedule schedule(100'000, std::chrono::milliseconds(20));  // 100 Hz: 10 ms apart
    const std::uint64_t t0 = 5'000 * kMs;
    ASSERT_TRUE(schedule.due(t0));  // shot 0 at t0 + 20 ms, shot 1 at t0 + 30 ms ...
    // The host stalls 75 ms: shots 1..5 (t0 + 30 .. 70 ms) are past; 6 and 7 (80, 90 ms) are within
    // the lead (up to t0 + 95 ms), 8 (100 ms) is not yet.
    int sent = 0;
    std::uint32_t firstSent = 0;
    while (auto trigger = schedule.due(t0 + 75 * kMs)) {
        if (sent++ == 0) firstSent = trigger->shotId;
        EXPECT_GT(trigger->fireTimeNs, t0 + 75 * kMs);
    }
    EXPECT_EQ(firstSent, 6u);
    EXPECT_EQ(sent, 2);
    EXPECT_EQ(schedule.counts().late, 5u);
    EXPECT_EQ(schedule.counts().lateBeforeSending, 5u);
}

TEST(LaserScheduleTest, ReportsAreAccountedOnceAndStrangersRefused) {
    LaserSchedule schedule(10'000, std::chrono::milliseconds(100));
    const std::uint64_t t0 = 7'000 * kMs;
    auto shot0 = schedule.due(t0);
    auto shot1 = schedule.due(t0 + 100 * kMs);
    ASSERT_TRUE(shot0 && shot1);
    EXPECT_TRUE(schedule.account(ShotReport{0, 40, ShotOutcome::Fired, shot0->fireTimeNs + 700, 21'000}));
    EXPECT_FALSE(schedule.account(ShotReport{0, 40, ShotOutcome::Fired, shot0->fireTimeNs + 700, 21'000}));  // twice
    EXPECT_FALSE(schedule.account(ShotReport{9, 41, ShotOutcome::Fired, 1, 1}));                             // never sent
    EXPECT_TRUE(schedule.account(ShotReport{1, 0, ShotOutcome::Missed, 0, 0}));
    const auto& c = schedule.counts();
    EXPECT_EQ(c.fired, 1u);
    EXPECT_EQ(c.missed, 1u);
    EXPECT_EQ(c.unmatched, 2u);
    EXPECT_EQ(c.pending(), 0u);
    EXPECT_EQ(c.worstFireErrorNs, 700);
    EXPECT_EQ(c.lastEnergyMicroJ, 21'000u);
    const auto carried = schedule.shotOfFrame(40);
    ASSERT_TRUE(carried);
    EXPECT_EQ(carried->shotId, 0u);
    EXPECT_EQ(carried->scheduledNs, shot0->fireTimeNs);
    EXPECT_FALSE(schedule.shotOfFrame(0));  // the missed shot carries no frame
}

TEST(LaserScheduleTest, EnergyMeanAndSpreadOfTheFiredShots) {
    LaserSchedule schedule(0);  // photoacoustic-only: the front end times its shots
    const std::uint32_t energies[] = {19'000, 20'000, 21'000};
    for (std::uint32_t i = 0; i < 3; ++i) EXPECT_TRUE(schedule.account(ShotReport{i, i, ShotOutcome::Fired, 1000 + i, energies[i]}));
    EXPECT_DOUBLE_EQ(schedule.counts().meanEnergyMicroJ, 20'000);
    EXPECT_DOUBLE_EQ(schedule.counts().energySdMicroJ(), 1'000);
    EXPECT_FALSE(schedule.due(1'000'000));  // it schedules nothing
}

TEST(LaserScheduleTest, ShotsUnansweredAtTheStopAreWithdrawn) {
    LaserSchedule schedule(50'000, std::chrono::milliseconds(100));
    while (schedule.due(1'000 * kMs)) {
    }
    const auto sent = schedule.counts().scheduled;
    EXPECT_GT(sent, 0u);
    schedule.withdrawPending();
    EXPECT_EQ(schedule.counts().withdrawn, sent);
    EXPECT_EQ(schedule.counts().pending(), 0u);
}

}  // namespace
}  // namespace sonolink::ingest
