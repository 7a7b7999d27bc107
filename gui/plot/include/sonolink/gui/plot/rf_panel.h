// RfPanel: the engineer's RF view: the channels to show typed as a list ("0, 63, 127", up to
// eight), checked against the probe's channel count, and their traces of the newest frame,
// min/max-decimated to the plot's width. Fed RfTraces; asks for channels by a signal.
// Thread contract: GUI thread only.
#pragma once

#include <QList>
#include <QWidget>

#include "sonolink/gui/views/rf_traces.h"

class QLabel;
class QLineEdit;

namespace sonolink::gui {

class RfTracePlot;

class RfPanel : public QWidget {
    Q_OBJECT
public:
    explicit RfPanel(int channelCount, QWidget* parent = nullptr);

    void showTraces(const RfTraces& traces);
    [[nodiscard]] RfTracePlot* plot() const { return plot_; }
    // "0, 63" -> {0, 63}; empty with *problem set when a number is not a channel or there are too many.
    [[nodiscard]] static QList<int> parseChannels(const QString& text, int channelCount, QString* problem);

Q_SIGNALS:
    void channelsChosen(const QList<int>& channels);

private:
    void choose();

    int channelCount_;
    QLineEdit* channels_;
    QLabel* problem_;
    RfTracePlot* plot_;
    QList<int> shown_;
};

}  // namespace sonolink::gui
