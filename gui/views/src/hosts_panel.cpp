#include "sonolink/gui/views/hosts_panel.h"

#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTableWidget>
#include <QVBoxLayout>

namespace sonolink::gui {
namespace {

enum HostColumn {
    kHostName,
    kHostChannels,
    kHostAddress,
    kHostState,
    kHostPartials,
    kHostMissing,
    kHostLate,
    kHostLatency,
    kHostThroughput,
    kHostHeard,
    kHostProblem,
    kHostColumns
};

QString hostStateTitle(const QString& state) {
    if (state == "waiting") return HostsPanel::tr("waiting");
    if (state == "joined") return HostsPanel::tr("joined");
    if (state == "lost") return HostsPanel::tr("lost");
    if (state == "refused") return HostsPanel::tr("refused");
    if (state == "done") return HostsPanel::tr("done");
    return state;
}

QColor hostStateColour(const QString& state) {
    if (state == "lost" || state == "refused") return {0xd0, 0x30, 0x30};
    if (state == "joined") return {0x2c, 0x8a, 0x2c};
    return {0x80, 0x80, 0x80};
}

QString counted(quint64 n) { return QLocale().toString(n); }

// Why it was lost or refused, and how often it was lost.
QString lossText(const ClusterHostRow& h) {
    if (h.problem.isEmpty() || h.losses == 0) return h.problem;
    return h.losses == 1 ? HostsPanel::tr("%1 (lost once)").arg(h.problem) : HostsPanel::tr("%1 (lost %2 times)").arg(h.problem).arg(h.losses);
}

}  // namespace

HostsPanel::HostsPanel(QWidget* parent) : QWidget(parent), summary_(new QLabel), table_(new QTableWidget(0, kHostColumns)) {
    setObjectName("hostsPanel");
    summary_->setObjectName("hostsSummaryLabel");
    summary_->setWordWrap(true);
    table_->setObjectName("hostsTable");
    table_->setHorizontalHeaderLabels({tr("Host"), tr("Channels"), tr("Address"), tr("State"), tr("Partials"), tr("Frames without it"), tr("Late"),
                                       tr("Partial latency (ms)"), tr("MB/s"), tr("Heard (ms ago)"), tr("Problem")});
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->verticalHeader()->hide();
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionMode(QAbstractItemView::NoSelection);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(summary_);
    layout->addWidget(table_, 1);
    showHosts({});
}

void HostsPanel::showHosts(const ClusterHosts& c) {
    if (c.file.isEmpty()) {
        summary_->setText(tr("This station is not the display host of a cluster."));
    } else {
        summary_->setText(tr("Cluster %1, epoch %2: frames %3 complete, %4 incomplete, %5 dropped; %6 parts refused; added latency p50 %7 ms, p99 %8 ms")
                              .arg(c.file)
                              .arg(c.epoch)
                              .arg(counted(c.complete), counted(c.incomplete), counted(c.dropped), counted(c.refused))
                              .arg(c.addedLatencyP50Ms, 0, 'f', 2)
                              .arg(c.addedLatencyP99Ms, 0, 'f', 2));
    }
    table_->setRowCount(static_cast<int>(c.hosts.size()));
    for (int i = 0; i < c.hosts.size(); ++i) {
        const auto& h = c.hosts[i];
        const bool heard = h.state == "joined" || h.state == "lost";
        const QString cells[kHostColumns] = {h.name,
                                             QStringLiteral("%1–%2").arg(h.firstChannel).arg(h.lastChannel - 1),
                                             h.address,
                                             hostStateTitle(h.state),
                                             counted(h.partials),
                                             counted(h.missing),
                                             counted(h.late),
                                             heard ? QString::number(h.partialLatencyMs, 'f', 2) : QString(),
                                             heard ? QString::number(h.megabytesPerSecond, 'f', 1) : QString(),
                                             heard ? QString::number(h.heardAgoMs, 'f', 0) : QString(),
                                             lossText(h)};
        for (int column = 0; column < kHostColumns; ++column) {
            auto* item = table_->item(i, column);
            if (!item) {
                item = new QTableWidgetItem;
                table_->setItem(i, column, item);
            }
            item->setText(cells[column]);
            if (column == kHostState) item->setForeground(hostStateColour(h.state));
            if (column == kHostMissing) item->setForeground(h.missing > 0 ? hostStateColour("lost") : palette().color(QPalette::Text));
        }
    }
    table_->resizeColumnsToContents();
}

int HostsPanel::rowCount() const { return table_->rowCount(); }

QString HostsPanel::cellText(int row, int column) const {
    const auto* item = table_->item(row, column);
    return item ? item->text() : QString();
}

QString HostsPanel::summaryText() const { return summary_->text(); }

}  // namespace sonolink::gui
