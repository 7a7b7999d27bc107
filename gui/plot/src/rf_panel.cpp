#include "sonolink/gui/plot/rf_panel.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QVBoxLayout>

#include "sonolink/gui/plot/rf_trace_plot.h"

namespace sonolink::gui {
namespace {
constexpr int kMaxTraces = 8;
}

RfPanel::RfPanel(int channelCount, QWidget* parent)
    : QWidget(parent), channelCount_(channelCount), channels_(new QLineEdit), problem_(new QLabel), plot_(new RfTracePlot) {
    setObjectName("rfPanel");
    channels_->setObjectName("rfChannelsEdit");
    channels_->setPlaceholderText(tr("e.g. 0, 63, 127"));
    channels_->setToolTip(tr("Channels to show, 0 to %1, up to %2, separated by commas or spaces").arg(channelCount - 1).arg(kMaxTraces));
    problem_->setObjectName("rfProblemLabel");
    problem_->setStyleSheet("color: #d03030");
    plot_->setObjectName("rfPlot");
    plot_->setMinimumHeight(160);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Channels")));
    top->addWidget(channels_, 1);
    top->addWidget(problem_, 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(top);
    layout->addWidget(plot_, 1);
    connect(channels_, &QLineEdit::editingFinished, this, &RfPanel::choose);
}

QList<int> RfPanel::parseChannels(const QString& text, int channelCount, QString* problem) {
    QList<int> out;
    problem->clear();
    for (const auto& word : text.split(QRegularExpression("[,;\\s]+"), Qt::SkipEmptyParts)) {
        bool ok = false;
        const int c = word.toInt(&ok);
        if (!ok || c < 0 || c >= channelCount) {
            *problem = tr("%1 is not a channel (0 to %2)").arg(word).arg(channelCount - 1);
            return {};
        }
        if (!out.contains(c)) out << c;
    }
    if (out.size() > kMaxTraces) {
        *problem = tr("at most %1 channels at once").arg(kMaxTraces);
        return {};
    }
    return out;
}

void RfPanel::choose() {
    QString problem;
    const auto wanted = parseChannels(channels_->text(), channelCount_, &problem);
    problem_->setText(problem);
    if (!problem.isEmpty() || wanted == shown_) return;
    shown_ = wanted;
    plot_->clearTraces();
    Q_EMIT channelsChosen(wanted);
}

void RfPanel::showTraces(const RfTraces& traces) {
    for (qsizetype i = 0; i < traces.channels.size(); ++i) {
        if (!shown_.contains(traces.channels[i])) continue;  // a frame from before the last choice
        plot_->showTrace(traces.channels[i], traces.trace(static_cast<int>(i)), traces.t0Us, traces.dtUs);
    }
}

}  // namespace sonolink::gui
