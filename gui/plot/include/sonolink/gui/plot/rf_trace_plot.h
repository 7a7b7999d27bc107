// RfTracePlot: a Qwt plot of RF traces (one curve per selected channel) against time in µs.
// It draws what it is given: callers pass traces already decimated to about the widget's
// pixel width (min/max envelopes), never raw frames. All Qwt includes live in gui/plot.
// Thread contract: GUI thread only.
#pragma once

#include <span>
#include <vector>

#include <QString>
#include <qwt_plot.h>

class QwtPlotCurve;

namespace sonolink::gui {

class RfTracePlot : public QwtPlot {
    Q_OBJECT
public:
    explicit RfTracePlot(QWidget* parent = nullptr);
    ~RfTracePlot() override;

    // Shows one trace per channel; samples[i] is at time t0Us + i * dtUs. Replaces what was shown.
    void setTrace(int channel, std::span<const float> samples, double t0Us, double dtUs);
    // Removes every trace.
    void clearTraces();

    [[nodiscard]] int traceCount() const { return static_cast<int>(curves_.size()); }
    [[nodiscard]] QString traceTitle(int index) const;

private:
    struct Trace {
        int channel;
        QwtPlotCurve* curve;  // owned by the plot once attached
    };
    std::vector<Trace> curves_;
};

}  // namespace sonolink::gui
