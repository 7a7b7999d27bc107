// Help > Station check…: the dialog (each check, the failure selected with what to do, the
// summary, Check again, the report as text), the main window running the checks off the GUI
// thread, and the console's wiring: the rows are the station doctor's checks, as
// `sonolink-cli doctor` makes them, on the configuration with the console's kept settings on top.
#include <QtTest>

#include <QAction>
#include <QLabel>
#include <QPushButton>
#include <QTextBrowser>
#include <QThread>
#include <QTreeWidget>

#include <algorithm>
#include <atomic>

#include "console_engine.h"
#include "sonolink/console/main_window.h"
#include "sonolink/doctor/station_doctor.h"
#include "sonolink/gui/dialogs/station_check_dialog.h"
#include "station_check.h"

using sonolink::app::MainWindow;
using sonolink::gui::StationCheckDialog;
using sonolink::gui::StationCheckReport;
using sonolink::gui::StationCheckRow;

namespace {

StationCheckReport threeChecks() {
    return {{StationCheckRow{"configuration", "pass", "/etc/sonolink/sonolink.json: valid", "every key valid", ""},
             StationCheckRow{"display", "warn", "no display", "a display", "xvfb-run -a sonolink"},
             StationCheckRow{"PACS nodes", "fail", "0 of 1 answered: pacs: nothing listening", "every node answers", "start the PACS"}},
            "/etc/sonolink/sonolink.json"};
}

}  // namespace

class TestStationCheck : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void theDialogShowsEachCheckAndSelectsTheFailureWithWhatToDo() {
        StationCheckDialog dialog;
        QVERIFY(dialog.summary()->text().contains("Checking"));
        dialog.showResults(threeChecks());
        QCOMPARE(dialog.list()->topLevelItemCount(), 3);
        QVERIFY2(dialog.summary()->text().contains("Failed: 1, warnings: 1"), qPrintable(dialog.summary()->text()));
        QCOMPARE(dialog.list()->indexOfTopLevelItem(dialog.list()->currentItem()), 2);  // the failure, not the warning before it
        const auto details = dialog.findChild<QTextBrowser*>("stationCheckDetails")->toPlainText();
        QVERIFY2(details.contains("start the PACS") && details.contains("every node answers"), qPrintable(details));
        const auto text = dialog.reportText();
        QVERIFY(text.contains("fail  PACS nodes") && text.contains("fix: xvfb-run -a sonolink") && text.contains("/etc/sonolink/sonolink.json"));
        auto allPass = threeChecks();
        allPass.rows.removeLast();
        allPass.rows.removeLast();
        dialog.showResults(allPass);
        QVERIFY(dialog.summary()->text().contains("Every check passed"));
        QSignalSpy asked(&dialog, &StationCheckDialog::checkRequested);
        for (auto* b : dialog.findChildren<QPushButton*>()) {
            if (b->text() == "Check again") b->click();
        }
        QCOMPARE(asked.count(), 1);
    }

    void theMainWindowRunsTheChecksOffTheGuiThread() {
        auto engine = sonolink::testing::consoleEngine("", "tst_station_check");
        QVERIFY(engine);
        sonolink::gui::EngineBridge bridge(*engine);
        {
            MainWindow window(bridge, /*autoStream=*/false);
            auto* action = window.findChild<QAction*>("stationCheckAction");
            QVERIFY(action && !action->isEnabled());  // nothing to run the checks yet
            std::atomic<int> runs{0};
            std::atomic<bool> offGuiThread{true};
            QThread* gui = QThread::currentThread();
            window.setStationCheck([&] {
                offGuiThread = offGuiThread && QThread::currentThread() != gui;
                QThread::msleep(200);  // a C-ECHO's worth: the window stays responsive
                ++runs;
                return threeChecks();
            });
            QVERIFY(action->isEnabled());
            action->trigger();
            auto* dialog = window.stationCheckDialog();
            QVERIFY(dialog && dialog->isVisible());
            QVERIFY(dialog->summary()->text().contains("Checking"));
            QTRY_COMPARE_WITH_TIMEOUT(dialog->list()->topLevelItemCount(), 3, 5000);
            Q_EMIT dialog->checkRequested();
            QTRY_COMPARE_WITH_TIMEOUT(runs.load(), 2, 5000);
            QTRY_COMPARE_WITH_TIMEOUT(dialog->list()->topLevelItemCount(), 3, 5000);
            QVERIFY(offGuiThread.load());
        }
    }

    void theConsolesRowsAreTheDoctorsChecks() {
        // No PACS node to wait for; the kept settings on top of the file, as the console runs them.
        const std::vector<sonolink::config::ConfigOverride> kept{{"/dicom/nodes", "[]", "the console's settings"}};
        const auto shown = sonolink::app::stationCheckReport(SONOLINK_DEFAULT_CONFIG, kept);
        const auto doctor = sonolink::doctor::runDoctor({SONOLINK_DEFAULT_CONFIG, kept});
        QCOMPARE(shown.rows.size(), static_cast<qsizetype>(doctor.checks.size()));
        for (qsizetype i = 0; i < shown.rows.size(); ++i)
            QCOMPARE(shown.rows[i].check, QString::fromStdString(doctor.checks[static_cast<std::size_t>(i)].check));
        QCOMPARE(shown.configuration, QString(SONOLINK_DEFAULT_CONFIG));
        const auto pacs = std::find_if(shown.rows.begin(), shown.rows.end(), [](const StationCheckRow& r) { return r.check == "PACS nodes"; });
        QVERIFY(pacs != shown.rows.end());
        QCOMPARE(pacs->verdict, QString("warn"));  // the kept settings (no node) were used, not the file's node
        const auto bad = sonolink::app::stationCheckReport(SONOLINK_DEFAULT_CONFIG, {{"/link/slot_count", "-4", "the console's settings"}, kept[0]});
        QCOMPARE(bad.rows.front().check, QString("configuration"));
        QCOMPARE(bad.rows.front().verdict, QString("fail"));
        QVERIFY2(bad.rows.front().figures.contains("/link/slot_count"), qPrintable(bad.rows.front().figures));
    }
};

QTEST_MAIN(TestStationCheck)
#include "tst_station_check.moc"
