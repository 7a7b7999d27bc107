// QtTest for StripChart and the link-health panel: the newest value's level against the warn
// and alarm thresholds, the window dropping old samples, a chart with nothing to measure saying
// why, and the panel's worst level and the cause of drops it names.
#include <QtTest>

#include <cmath>

#include "sonolink/gui/plot/link_health_panel.h"
#include "sonolink/gui/plot/strip_chart.h"

using sonolink::gui::HealthLevel;
using sonolink::gui::StripChart;

class TestStripChart : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void theLevelFollowsTheNewestValue() {
        StripChart chart("Latency", "ms", {"p50", "p99"}, 60);
        chart.setThresholds(100, 250);
        chart.addSample(0.5, {20, 40});
        QCOMPARE(chart.level(), HealthLevel::Good);
        chart.addSample(1.0, {20, 120});  // the largest series decides
        QCOMPARE(chart.level(), HealthLevel::Warn);
        chart.addSample(1.5, {300, 400});
        QCOMPARE(chart.level(), HealthLevel::Alarm);
        QVERIFY(chart.titleText().contains("300"));
        chart.addSample(2.0, {10, 20});
        QCOMPARE(chart.level(), HealthLevel::Good);
        QCOMPARE(chart.latest(1), 20.0);
    }

    void theLaserChartsSayWhenNoLaserFiresAndAlarmOnMissedShots() {
        sonolink::gui::LinkHealthPanel panel;
        sonolink::gui::LinkHealth h;
        h.seconds = 0.5;
        h.temperatureC = 40;
        h.clockOffsetUs = std::nan("");
        panel.addSample(h);  // no laser: dual mode off
        QVERIFY(panel.shots()->titleText().contains("no laser"));
        QVERIFY(panel.energy()->titleText().contains("no laser"));
        h.laserFires = true;
        h.seconds = 1.0;
        h.shotsFired = 10;
        h.shotEnergyMj = 19.8;
        panel.addSample(h);
        QCOMPARE(panel.shots()->latest(0), 10.0);
        QCOMPARE(panel.energy()->latest(0), 19.8);
        QCOMPARE(panel.missedShots()->level(), HealthLevel::Good);
        QCOMPARE(panel.shots()->level(), HealthLevel::Good);  // many shots fired is no alarm
        h.seconds = 1.5;
        h.shotsMissed = 1;
        panel.addSample(h);
        QCOMPARE(panel.missedShots()->level(), HealthLevel::Warn);
        h.seconds = 2.0;
        h.shotsMissed = 4;
        h.shotEnergyMj = std::nan("");
        panel.addSample(h);
        QCOMPARE(panel.missedShots()->level(), HealthLevel::Alarm);
        QCOMPARE(panel.worst(), HealthLevel::Alarm);
        QVERIFY(panel.energy()->titleText().contains("no pulse"));
    }

    void theWindowDropsOldSamples() {
        StripChart chart("Throughput", "Gb/s", {"payload"}, 10);
        for (int i = 0; i <= 40; ++i) chart.addSample(i * 0.5, {1.0 * i});
        QCOMPARE(chart.sampleCount(), std::size_t(21));  // 10 s to 20 s
        QCOMPARE(chart.latest(0), 40.0);
    }

    void aChartWithNothingToMeasureSaysWhy() {
        StripChart chart("PTP offset", "µs", {"offset"});
        chart.setUnavailable("no PTP clock");
        QVERIFY(chart.titleText().contains("no PTP clock"));
        QVERIFY(std::isnan(chart.latest(0)));
    }

    void thePanelNamesTheWorstCauseOfDrops() {
        sonolink::gui::LinkHealthPanel panel;
        sonolink::gui::LinkHealth h;
        h.seconds = 0.5;
        h.throughputGbps = 4;
        h.droppedIncomplete = 1;
        h.droppedNoBuffer = 7;
        h.temperatureC = 41;
        panel.addSample(h);
        QCOMPARE(panel.drops()->latest(0), 8.0);
        QCOMPARE(panel.drops()->level(), HealthLevel::Alarm);
        QVERIFY(panel.drops()->toolTip().contains("no free buffer"));
        QCOMPARE(panel.worst(), HealthLevel::Alarm);
        h.seconds = 1.0;
        h.temperatureC = std::nan("");
        panel.addSample(h);
        QVERIFY(panel.temperature()->titleText().contains("not reported"));
    }

    // The PTP chart shows how far the front end's clock is known to be off: the offset less the
    // path delay it cannot be told apart from (a slow reply is no alarm).
    void thePtpChartAlarmsOnlyOnAnOffsetKnownToBeThere() {
        sonolink::gui::LinkHealthPanel panel;
        sonolink::gui::LinkHealth h;
        h.seconds = 0.5;
        h.clockOffsetUs = std::nan("");
        panel.addSample(h);
        QVERIFY(panel.ptp()->titleText().contains("not measured"));
        h.seconds = 1.0;
        h.clockOffsetUs = 1500;
        h.clockPathDelayUs = 1400;
        panel.addSample(h);
        QCOMPARE(panel.ptp()->latest(0), 100.0);
        QCOMPARE(panel.ptp()->level(), HealthLevel::Warn);
        h.seconds = 1.5;
        h.clockOffsetUs = -2500;
        h.clockPathDelayUs = 20;
        panel.addSample(h);
        QCOMPARE(panel.ptp()->latest(0), 2480.0);
        QCOMPARE(panel.ptp()->level(), HealthLevel::Alarm);
    }
};

QTEST_MAIN(TestStripChart)
#include "tst_strip_chart.moc"
