#include "sonolink/gui/views/queue_view.h"

#include "sonolink/gui/views/exam_entry.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace sonolink::gui {
namespace {

enum Column { kId, kPatient, kFile, kNode, kState, kAttempts, kNext, kError, kColumns };

QString stateTitle(const QString& state) {
    if (state == "queued") return QueueView::tr("queued");
    if (state == "sending") return QueueView::tr("sending");
    if (state == "sent") return QueueView::tr("sent");
    if (state == "committed") return QueueView::tr("committed");
    if (state == "failed") return QueueView::tr("failed");
    return state;
}

QColor stateColour(const QString& state) {
    if (state == "failed") return {0xd0, 0x30, 0x30};
    if (state == "sent" || state == "committed") return {0x2c, 0x8a, 0x2c};
    if (state == "sending") return {0x1f, 0x77, 0xb4};
    return {0x80, 0x80, 0x80};
}

}  // namespace

QueueView::QueueView(QWidget* parent)
    : QWidget(parent), table_(new QTableWidget(0, kColumns)), retry_(new QPushButton(tr("Retry"))), withdraw_(new QPushButton(tr("Withdraw"))),
      summary_(new QLabel) {
    setObjectName("queueView");
    table_->setObjectName("queueTable");
    table_->setHorizontalHeaderLabels({tr("Item"), tr("Patient"), tr("File"), tr("Node"), tr("State"), tr("Attempts"), tr("Next attempt"), tr("Last error")});
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->verticalHeader()->hide();
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    retry_->setObjectName("queueRetryButton");
    withdraw_->setObjectName("queueWithdrawButton");
    summary_->setObjectName("queueSummaryLabel");
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(summary_, 1);
    buttons->addWidget(retry_);
    buttons->addWidget(withdraw_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(table_, 1);
    layout->addLayout(buttons);
    connect(table_, &QTableWidget::itemSelectionChanged, this, &QueueView::updateButtons);
    connect(retry_, &QPushButton::clicked, this, [this] {
        if (const auto* r = selected()) Q_EMIT retryRequested(r->id);
    });
    connect(withdraw_, &QPushButton::clicked, this, [this] {
        if (const auto* r = selected()) Q_EMIT withdrawRequested(r->id);
    });
    showQueue({});
}

void QueueView::showQueue(const QList<QueueRow>& rows) {
    const auto* was = selected();
    const QString keep = was ? was->id : QString();
    rows_ = rows;
    table_->setRowCount(static_cast<int>(rows.size()));
    int failed = 0, waiting = 0;
    for (int i = 0; i < rows.size(); ++i) {
        const auto& r = rows[i];
        failed += r.state == "failed";
        waiting += r.state == "queued" || r.state == "sending";
        const QString next = r.state == "queued" && r.nextAttempt.isValid() ? r.nextAttempt.toLocalTime().toString("HH:mm:ss") : QString();
        const QString cells[kColumns] = {
            r.id,       displayName(entryFromPn(r.patient)), QFileInfo(r.file).fileName(), r.node, stateTitle(r.state), QString::number(r.attempts), next,
            r.lastError};
        for (int c = 0; c < kColumns; ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (c == kState) item->setForeground(stateColour(r.state));
            if (c == kError || c == kFile) item->setToolTip(c == kError ? r.lastError : r.file);
            table_->setItem(i, c, item);
        }
    }
    table_->resizeColumnsToContents();
    summary_->setText(tr("%1 waiting, %2 failed, %3 in all").arg(waiting).arg(failed).arg(rows.size()));
    summary_->setStyleSheet(failed > 0 ? "color: #d03030" : "");
    if (!keep.isEmpty()) select(keep);
    updateButtons();
}

int QueueView::rowCount() const { return table_->rowCount(); }

QString QueueView::stateOf(const QString& id) const {
    for (const auto& r : rows_) {
        if (r.id == id) return r.state;
    }
    return {};
}

void QueueView::select(const QString& id) {
    for (int i = 0; i < rows_.size(); ++i) {
        if (rows_[i].id == id) table_->selectRow(i);
    }
}

const QueueRow* QueueView::selected() const {
    const int row = table_->currentRow();
    if (row < 0 || row >= rows_.size() || table_->selectedItems().isEmpty()) return nullptr;
    return &rows_[row];
}

// Retry: a failed item; withdraw: one still waiting (not one being sent or at the PACS).
void QueueView::updateButtons() {
    const auto* r = selected();
    retry_->setEnabled(r && r->state == "failed");
    withdraw_->setEnabled(r && r->state == "queued");
}

}  // namespace sonolink::gui
