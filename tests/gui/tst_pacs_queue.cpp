// QtTest for the console's export and PACS queue view, run by pacs_queue_test.py against
// dcmtk's storescp ("pacs") and a closed loopback port ("down") named in SONOLINK_TEST_CONFIG:
// Export cine (Ctrl+E) refuses without an exam, then writes the cine under the exam and queues it; the queue view shows the
// item and follows it to sent; Export image (Ctrl+I) sends the frozen picture with a caliper burnt in, and its measurement report; an export to a node that is
// down shows its attempts and the reason; Withdraw takes it out (failed, withdrawn) and Retry queues it again; Settings' Test sends a C-ECHO to each node and
// shows the answer, or why there was none, an edited node asked as shown. The real engine on the built-in simulated front end; EXPORT_DIR receives the files.
#include <QtTest>

#include <QAction>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>

#include "console_engine.h"
#include "sonolink/gui/dialogs/settings_dialog.h"
#include "sonolink/console/main_window.h"
#include "sonolink/gui/views/bmode_view.h"
#include "sonolink/gui/views/queue_view.h"

namespace {

QString cell(const QTableWidget& table, int row, const QString& header) {
    for (int c = 0; c < table.columnCount(); ++c) {
        if (table.horizontalHeaderItem(c)->text() == header) return table.item(row, c) ? table.item(row, c)->text() : QString();
    }
    return {};
}

}  // namespace

class TestPacsQueue : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void exportsAreQueuedFollowedRetriedAndWithdrawn() {
        const QByteArray path = qgetenv("SONOLINK_TEST_CONFIG"), exports = qgetenv("EXPORT_DIR");
        if (path.isEmpty()) QSKIP("needs storescp: run by tests/gui/pacs_queue_test.py");
        auto engine = sonolink::testing::consoleEngine(path.toStdString(), "tst_pacs_queue");
        QVERIFY(engine);
        sonolink::gui::EngineBridge bridge(*engine);
        sonolink::app::MainWindow window(bridge, /*autoStream=*/true);
        window.setExportTarget(QString::fromUtf8(exports), "pacs");
        window.show();
        bridge.connectLink();
        auto* view = window.queueView();
        auto* table = view->findChild<QTableWidget*>("queueTable");
        auto* status = window.findChild<QLabel*>("exportLabel");
        window.findChild<QAction*>("exportCineAction")->trigger();  // no exam: refused, said
        QVERIFY(status->text().contains("start an exam first"));
        sonolink::gui::ExamEntry exam;
        exam.familyName = "Queue";
        exam.givenName = "Test";
        exam.ideographicFamily = "李";
        exam.ideographicGiven = "娜";
        exam.id = "Q0001";
        bridge.setExam(exam);
        QTRY_VERIFY_WITH_TIMEOUT(engine->cine().size() >= 5, 10000);  // frames to export

        QCOMPARE(view->rowCount(), 0);
        window.findChild<QAction*>("exportCineAction")->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(view->rowCount(), 1, 15000);
        QCOMPARE(cell(*table, 0, "Patient"), QString("Queue Test (李娜)"));
        QCOMPARE(cell(*table, 0, "Node"), QString("pacs"));
        QTRY_COMPARE_WITH_TIMEOUT(view->stateOf(cell(*table, 0, "Item")), QString("sent"), 20000);
        QTRY_VERIFY_WITH_TIMEOUT(status->text().startsWith("Exported"), 10000);

        // The image shown, frozen, with a caliper burnt in (the View menu's choice): a single-frame
        // object and its measurement report (SR) the script reads back, the measurement also in the CSV beside it.
        window.findChild<QAction*>("freezeAction")->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(bridge.stateName(), QString("frozen"), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(!window.view()->image().image.isNull(), 10000);
        const auto shown = window.view()->image();
        const double x0 = shown.xStartMm + 0.2 * shown.widthMm(), z0 = shown.zStartMm + 0.3 * shown.depthMm();
        window.view()->addMeasurement({sonolink::gui::MeasurementKind::Distance, {{x0, z0}, {x0 + 10, z0}}, {}, {}});
        window.findChild<QAction*>("burnInAction")->setChecked(true);
        window.findChild<QAction*>("exportImageAction")->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(view->rowCount(), 3, 15000);  // the image and its measurement report
        QTRY_COMPARE_WITH_TIMEOUT(view->stateOf(cell(*table, 1, "Item")), QString("sent"), 20000);
        QTRY_COMPARE_WITH_TIMEOUT(view->stateOf(cell(*table, 2, "Item")), QString("sent"), 20000);
        QVERIFY(cell(*table, 1, "File").contains("image_"));
        QVERIFY(cell(*table, 2, "File").endsWith("_measurements.dcm"));
        QTRY_VERIFY_WITH_TIMEOUT(status->text().startsWith("Exported"), 10000);
        window.findChild<QAction*>("liveAction")->trigger();

        window.setExportTarget(QString::fromUtf8(exports), "down");  // a PACS that is down
        window.findChild<QAction*>("exportCineAction")->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(view->rowCount(), 4, 15000);
        const QString down = cell(*table, 3, "Item");
        QTRY_VERIFY_WITH_TIMEOUT(cell(*table, 3, "Attempts").toInt() >= 1 && cell(*table, 3, "Last error").contains("refused"), 20000);
        QCOMPARE(view->stateOf(down), QString("queued"));  // waiting for the next attempt
        view->select(down);
        auto* withdraw = view->findChild<QPushButton*>("queueWithdrawButton");
        auto* retry = view->findChild<QPushButton*>("queueRetryButton");
        QVERIFY(!retry->isEnabled());
        // Caught mid-attempt the engine refuses (and says so): ask again until it is out.
        QTRY_VERIFY_WITH_TIMEOUT((view->select(down), withdraw->isEnabled() ? withdraw->click() : void(), view->stateOf(down) == "failed"), 30000);
        QVERIFY(cell(*table, 3, "Last error").contains("withdrawn"));
        view->select(down);
        QVERIFY(retry->isEnabled());
        retry->click();
        QTRY_VERIFY_WITH_TIMEOUT(view->stateOf(down) != "failed", 10000);
        QVERIFY(view->findChild<QLabel*>("queueSummaryLabel")->text().contains("4 in all"));
    }
    void settingsTestsANodeWithACEcho() {
        const QByteArray path = qgetenv("SONOLINK_TEST_CONFIG");
        if (path.isEmpty()) QSKIP("needs storescp: run by tests/gui/pacs_queue_test.py");
        auto config = sonolink::config::loadConfig(path.toStdString(), {});
        QVERIFY(config.has_value());
        auto engine = sonolink::testing::consoleEngine(path.toStdString(), "tst_pacs_queue_echo");
        QVERIFY(engine);
        sonolink::gui::EngineBridge bridge(*engine);
        sonolink::app::MainWindow window(bridge, /*autoStream=*/false);
        sonolink::gui::StationSettings station;
        QStringList names;
        for (const auto& n : config->dicom.nodes) {
            station.nodes << sonolink::gui::PacsNodeEntry{QString::fromStdString(n.name), QString::fromStdString(n.aeTitle), QString::fromStdString(n.host),
                                                          n.port, n.tls};
            names << QString::fromStdString(n.name);
        }
        window.setStationSettings(station, names);
        window.show();
        window.openSettings();
        auto* dialog = window.settingsDialog();
        QVERIFY(dialog);
        auto* table = dialog->findChild<QTableWidget*>("nodesTable");
        auto* echo = dialog->findChild<QPushButton*>("echoButton");
        auto* result = dialog->findChild<QLabel*>("echoResultLabel");
        table->selectRow(0);  // "pacs": storescp
        QVERIFY(echo->isEnabled());
        echo->click();
        QTRY_VERIFY_WITH_TIMEOUT(result->text().contains("pacs answered"), 15000);
        table->selectRow(1);  // "down": nothing listening
        echo->click();
        QTRY_VERIFY_WITH_TIMEOUT(result->text().contains("down did not answer"), 15000);
        QVERIFY2(result->text().contains("refused") || result->text().contains("nothing listening"), qPrintable(result->text()));
        // "down" edited to point at storescp, not yet kept: asked as shown, it answers.
        table->item(1, 3)->setText(QString::number(config->dicom.nodes[0].port));
        table->item(1, 1)->setText(QString::fromStdString(config->dicom.nodes[0].aeTitle));
        table->selectRow(1);
        echo->click();
        QTRY_VERIFY_WITH_TIMEOUT(result->text().contains("down answered"), 15000);
        dialog->reject();
    }
};

QTEST_MAIN(TestPacsQueue)
#include "tst_pacs_queue.moc"
