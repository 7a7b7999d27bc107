// QtTest for RfTracePlot: curves are created per channel, replaced in place, and cleared;
// the axis range follows the data given.
#include <QtTest>
#include <qwt_plot_curve.h>
#include <qwt_scale_div.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "sonolink/gui/plot/rf_trace_plot.h"

class TestRfTracePlot : public QObject {
    Q_OBJECT
private slots:
    void oneCurvePerChannel() {
        sonolink::gui::RfTracePlot plot;
        std::vector<float> a(100, 1.0f), b(50, -2.0f);
        plot.setTrace(3, a, 0.0, 0.025);
        plot.setTrace(7, b, 0.0, 0.025);
        plot.setTrace(3, b, 0.0, 0.025);  // replaces channel 3's samples
        QCOMPARE(plot.traceCount(), 2);
        QCOMPARE(plot.traceTitle(0), QString("channel 3"));
        QCOMPARE(plot.traceTitle(1), QString("channel 7"));
        const auto curves = plot.itemList(QwtPlotItem::Rtti_PlotCurve);
        QCOMPARE(curves.size(), 2);
        QCOMPARE(static_cast<QwtPlotCurve*>(curves[0])->dataSize(), size_t(50));
    }

    void axisFollowsTime() {
        sonolink::gui::RfTracePlot plot;
        std::vector<float> samples(400);
        for (size_t i = 0; i < samples.size(); ++i) samples[i] = static_cast<float>(i % 7) - 3.0f;
        plot.setTrace(0, samples, 5.0, 0.025);  // 5 µs .. 14.975 µs
        plot.resize(600, 300);
        plot.replot();
        const QwtScaleDiv& x = plot.axisScaleDiv(QwtPlot::xBottom);
        QVERIFY(x.lowerBound() <= 5.0);
        QVERIFY(x.upperBound() >= 14.975);
        QVERIFY(x.upperBound() < 30.0);
    }

    void theEnvelopeKeepsEveryPeak() {
        std::vector<std::int16_t> raw(2048, 0);
        raw[1001] = 900;  // one-sample spikes that plain subsampling would miss
        raw[1502] = -700;
        const auto env = sonolink::gui::minMaxEnvelope(raw, 300);
        QCOMPARE(env.size(), std::size_t(600));
        QCOMPARE(*std::max_element(env.begin(), env.end()), 900.0f);
        QCOMPARE(*std::min_element(env.begin(), env.end()), -700.0f);
        const std::vector<std::int16_t> few(100, 3);
        QCOMPARE(sonolink::gui::minMaxEnvelope(few, 300).size(), std::size_t(100));  // short traces as they are
    }

    void showTraceDecimatesToTheCanvas() {
        sonolink::gui::RfTracePlot plot;
        plot.resize(400, 300);
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        std::vector<std::int16_t> raw(4096);
        for (std::size_t i = 0; i < raw.size(); ++i) raw[i] = static_cast<std::int16_t>((i * 37) % 2000 - 1000);
        const auto width = static_cast<std::size_t>(plot.canvas()->width());  // the trace's axis labels may narrow it after
        plot.showTrace(2, raw, 10.0, 0.025);
        QVERIFY(plot.pointCount(0) <= 2 * width);
        QVERIFY(plot.pointCount(0) < raw.size());
        const QwtScaleDiv& x = plot.axisScaleDiv(QwtPlot::xBottom);
        QVERIFY(x.upperBound() >= 10.0 + 4095 * 0.025 - 0.1);  // the span kept
    }

    void clearRemovesEverything() {
        sonolink::gui::RfTracePlot plot;
        std::vector<float> a(10, 0.5f);
        plot.setTrace(1, a, 0.0, 1.0);
        plot.clearTraces();
        QCOMPARE(plot.traceCount(), 0);
        QCOMPARE(plot.itemList(QwtPlotItem::Rtti_PlotCurve).size(), 0);
    }
};

QTEST_MAIN(TestRfTracePlot)
#include "tst_rf_trace_plot.moc"
