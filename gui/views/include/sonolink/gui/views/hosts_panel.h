// HostsPanel: a cluster's acquisition hosts as its display host follows them (docs/cluster.md):
// one row per host (its channels, where it connected from, its state coloured, partials joined,
// frames that went without it, late parts, its partials' latency and throughput, how long since
// it was heard, and why it was lost or refused), above them the frames joined, complete,
// incomplete and dropped, and the added latency. ClusterHosts: what the bridge hands it, made
// from the engine's statistics twice a second; views never see the engine.
// Thread contract: GUI thread only; ClusterHosts is a plain value.
#pragma once

#include <QList>
#include <QString>
#include <QWidget>

class QLabel;
class QTableWidget;

namespace sonolink::gui {

struct ClusterHostRow {
    QString name;
    QString address;
    QString state;  // waiting, joined, lost, refused, done
    int firstChannel = 0;
    int lastChannel = 0;  // [first, last)
    quint64 partials = 0;
    quint64 missing = 0;
    quint64 late = 0;
    quint64 losses = 0;
    double partialLatencyMs = 0;
    double megabytesPerSecond = 0;  // partials received since the sample before
    double heardAgoMs = 0;
    QString problem;
};

struct ClusterHosts {
    QString file;
    quint32 epoch = 0;
    quint64 complete = 0;
    quint64 incomplete = 0;
    quint64 dropped = 0;
    quint64 refused = 0;
    double addedLatencyP50Ms = 0;
    double addedLatencyP99Ms = 0;
    QList<ClusterHostRow> hosts;
};

class HostsPanel : public QWidget {
    Q_OBJECT
public:
    explicit HostsPanel(QWidget* parent = nullptr);

    void showHosts(const ClusterHosts& hosts);
    [[nodiscard]] int rowCount() const;
    [[nodiscard]] QString cellText(int row, int column) const;
    [[nodiscard]] QString summaryText() const;

private:
    QLabel* summary_;
    QTableWidget* table_;
};

}  // namespace sonolink::gui
