// StripChart: a Qwt strip chart of one or two named series against time (the last windowSeconds
// shown, older samples dropped), with warn and alarm thresholds: the bands above them are tinted
// and the title takes the colour of the newest value's level, so a glance tells the state.
// Used by the link-health panel. All Qwt includes live in gui/plot.
// Thread contract: GUI thread only.
#pragma once

#include <QString>
#include <QStringList>
#include <qwt_plot.h>

#include <deque>
#include <optional>
#include <vector>

class QwtPlotCurve;
class QwtPlotZoneItem;

namespace sonolink::gui {

enum class HealthLevel { Good, Warn, Alarm };

class StripChart : public QwtPlot {
    Q_OBJECT
public:
    // One curve per name in series; unit labels the value axis.
    StripChart(const QString& title, const QString& unit, const QStringList& series, double windowSeconds = 60, QWidget* parent = nullptr);
    ~StripChart() override;

    // Values at or above warn (alarm) are Warn (Alarm); unset: never.
    void setThresholds(std::optional<double> warn, std::optional<double> alarm);
    // One sample of every series at time t (seconds, increasing); values.size() == series count.
    void addSample(double t, const std::vector<double>& values);
    // Shown instead of the curves' state when there is nothing to measure ("no PTP clock").
    void setUnavailable(const QString& why);

    [[nodiscard]] std::size_t sampleCount() const { return times_.size(); }
    [[nodiscard]] double latest(int series) const;
    [[nodiscard]] HealthLevel level() const { return level_; }  // of the newest sample's largest value
    [[nodiscard]] QString titleText() const;

private:
    void showLevel();
    void scaleValues();

    QString title_;
    QString unit_;
    double windowSeconds_;
    std::vector<QwtPlotCurve*> curves_;  // owned by the plot once attached
    std::deque<double> times_;
    std::vector<std::deque<double>> values_;
    std::optional<double> warn_, alarm_;
    QwtPlotZoneItem* warnZone_ = nullptr;
    QwtPlotZoneItem* alarmZone_ = nullptr;
    HealthLevel level_ = HealthLevel::Good;
    QString unavailable_;
};

}  // namespace sonolink::gui
