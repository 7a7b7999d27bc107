// StationCheckDialog: the station doctor's checks (Help > Station check…, the same as
// `sonolink-cli doctor`): each check with its verdict and figures; the one selected in full (its
// limit, and for a warning or failure what is wrong and the command that fixes it) below; a
// summary; Check again (asked by a signal: the checks run off the GUI thread, the dialog is given
// their results) and Copy (the whole report as text, for a ticket). Thread contract: GUI thread.
#pragma once

#include <QDialog>
#include <QList>
#include <QString>

class QLabel;
class QPushButton;
class QTextBrowser;
class QTreeWidget;

namespace sonolink::gui {

struct StationCheckRow {
    QString check;    // "memlock limit"
    QString verdict;  // "pass", "warn", "fail"
    QString figures;
    QString limit;
    QString fix;  // not pass: what to do
};

struct StationCheckReport {
    QList<StationCheckRow> rows;
    QString configuration;  // the file the checks read ("": the built-in defaults)
};

class StationCheckDialog : public QDialog {
    Q_OBJECT
public:
    explicit StationCheckDialog(QWidget* parent = nullptr);

    void showChecking();
    void showResults(const StationCheckReport& report);
    [[nodiscard]] QString reportText() const;
    [[nodiscard]] QTreeWidget* list() const { return list_; }
    [[nodiscard]] QLabel* summary() const { return summary_; }

Q_SIGNALS:
    void checkRequested();

private:
    void showDetails();

    QList<StationCheckRow> rows_;
    QString configuration_;
    QLabel* summary_;
    QTreeWidget* list_;
    QTextBrowser* details_;
    QPushButton* again_;
    QPushButton* copy_;
};

}  // namespace sonolink::gui
