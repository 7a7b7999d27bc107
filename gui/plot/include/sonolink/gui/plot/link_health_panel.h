// LinkHealthPanel: the engineer's view of the link, one strip chart each for throughput, CRC and
// header errors, frames dropped (the worst cause named), latency p50/p99, the PTP offset and the
// front end's temperature, and in dual mode the laser's shots fired and missed and its pulse
// energy, over the last minute, each with its warn and alarm thresholds coloured. Fed LinkHealth
// samples; knows nothing of the engine.
// Thread contract: GUI thread only.
#pragma once

#include <QWidget>

#include "sonolink/gui/plot/strip_chart.h"
#include "sonolink/gui/views/link_health.h"

namespace sonolink::gui {

class LinkHealthPanel : public QWidget {
    Q_OBJECT
public:
    explicit LinkHealthPanel(QWidget* parent = nullptr);

    void addSample(const LinkHealth& health);
    // The PTP offset's chart says why it has no values ("no PTP clock on this station").
    void setPtpUnavailable(const QString& why) { ptp_->setUnavailable(why); }

    [[nodiscard]] StripChart* throughput() const { return throughput_; }
    [[nodiscard]] StripChart* errors() const { return errors_; }
    [[nodiscard]] StripChart* drops() const { return drops_; }
    [[nodiscard]] StripChart* latency() const { return latency_; }
    [[nodiscard]] StripChart* ptp() const { return ptp_; }
    [[nodiscard]] StripChart* temperature() const { return temperature_; }
    [[nodiscard]] StripChart* shots() const { return shots_; }
    [[nodiscard]] StripChart* missedShots() const { return missed_; }
    [[nodiscard]] StripChart* energy() const { return energy_; }
    [[nodiscard]] HealthLevel worst() const;

private:
    void addShots(const LinkHealth& health);

    StripChart* throughput_;
    StripChart* errors_;
    StripChart* drops_;
    StripChart* latency_;
    StripChart* ptp_;
    StripChart* temperature_;
    StripChart* shots_;
    StripChart* missed_;
    StripChart* energy_;
};

}  // namespace sonolink::gui
