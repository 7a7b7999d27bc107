#include "probe_tab.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace sonolink::gui {
namespace {

enum ProbeColumn { kProbeName, kElements, kPitch, kCenter, kProbeColumns };

}  // namespace

ProbeTab::ProbeTab(const QList<ProbeEntry>& probes, const QString& inUse, QWidget* parent)
    : QWidget(parent), table_(new QTableWidget(0, kProbeColumns)), inUse_(new QComboBox) {
    setObjectName("probeTab");
    table_->setObjectName("probesTable");
    table_->setHorizontalHeaderLabels({tr("Name"), tr("Elements"), tr("Pitch (mm)"), tr("Centre (MHz)")});
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    for (const auto& p : probes) addRow(p);
    auto* add = new QPushButton(tr("Add"));
    add->setObjectName("addProbeButton");
    auto* remove = new QPushButton(tr("Remove"));
    remove->setObjectName("removeProbeButton");
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(add);
    buttons->addWidget(remove);
    buttons->addStretch(1);
    inUse_->setObjectName("probeInUseCombo");
    auto* choice = new QFormLayout;
    choice->addRow(tr("Probe in use"), inUse_);
    auto* note = new QLabel(tr("The front end is set for the probe in use at the next start: its element count, pitch and centre frequency."));
    note->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(table_, 1);
    layout->addLayout(buttons);
    layout->addLayout(choice);
    layout->addWidget(note);
    refreshInUse();
    inUse_->setCurrentIndex(std::max(0, inUse_->findData(inUse)));
    connect(add, &QPushButton::clicked, this, [this] {
        addRow({tr("new-probe"), 128, 0.3, 5});
        table_->selectRow(table_->rowCount() - 1);
        refreshInUse();
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        if (table_->currentRow() >= 0) table_->removeRow(table_->currentRow());
        refreshInUse();
    });
    connect(table_, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* item) {
        if (item->column() == kProbeName) refreshInUse();
    });
}

void ProbeTab::addRow(const ProbeEntry& p) {
    const QSignalBlocker quiet(table_);
    const int row = table_->rowCount();
    table_->insertRow(row);
    table_->setItem(row, kProbeName, new QTableWidgetItem(p.name));
    table_->setItem(row, kElements, new QTableWidgetItem(QString::number(p.elementCount)));
    table_->setItem(row, kPitch, new QTableWidgetItem(QString::number(p.pitchMm)));
    table_->setItem(row, kCenter, new QTableWidgetItem(QString::number(p.centerFrequencyMHz)));
}

QList<ProbeEntry> ProbeTab::probes() const {
    QList<ProbeEntry> out;
    for (int r = 0; r < table_->rowCount(); ++r) {
        const auto text = [&](int c) { return table_->item(r, c) ? table_->item(r, c)->text().trimmed() : QString(); };
        bool elementsOk = false, pitchOk = false, centerOk = false;
        const int elements = text(kElements).toInt(&elementsOk);
        const double pitch = text(kPitch).toDouble(&pitchOk);
        const double center = text(kCenter).toDouble(&centerOk);
        out << ProbeEntry{text(kProbeName), elementsOk ? elements : -1, pitchOk ? pitch : -1, centerOk ? center : -1};
    }
    return out;
}

QString ProbeTab::inUse() const { return inUse_->currentData().toString(); }

void ProbeTab::refreshInUse() {
    const QString chosen = inUse();
    const QSignalBlocker quiet(inUse_);
    inUse_->clear();
    inUse_->addItem(tr("As configured"), QString());
    for (const auto& p : probes()) {
        if (!p.name.isEmpty()) inUse_->addItem(p.name, p.name);
    }
    inUse_->setCurrentIndex(std::max(0, inUse_->findData(chosen)));
}

}  // namespace sonolink::gui
