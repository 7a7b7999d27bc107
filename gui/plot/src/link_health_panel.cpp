#include "sonolink/gui/plot/link_health_panel.h"

#include <QGridLayout>

#include <algorithm>
#include <cmath>

namespace sonolink::gui {
namespace {

StripChart* chart(const QString& objectName, const QString& title, const QString& unit, const QStringList& series) {
    auto* c = new StripChart(title, unit, series);
    c->setObjectName(objectName);
    c->setMinimumSize(220, 110);
    return c;
}

}  // namespace

LinkHealthPanel::LinkHealthPanel(QWidget* parent)
    : QWidget(parent), throughput_(chart("throughputChart", tr("Throughput"), tr("Gb/s"), {tr("payload")})),
      errors_(chart("errorsChart", tr("CRC / header errors"), tr("per 0.5 s"), {tr("CRC"), tr("header")})),
      drops_(chart("dropsChart", tr("Frames dropped"), tr("per 0.5 s"), {tr("dropped")})),
      latency_(chart("latencyChart", tr("Latency"), tr("ms"), {tr("p50"), tr("p99")})),
      ptp_(chart("ptpChart", tr("PTP offset"), tr("µs"), {tr("|offset|, at least")})),
      temperature_(chart("temperatureChart", tr("Front-end temperature"), tr("°C"), {tr("temperature")})),
      shots_(chart("shotsChart", tr("Laser shots fired"), tr("per 0.5 s"), {tr("fired")})),
      missed_(chart("missedShotsChart", tr("Laser shots missed"), tr("per 0.5 s"), {tr("missed, late or dark")})),
      energy_(chart("energyChart", tr("Pulse energy"), tr("mJ"), {tr("last pulse")})) {
    setObjectName("linkHealthPanel");
    errors_->setThresholds(1, 10);  // any error is worth a look; ten in half a second is a bad link
    drops_->setThresholds(1, 5);
    latency_->setThresholds(100, 250);         // the picture more than a few frame periods behind the probe
    ptp_->setThresholds(100, 1000);            // the self-test's PTP limit is 1 ms (its magnitude, either way)
    temperature_->setThresholds(60, 75);       // an FPGA board's usual warn and shut-down margins
    missed_->setThresholds(1, 3);              // a missed shot is worth a look; three in half a second, an alarm
    ptp_->setUnavailable(tr("not measured"));  // until the session's first clock exchange
    for (auto* c : {shots_, missed_, energy_}) c->setUnavailable(tr("no laser (dual mode off)"));
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(2, 2, 2, 2);
    StripChart* const charts[] = {throughput_, errors_, drops_, latency_, ptp_, temperature_, shots_, missed_, energy_};
    for (int i = 0; i < 9; ++i) grid->addWidget(charts[i], i / 3, i % 3);
}

// The laser's shots: fired and missed (a miss is worth a look; a few in half a second, an alarm),
// and the last pulse's energy.
void LinkHealthPanel::addShots(const LinkHealth& h) {
    if (!h.laserFires) {
        for (auto* c : {shots_, missed_, energy_}) c->setUnavailable(tr("no laser (dual mode off)"));
        return;
    }
    shots_->addSample(h.seconds, {static_cast<double>(h.shotsFired)});
    missed_->addSample(h.seconds, {static_cast<double>(h.shotsMissed)});
    shots_->setToolTip(tr("%1 shots fired, %2 missed, late or dark in all; pulse to picture p99 %3 ms")
                           .arg(h.shotsFiredTotal)
                           .arg(h.shotsMissedTotal)
                           .arg(h.shotToShownP99Ms, 0, 'f', 1));
    if (std::isnan(h.shotEnergyMj)) energy_->setUnavailable(tr("no pulse in this interval"));
    else energy_->addSample(h.seconds, {h.shotEnergyMj});
}

void LinkHealthPanel::addSample(const LinkHealth& h) {
    throughput_->addSample(h.seconds, {h.throughputGbps});
    errors_->addSample(h.seconds, {static_cast<double>(h.crcErrors), static_cast<double>(h.headerErrors)});
    drops_->addSample(h.seconds, {static_cast<double>(h.dropped())});
    if (h.dropped() > 0) {  // the cause, where the engineer looks first
        const std::pair<quint64, QString> causes[] = {{h.droppedNoBuffer, tr("no free buffer")},
                                                      {h.droppedIncomplete, tr("blocks missing")},
                                                      {h.droppedMissing, tr("frames never seen")},
                                                      {h.droppedFrontEnd, tr("front end out of credit")}};
        const auto worst = std::max_element(std::begin(causes), std::end(causes), [](const auto& a, const auto& b) { return a.first < b.first; });
        drops_->setToolTip(tr("Most dropped: %1 (%2)").arg(worst->second).arg(worst->first));
    }
    latency_->addSample(h.seconds, {h.latencyP50Ms, h.latencyP99Ms});
    if (std::isnan(h.clockOffsetUs)) ptp_->setUnavailable(tr("not measured"));
    else ptp_->addSample(h.seconds, {h.clockOffsetAtLeastUs()});  // alarmed only when known to be off
    if (std::isnan(h.temperatureC)) temperature_->setUnavailable(tr("not reported"));
    else temperature_->addSample(h.seconds, {h.temperatureC});
    addShots(h);
}

HealthLevel LinkHealthPanel::worst() const {
    HealthLevel w = HealthLevel::Good;
    for (const auto* c : {throughput_, errors_, drops_, latency_, ptp_, temperature_, shots_, missed_, energy_}) w = std::max(w, c->level());
    return w;
}

}  // namespace sonolink::gui
