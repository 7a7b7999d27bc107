// RfTracePlot: a Qwt plot of RF traces (one curve per selected channel) against time in µs.
// showTrace() takes a channel's raw samples and draws their min/max envelope decimated to the
// canvas's pixel width (every peak kept, never more points than pixels twice over); setTrace()
// draws what it is given. All Qwt includes live in gui/plot.
// Thread contract: GUI thread only.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <QString>
#include <qwt_plot.h>

class QwtPlotCurve;

namespace sonolink::gui {

// The min/max envelope of raw in `buckets` equal spans: min then max of each (2 x buckets values,
// a value every half span); raw itself, as floats, when it has no more than 2 x buckets samples.
[[nodiscard]] std::vector<float> minMaxEnvelope(std::span<const std::int16_t> raw, int buckets);

class RfTracePlot : public QwtPlot {
    Q_OBJECT
public:
    explicit RfTracePlot(QWidget* parent = nullptr);
    ~RfTracePlot() override;

    // Shows one trace per channel; samples[i] is at time t0Us + i * dtUs. Replaces what was shown.
    void setTrace(int channel, std::span<const float> samples, double t0Us, double dtUs);
    // A channel's raw ADC samples (sample k at t0Us + k * dtUs), min/max-decimated to the canvas width.
    void showTrace(int channel, std::span<const std::int16_t> raw, double t0Us, double dtUs);
    // Removes every trace.
    void clearTraces();

    [[nodiscard]] int traceCount() const { return static_cast<int>(curves_.size()); }
    [[nodiscard]] QString traceTitle(int index) const;
    [[nodiscard]] std::size_t pointCount(int index) const;  // points the trace draws

private:
    struct Trace {
        int channel;
        QwtPlotCurve* curve;  // owned by the plot once attached
    };
    std::vector<Trace> curves_;
};

}  // namespace sonolink::gui
