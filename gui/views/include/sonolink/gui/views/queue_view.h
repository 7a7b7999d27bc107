// QueueView: the PACS queue as the user follows it: one row per item (what, for whom, to which
// node, its state coloured, attempts, when next, why the last attempt failed), kept current as
// the bridge hands new snapshots (the selection follows its item); Retry sends a failed item
// again, Withdraw takes a waiting one out (it stays listed, failed, with the reason); each asks by a signal. QueueRow: one item's values.
// Thread contract: GUI thread only.
#pragma once

#include <QDateTime>
#include <QList>
#include <QString>
#include <QWidget>

class QLabel;
class QPushButton;
class QTableWidget;

namespace sonolink::gui {

struct QueueRow {
    QString id;
    QString node;
    QString file;
    QString patient;
    QString state;  // "queued", "sending", "sent", "committed", "failed"
    int attempts = 0;
    QDateTime nextAttempt;
    QString lastError;
    bool operator==(const QueueRow&) const = default;
};

class QueueView : public QWidget {
    Q_OBJECT
public:
    explicit QueueView(QWidget* parent = nullptr);

    void showQueue(const QList<QueueRow>& rows);
    [[nodiscard]] int rowCount() const;
    [[nodiscard]] QString stateOf(const QString& id) const;  // as shown ("" if not listed)
    void select(const QString& id);

Q_SIGNALS:
    void retryRequested(const QString& id);
    void withdrawRequested(const QString& id);

private:
    [[nodiscard]] const QueueRow* selected() const;
    void updateButtons();

    QTableWidget* table_;
    QPushButton* retry_;
    QPushButton* withdraw_;
    QLabel* summary_;
    QList<QueueRow> rows_;
};

}  // namespace sonolink::gui
