#include "sonolink/gui/plot/rf_trace_plot.h"

#include <QPen>
#include <QWidget>
#include <algorithm>
#include <QVector>
#include <qwt_legend.h>
#include <qwt_plot_curve.h>
#include <qwt_plot_grid.h>
#include <qwt_text.h>

namespace sonolink::gui {
namespace {
const QColor kTraceColors[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e), QColor(0x2c, 0xa0, 0x2c), QColor(0xd6, 0x27, 0x28)};
}

std::vector<float> minMaxEnvelope(std::span<const std::int16_t> raw, int buckets) {
    const std::size_t n = raw.size(), b = static_cast<std::size_t>(std::max(1, buckets));
    if (n <= 2 * b) return {raw.begin(), raw.end()};
    std::vector<float> out;
    out.reserve(2 * b);
    for (std::size_t i = 0; i < b; ++i) {
        const auto [low, high] =
            std::minmax_element(raw.begin() + static_cast<std::ptrdiff_t>(i * n / b), raw.begin() + static_cast<std::ptrdiff_t>((i + 1) * n / b));
        out.push_back(*low);
        out.push_back(*high);
    }
    return out;
}

void RfTracePlot::showTrace(int channel, std::span<const std::int16_t> raw, double t0Us, double dtUs) {
    const int buckets = std::max(16, canvas()->width());
    const auto points = minMaxEnvelope(raw, buckets);
    const double step = points.size() == raw.size() ? dtUs : dtUs * static_cast<double>(raw.size()) / static_cast<double>(points.size());
    setTrace(channel, points, t0Us, step);
}

std::size_t RfTracePlot::pointCount(int index) const { return curves_.at(static_cast<std::size_t>(index)).curve->dataSize(); }

RfTracePlot::RfTracePlot(QWidget* parent) : QwtPlot(parent) {
    setAxisTitle(QwtPlot::xBottom, tr("time (µs)"));
    setAxisTitle(QwtPlot::yLeft, tr("amplitude (ADC counts)"));
    auto* grid = new QwtPlotGrid;
    grid->setMajorPen(QPen(Qt::gray, 0, Qt::DotLine));
    grid->attach(this);
    insertLegend(new QwtLegend, QwtPlot::BottomLegend);
}

RfTracePlot::~RfTracePlot() = default;  // the plot deletes attached items

void RfTracePlot::setTrace(int channel, std::span<const float> samples, double t0Us, double dtUs) {
    QwtPlotCurve* curve = nullptr;
    for (const auto& trace : curves_) {
        if (trace.channel == channel) curve = trace.curve;
    }
    if (!curve) {
        curve = new QwtPlotCurve(tr("channel %1").arg(channel));
        const auto colorCount = std::size(kTraceColors);
        curve->setPen(kTraceColors[curves_.size() % colorCount], 1.0);
        curve->setPaintAttribute(QwtPlotCurve::FilterPoints, true);
        curve->attach(this);
        curves_.push_back({channel, curve});
    }
    QVector<double> x(static_cast<qsizetype>(samples.size()));
    QVector<double> y(static_cast<qsizetype>(samples.size()));
    for (std::size_t i = 0; i < samples.size(); ++i) {
        x[static_cast<qsizetype>(i)] = t0Us + static_cast<double>(i) * dtUs;
        y[static_cast<qsizetype>(i)] = samples[i];
    }
    curve->setSamples(x, y);
    replot();
}

void RfTracePlot::clearTraces() {
    for (auto& trace : curves_) {
        trace.curve->detach();
        delete trace.curve;
    }
    curves_.clear();
    replot();
}

QString RfTracePlot::traceTitle(int index) const { return curves_.at(static_cast<std::size_t>(index)).curve->title().text(); }

}  // namespace sonolink::gui
