#include "sonolink/gui/dialogs/station_check_dialog.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "self_test_pages.h"

namespace sonolink::gui {
namespace {

enum CheckColumn { CheckNameColumn, CheckVerdictColumn, CheckFiguresColumn };

// The doctor's own checks in the user's language; the self-test's station checks as its wizard names them.
QString checkTitle(const QString& check) {
    static const QHash<QString, const char*> names{
        {"configuration", QT_TRANSLATE_NOOP("sonolink::gui::StationCheckDialog", "configuration")},
        {"RDMA device and permissions", QT_TRANSLATE_NOOP("sonolink::gui::StationCheckDialog", "RDMA device and permissions")},
        {"Qt platform plugin", QT_TRANSLATE_NOOP("sonolink::gui::StationCheckDialog", "Qt platform plugin")},
        {"display", QT_TRANSLATE_NOOP("sonolink::gui::StationCheckDialog", "display")},
        {"fonts for Chinese", QT_TRANSLATE_NOOP("sonolink::gui::StationCheckDialog", "fonts for Chinese")},
        {"PACS nodes", QT_TRANSLATE_NOOP("sonolink::gui::StationCheckDialog", "PACS nodes")},
        {"time synchronised", QT_TRANSLATE_NOOP("sonolink::gui::StationCheckDialog", "time synchronised")},
    };
    if (const auto it = names.find(check); it != names.end()) return StationCheckDialog::tr(it.value());
    return stationCheckTitle(check);
}

}  // namespace

StationCheckDialog::StationCheckDialog(QWidget* parent)
    : QDialog(parent), summary_(new QLabel), list_(new QTreeWidget), details_(new QTextBrowser), again_(new QPushButton(tr("Check again"))),
      copy_(new QPushButton(tr("Copy report"))) {
    setObjectName("stationCheckDialog");
    setWindowTitle(tr("Station check"));
    auto* intro =
        new QLabel(tr("What this station needs to acquire, show and send studies, checked now: the same checks as "
                      "<code>sonolink-cli doctor</code>. Select a check for what to do."));
    intro->setWordWrap(true);
    list_->setObjectName("stationChecks");
    list_->setHeaderLabels({tr("Check"), tr("Verdict"), tr("Figures")});
    list_->setRootIsDecorated(false);
    list_->setUniformRowHeights(true);
    list_->header()->setSectionResizeMode(CheckNameColumn, QHeaderView::ResizeToContents);
    list_->header()->setSectionResizeMode(CheckVerdictColumn, QHeaderView::ResizeToContents);
    details_->setObjectName("stationCheckDetails");
    details_->setMaximumHeight(130);
    summary_->setObjectName("stationCheckSummary");
    summary_->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    buttons->addButton(again_, QDialogButtonBox::ActionRole);
    buttons->addButton(copy_, QDialogButtonBox::ActionRole);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(summary_);
    layout->addWidget(list_, 1);
    layout->addWidget(details_);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(again_, &QPushButton::clicked, this, &StationCheckDialog::checkRequested);
    connect(copy_, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(reportText()); });
    connect(list_, &QTreeWidget::currentItemChanged, this, &StationCheckDialog::showDetails);
    resize(980, 620);
    showChecking();
}

void StationCheckDialog::showChecking() {
    rows_.clear();
    list_->clear();
    details_->clear();
    summary_->setText(tr("Checking the station…"));
    summary_->setStyleSheet({});
    again_->setEnabled(false);
    copy_->setEnabled(false);
}

void StationCheckDialog::showResults(const StationCheckReport& report) {
    rows_ = report.rows;
    configuration_ = report.configuration;
    const auto& rows = rows_;
    const auto& configuration = configuration_;
    list_->clear();
    int failed = 0, warned = 0;
    QTreeWidgetItem* first = nullptr;  // the first failure, else the first warning, else the first
    QTreeWidgetItem* firstWarning = nullptr;
    for (const auto& r : rows) {
        auto* item = new QTreeWidgetItem(list_, {checkTitle(r.check), verdictText(r.verdict), r.figures});
        item->setForeground(CheckVerdictColumn, verdictColor(r.verdict));
        item->setToolTip(CheckFiguresColumn, r.figures);
        failed += r.verdict == "fail";
        warned += r.verdict == "warn";
        if (!first && r.verdict == "fail") first = item;
        if (!firstWarning && r.verdict == "warn") firstWarning = item;
    }
    const auto where = configuration.isEmpty() ? tr("the built-in defaults") : configuration;
    summary_->setText(
        failed > 0   ? tr("Failed: %1, warnings: %2. The station cannot do all it should until the failures are fixed (%3).").arg(failed).arg(warned).arg(where)
        : warned > 0 ? tr("Nothing failed; warnings: %1 (%2).").arg(warned).arg(where)
                     : tr("Every check passed (%1).").arg(where));
    summary_->setStyleSheet(QString("color: %1").arg(verdictColor(failed > 0 ? "fail" : warned > 0 ? "warn" : "pass").name()));
    list_->setCurrentItem(first ? first : firstWarning ? firstWarning : list_->topLevelItem(0));
    again_->setEnabled(true);
    copy_->setEnabled(true);
}

void StationCheckDialog::showDetails() {
    const int i = list_->indexOfTopLevelItem(list_->currentItem());
    if (i < 0 || i >= rows_.size()) return details_->clear();
    const auto& r = rows_[i];
    QString html = QString("<b>%1</b>: <span style='color:%2'>%3</span><br>%4<br><i>%5</i> %6")
                       .arg(checkTitle(r.check).toHtmlEscaped(), verdictColor(r.verdict).name(), verdictText(r.verdict), r.figures.toHtmlEscaped(),
                            tr("Limit:"), r.limit.toHtmlEscaped());
    if (!r.fix.isEmpty()) html += QString("<br><b>%1</b> %2").arg(tr("What to do:"), r.fix.toHtmlEscaped());
    details_->setHtml(html);
}

QString StationCheckDialog::reportText() const {
    QString text = QString("SonoLink station check (%1)\n").arg(configuration_.isEmpty() ? QStringLiteral("built-in defaults") : configuration_);
    for (const auto& r : rows_) {
        text += QString("  %1  %2  %3\n").arg(r.verdict, -4).arg(r.check, -32).arg(r.figures);
        if (!r.fix.isEmpty()) text += QString("        fix: %1\n").arg(r.fix);
    }
    return text;
}

}  // namespace sonolink::gui
