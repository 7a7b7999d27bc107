#include "sonolink/gui/plot/strip_chart.h"

#include <QPen>
#include <QVector>
#include <qwt_legend.h>
#include <qwt_plot_curve.h>
#include <qwt_plot_grid.h>
#include <qwt_plot_zoneitem.h>
#include <qwt_text.h>

#include <algorithm>
#include <limits>

namespace sonolink::gui {
namespace {

const QColor kSeriesColors[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xd6, 0x27, 0x28)};
const QColor kWarn(0xe0, 0x9a, 0x00), kAlarm(0xd0, 0x30, 0x30), kGood(0x2c, 0x8a, 0x2c);

QwtPlotZoneItem* zone(const QColor& colour, QwtPlot* plot) {
    auto* item = new QwtPlotZoneItem;
    item->setOrientation(Qt::Horizontal);
    QColor fill = colour;
    fill.setAlpha(40);
    item->setBrush(fill);
    item->setPen(QPen(colour, 0, Qt::DashLine));
    item->setVisible(false);
    item->attach(plot);
    return item;
}

}  // namespace

StripChart::StripChart(const QString& title, const QString& unit, const QStringList& series, double windowSeconds, QWidget* parent)
    : QwtPlot(parent), title_(title), unit_(unit), windowSeconds_(windowSeconds), values_(static_cast<std::size_t>(series.size())) {
    QFont small = axisFont(QwtPlot::xBottom);
    small.setPointSizeF(std::max(6.0, small.pointSizeF() - 2));
    setAxisFont(QwtPlot::xBottom, small);
    setAxisFont(QwtPlot::yLeft, small);
    QwtText unitTitle(unit);  // the time axis speaks for itself (seconds); the value axis names its unit
    unitTitle.setFont(small);
    setAxisTitle(QwtPlot::yLeft, unitTitle);
    setAxisScale(QwtPlot::xBottom, 0, windowSeconds);
    auto* grid = new QwtPlotGrid;
    grid->setMajorPen(QPen(Qt::gray, 0, Qt::DotLine));
    grid->attach(this);
    warnZone_ = zone(kWarn, this);
    alarmZone_ = zone(kAlarm, this);
    for (qsizetype i = 0; i < series.size(); ++i) {
        auto* curve = new QwtPlotCurve(series[i]);
        curve->setPen(kSeriesColors[static_cast<std::size_t>(i) % std::size(kSeriesColors)], 1.5);
        curve->attach(this);
        curves_.push_back(curve);
    }
    if (series.size() > 1) insertLegend(new QwtLegend, QwtPlot::RightLegend);
    scaleValues();
    showLevel();
}

// From 0 (or the lowest value) to above the highest value and the warn threshold, so a quiet
// chart shows its margin rather than magnifying noise.
void StripChart::scaleValues() {
    double low = 0, high = warn_ ? *warn_ * 1.25 : 1.0;
    for (const auto& series : values_) {
        for (double v : series) {
            low = std::min(low, v);
            high = std::max(high, v * 1.1);
        }
    }
    setAxisScale(QwtPlot::yLeft, low, high);
}

StripChart::~StripChart() = default;  // the plot deletes attached items

void StripChart::setThresholds(std::optional<double> warn, std::optional<double> alarm) {
    warn_ = warn;
    alarm_ = alarm;
    constexpr double kTop = std::numeric_limits<float>::max();
    if (warn) warnZone_->setInterval(*warn, alarm ? *alarm : kTop);
    if (alarm) alarmZone_->setInterval(*alarm, kTop);
    warnZone_->setVisible(warn.has_value());
    alarmZone_->setVisible(alarm.has_value());
    scaleValues();
    replot();
}

void StripChart::setUnavailable(const QString& why) {
    unavailable_ = why;
    showLevel();
}

void StripChart::addSample(double t, const std::vector<double>& values) {
    unavailable_.clear();
    times_.push_back(t);
    double largest = -std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < values_.size(); ++i) {
        const double v = i < values.size() ? values[i] : 0.0;
        values_[i].push_back(v);
        largest = std::max(largest, v);
    }
    while (!times_.empty() && times_.front() < t - windowSeconds_) {
        times_.pop_front();
        for (auto& series : values_) series.pop_front();
    }
    level_ = alarm_ && largest >= *alarm_ ? HealthLevel::Alarm : warn_ && largest >= *warn_ ? HealthLevel::Warn : HealthLevel::Good;
    const QVector<double> x(times_.begin(), times_.end());
    for (std::size_t i = 0; i < curves_.size(); ++i) curves_[i]->setSamples(x, QVector<double>(values_[i].begin(), values_[i].end()));
    setAxisScale(QwtPlot::xBottom, std::max(0.0, t - windowSeconds_), std::max(t, windowSeconds_));
    scaleValues();
    showLevel();
}

double StripChart::latest(int series) const {
    const auto& v = values_.at(static_cast<std::size_t>(series));
    return v.empty() ? std::numeric_limits<double>::quiet_NaN() : v.back();
}

QString StripChart::titleText() const { return title().text(); }

// The title: the chart's name and its newest value(s), coloured by level.
void StripChart::showLevel() {
    QString text = title_;
    QColor colour = palette().color(QPalette::WindowText);
    if (!unavailable_.isEmpty()) {
        text += QStringLiteral(": ") + unavailable_;
        colour = Qt::gray;
    } else if (!times_.empty()) {
        QStringList now;
        for (const auto& series : values_) now << QString::number(series.back(), 'g', 3);
        text += QStringLiteral(": ") + now.join(QStringLiteral(" / ")) + QStringLiteral(" ") + unit_;
        colour = level_ == HealthLevel::Alarm ? kAlarm : level_ == HealthLevel::Warn ? kWarn : kGood;
    }
    QwtText heading(text);
    QFont font = heading.font();
    font.setPointSizeF(std::max(7.0, font.pointSizeF()));
    font.setBold(true);
    heading.setFont(font);
    heading.setColor(colour);
    setTitle(heading);
    replot();
}

}  // namespace sonolink::gui
