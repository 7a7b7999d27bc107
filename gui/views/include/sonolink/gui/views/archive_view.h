// ArchiveView: the S3 archive's upload queue as the user follows it: one row per finished
// recording or exported study (what, where to, its state coloured, attempts, size, when next or
// when verified, whether the local copy is kept, deleted by retention or kept because it changed,
// why the last attempt failed), kept current as the bridge hands new snapshots; Retry queues a
// failed upload again by a signal. Without an archive it says how to configure one.
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

struct ArchiveRow {
    qint64 id = 0;
    QString kind;  // "recording", "study"
    QString file;
    QString url;    // s3://bucket/key
    QString state;  // "queued", "uploading", "verified", "failed"
    int attempts = 0;
    quint64 sizeBytes = 0;
    QDateTime nextAttempt;
    QDateTime verifiedAt;
    QDateTime localDeletedAt;       // invalid: kept
    bool localKeptChanged = false;  // the file changed since its upload: kept for good
    QString lastError;
    bool operator==(const ArchiveRow&) const = default;
};

class ArchiveView : public QWidget {
    Q_OBJECT
public:
    explicit ArchiveView(QWidget* parent = nullptr);

    // configured: whether the station has an archive (archive.endpoint) at all.
    void showArchive(const QList<ArchiveRow>& rows, bool configured);
    [[nodiscard]] int rowCount() const;
    [[nodiscard]] QString stateOf(qint64 id) const;  // as listed ("" if not)
    [[nodiscard]] QString summary() const;
    void select(qint64 id);

Q_SIGNALS:
    void retryRequested(qint64 id);

private:
    [[nodiscard]] const ArchiveRow* selected() const;
    void updateButtons();

    QTableWidget* table_;
    QPushButton* retry_;
    QLabel* summary_;
    QList<ArchiveRow> rows_;
};

}  // namespace sonolink::gui
