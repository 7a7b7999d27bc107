#include "sonolink/gui/views/archive_view.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace sonolink::gui {
namespace {

enum ArchiveColumn {
    kArchiveKind,
    kArchiveFile,
    kArchiveObject,
    kArchiveState,
    kArchiveAttempts,
    kArchiveSize,
    kArchiveWhen,
    kArchiveLocal,
    kArchiveError,
    kArchiveColumns
};

QString archiveStateTitle(const QString& state) {
    if (state == "queued") return ArchiveView::tr("queued");
    if (state == "uploading") return ArchiveView::tr("uploading");
    if (state == "verified") return ArchiveView::tr("verified");
    if (state == "failed") return ArchiveView::tr("failed");
    return state;
}

QColor archiveStateColour(const QString& state) {
    if (state == "failed") return {0xd0, 0x30, 0x30};
    if (state == "verified") return {0x2c, 0x8a, 0x2c};
    if (state == "uploading") return {0x1f, 0x77, 0xb4};
    return {0x80, 0x80, 0x80};
}

QString kindTitle(const QString& kind) {
    if (kind == "recording") return ArchiveView::tr("Recording");
    if (kind == "study") return ArchiveView::tr("Study");
    return kind;
}

// When: the next attempt of a waiting item, the verification of a verified one.
QString whenText(const ArchiveRow& r) {
    if (r.state == "verified" && r.verifiedAt.isValid()) return ArchiveView::tr("verified %1").arg(r.verifiedAt.toLocalTime().toString("yyyy-MM-dd HH:mm"));
    if (r.state == "queued" && r.nextAttempt.isValid()) return ArchiveView::tr("next %1").arg(r.nextAttempt.toLocalTime().toString("HH:mm:ss"));
    return {};
}

QString localText(const ArchiveRow& r) {
    if (r.localKeptChanged) return ArchiveView::tr("kept: changed since its upload");
    if (r.localDeletedAt.isValid()) return ArchiveView::tr("deleted %1 (retention)").arg(r.localDeletedAt.toLocalTime().toString("yyyy-MM-dd"));
    return ArchiveView::tr("kept");
}

}  // namespace

ArchiveView::ArchiveView(QWidget* parent)
    : QWidget(parent), table_(new QTableWidget(0, kArchiveColumns)), retry_(new QPushButton(tr("Retry"))), summary_(new QLabel) {
    setObjectName("archiveView");
    table_->setObjectName("archiveTable");
    table_->setHorizontalHeaderLabels(
        {tr("What"), tr("File"), tr("Object"), tr("State"), tr("Attempts"), tr("Size"), tr("When"), tr("Local copy"), tr("Last error")});
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->verticalHeader()->hide();
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    retry_->setObjectName("archiveRetryButton");
    retry_->setToolTip(tr("Queue the selected failed upload again"));
    summary_->setObjectName("archiveSummaryLabel");
    summary_->setWordWrap(true);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(summary_, 1);
    buttons->addWidget(retry_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(table_, 1);
    layout->addLayout(buttons);
    connect(table_, &QTableWidget::itemSelectionChanged, this, &ArchiveView::updateButtons);
    connect(retry_, &QPushButton::clicked, this, [this] {
        if (const auto* r = selected()) Q_EMIT retryRequested(r->id);
    });
    showArchive({}, false);
}

void ArchiveView::showArchive(const QList<ArchiveRow>& rows, bool configured) {
    const auto* was = selected();
    const qint64 keep = was ? was->id : 0;
    rows_ = rows;
    table_->setRowCount(static_cast<int>(rows.size()));
    int failed = 0, waiting = 0, verified = 0;
    for (int i = 0; i < rows.size(); ++i) {
        const auto& r = rows[i];
        failed += r.state == "failed";
        waiting += r.state == "queued" || r.state == "uploading";
        verified += r.state == "verified";
        const QString cells[kArchiveColumns] = {kindTitle(r.kind),
                                                QFileInfo(r.file).fileName(),
                                                r.url,
                                                archiveStateTitle(r.state),
                                                QString::number(r.attempts),
                                                r.sizeBytes > 0 ? QLocale().formattedDataSize(static_cast<qint64>(r.sizeBytes)) : QString(),
                                                whenText(r),
                                                localText(r),
                                                r.lastError};
        for (int c = 0; c < kArchiveColumns; ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (c == kArchiveState) item->setForeground(archiveStateColour(r.state));
            if (c == kArchiveLocal && r.localKeptChanged) item->setForeground(QColor(0xb0, 0x70, 0x00));
            if (c == kArchiveFile) item->setToolTip(r.file);
            if (c == kArchiveError) item->setToolTip(r.lastError);
            table_->setItem(i, c, item);
        }
    }
    table_->resizeColumnsToContents();
    if (!configured) {
        summary_->setText(
            tr("No archive is configured: set archive.endpoint (and its bucket) in the station's configuration to keep "
               "recordings and studies on S3-compatible storage."));
        summary_->setStyleSheet("");
    } else {
        summary_->setText(tr("%1 waiting, %2 failed, %3 verified, %4 in all").arg(waiting).arg(failed).arg(verified).arg(rows.size()));
        summary_->setStyleSheet(failed > 0 ? "color: #d03030" : "");
    }
    if (keep != 0) select(keep);
    updateButtons();
}

int ArchiveView::rowCount() const { return table_->rowCount(); }

QString ArchiveView::summary() const { return summary_->text(); }

QString ArchiveView::stateOf(qint64 id) const {
    for (const auto& r : rows_) {
        if (r.id == id) return r.state;
    }
    return {};
}

void ArchiveView::select(qint64 id) {
    for (int i = 0; i < rows_.size(); ++i) {
        if (rows_[i].id == id) table_->selectRow(i);
    }
}

const ArchiveRow* ArchiveView::selected() const {
    const int row = table_->currentRow();
    if (row < 0 || row >= rows_.size() || table_->selectedItems().isEmpty()) return nullptr;
    return &rows_[row];
}

void ArchiveView::updateButtons() {
    const auto* r = selected();
    retry_->setEnabled(r && r->state == "failed");
}

}  // namespace sonolink::gui
