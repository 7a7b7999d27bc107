// QtTest for the console's archive view: what each row says (a verified recording whose local
// copy retention deleted, a failed study with its reason, one waiting, one kept because it
// changed since its upload), the summary, Retry enabled on a failed item only and asking for it
// by id, the selection kept across snapshots, and the station without an archive told how to set
// one up. Then the real engine on the built-in simulated front end with an archive on a closed
// loopback port: a recording stopped in the console appears in the Archive dock, its upload
// attempted and refused, the reason shown.
#include <QtTest>

#include <QDir>
#include <QDockWidget>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>

#include "console_engine.h"
#include "loopback_port.h"
#include "sonolink/console/main_window.h"
#include "sonolink/gui/views/archive_view.h"

using sonolink::gui::ArchiveRow;
using sonolink::gui::ArchiveView;

namespace {

QString cell(const QTableWidget& table, int row, const QString& header) {
    for (int c = 0; c < table.columnCount(); ++c) {
        if (table.horizontalHeaderItem(c)->text() == header) return table.item(row, c) ? table.item(row, c)->text() : QString();
    }
    return {};
}

quint16 closedPort() { return static_cast<quint16>(sonolink::testing::closedLoopbackPort()); }

QList<ArchiveRow> sample() {
    const auto at = QDateTime::fromString("2026-11-20T09:30:00Z", Qt::ISODate);
    ArchiveRow verified{
        1, "recording", "/data/recordings/rec_1.uff", "s3://hospital/recordings/rec_1.uff", "verified", 1, 2147483648ULL, {}, at, at.addDays(30), false, ""};
    ArchiveRow failed{2,
                      "study",
                      "/data/studies/1.2.3.dcm",
                      "s3://hospital/studies/1.2.3.dcm",
                      "failed",
                      6,
                      0,
                      {},
                      {},
                      {},
                      false,
                      "PUT s3://hospital/studies/1.2.3.dcm: HTTP 403 AccessDenied: the keys may not write to this bucket"};
    ArchiveRow waiting{3,  "recording", "/data/recordings/rec_2.uff", "s3://hospital/recordings/rec_2.uff", "queued", 2, 0, at.addSecs(90), {},
                       {}, false,       "connection refused"};
    ArchiveRow changed{4, "recording", "/data/recordings/rec_0.uff", "s3://hospital/recordings/rec_0.uff", "verified", 1, 1024, {}, at, {}, true, ""};
    return {verified, failed, waiting, changed};
}

}  // namespace

class TestArchiveView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void withoutAnArchiveItSaysHowToSetOneUp() {
        ArchiveView view;
        view.showArchive({}, false);
        QCOMPARE(view.rowCount(), 0);
        QVERIFY(view.summary().contains("archive.endpoint"));
    }

    void rowsSayWhatHappenedAndRetryAsksForAFailedOne() {
        ArchiveView view;
        view.showArchive(sample(), true);
        if (const auto shots = qgetenv("SONOLINK_SCREENSHOT_DIR"); !shots.isEmpty()) {  // to look at it (under Xvfb)
            view.resize(1200, 260);
            view.show();
            QVERIFY(QTest::qWaitForWindowExposed(&view));
            QVERIFY(view.grab().save(QString::fromUtf8(shots) + "/archive_view.png"));
        }
        auto* table = view.findChild<QTableWidget*>("archiveTable");
        auto* retry = view.findChild<QPushButton*>("archiveRetryButton");
        QCOMPARE(view.rowCount(), 4);
        QCOMPARE(cell(*table, 0, "What"), QString("Recording"));
        QCOMPARE(cell(*table, 0, "State"), QString("verified"));
        QVERIFY(cell(*table, 0, "Local copy").startsWith("deleted"));
        QVERIFY(cell(*table, 0, "When").startsWith("verified"));
        QVERIFY(cell(*table, 0, "Size").contains("GiB") || cell(*table, 0, "Size").contains("GB"));
        QCOMPARE(cell(*table, 1, "State"), QString("failed"));
        QVERIFY(cell(*table, 1, "Last error").contains("AccessDenied"));
        QVERIFY(cell(*table, 2, "When").startsWith("next"));
        QCOMPARE(cell(*table, 3, "Local copy"), QString("kept: changed since its upload"));
        QVERIFY(view.summary().contains("1 waiting, 1 failed, 2 verified, 4 in all"));

        QSignalSpy asked(&view, &ArchiveView::retryRequested);
        view.select(3);
        QVERIFY(!retry->isEnabled());  // waiting: nothing to retry
        view.select(2);
        QVERIFY(retry->isEnabled());
        retry->click();
        QCOMPARE(asked.size(), 1);
        QCOMPARE(asked.front().front().toLongLong(), 2);

        auto next = sample();
        next[1].state = "queued";  // retried: waiting again; the selection stays on it
        next[1].attempts = 0;
        view.showArchive(next, true);
        QCOMPARE(view.stateOf(2), QString("queued"));
        QVERIFY(!retry->isEnabled());
        QVERIFY(view.summary().contains("2 waiting, 0 failed"));
    }

    void aRecordingStoppedInTheConsoleIsQueuedForTheArchiveAndItsRefusalShown() {
        QTemporaryDir dir;
        const quint16 port = closedPort();
        QVERIFY(port != 0);
        const QString config = dir.filePath("sonolink.json");
        QFile file(config);
        QVERIFY(file.open(QIODevice::WriteOnly));
        const QJsonObject archive{{"endpoint", QString("http://127.0.0.1:%1").arg(port)},
                                  {"bucket", "hospital"},
                                  {"region", "us-east-1"},
                                  {"access_key_id", "test"},
                                  {"secret_access_key", "test-secret"},
                                  {"queue_directory", dir.filePath("queue")},
                                  {"journal_directory", dir.filePath("journal")},
                                  {"audit_file", dir.filePath("audit.log")},
                                  {"max_attempts", 1},
                                  {"retry_initial_s", 60}};
        const QJsonObject root{{"schema_version", 1}, {"recording", QJsonObject{{"directory", dir.filePath("recordings")}}}, {"archive", archive}};
        file.write(QJsonDocument(root).toJson());
        file.close();
        auto engine = sonolink::testing::consoleEngine(config.toStdString(), "tst_archive_view");
        QVERIFY(engine);
        QVERIFY(engine->hasArchive());
        sonolink::gui::EngineBridge bridge(*engine);
        sonolink::app::MainWindow window(bridge, /*autoStream=*/true);
        window.show();
        auto* view = window.archiveView();
        QVERIFY(window.findChild<QDockWidget*>("archiveDock"));
        QCOMPARE(view->rowCount(), 0);
        QVERIFY(view->summary().contains("0 in all"));
        bridge.connectLink();
        QTRY_VERIFY_WITH_TIMEOUT(engine->latestFrame() != nullptr, 10000);
        QDir().mkpath(dir.filePath("recordings"));
        bridge.startRecording(dir.filePath("recordings/rec.uff"));
        QTRY_VERIFY_WITH_TIMEOUT(engine->stats().framesRecorded >= 3, 20000);
        bridge.stopRecording();
        auto* table = view->findChild<QTableWidget*>("archiveTable");
        QTRY_VERIFY_WITH_TIMEOUT(view->rowCount() == 1 && !cell(*table, 0, "Last error").isEmpty(), 15000);
        QCOMPARE(cell(*table, 0, "What"), QString("Recording"));
        QVERIFY(cell(*table, 0, "Object").startsWith("s3://hospital/"));
        QVERIFY2(cell(*table, 0, "Last error").contains("refused") || cell(*table, 0, "Last error").contains("connect"),
                 qPrintable(cell(*table, 0, "Last error")));
        QCOMPARE(cell(*table, 0, "Local copy"), QString("kept"));  // never deleted before it is verified
        bridge.disconnectLink();
    }
};

QTEST_MAIN(TestArchiveView)
#include "tst_archive_view.moc"
