// QtTest for the station settings: the values checked as the station needs them (AE titles,
// names, hosts, ports, TLS files, the self-test mode), the dialog refusing OK while a problem
// stands, what it keeps read back the same, and the overrides it makes taken by the
// configuration loader at the next start. The C-ECHO of a node is tested against storescp in
// tst_pacs_queue.
#include <QtTest>

#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QTableWidget>
#include <QTemporaryDir>

#include "sonolink/config/config_loader.h"
#include "sonolink/console/settings_store.h"
#include "sonolink/gui/dialogs/settings_dialog.h"

using sonolink::gui::PacsNodeEntry;
using sonolink::gui::StationSettings;

namespace {

StationSettings valid() {
    StationSettings s;
    s.stationAeTitle = "US_ROOM_3";
    s.stationName = "ROOM3";
    s.nodes = {PacsNodeEntry{"pacs", "ORTHANC", "127.0.0.1", 4242, false}, PacsNodeEntry{"worklist", "WLMSCP", "127.0.0.1", 1104, false}};
    s.selfTestMode = "full";
    return s;
}

}  // namespace

class TestSettings : public QObject {
    Q_OBJECT
    QTemporaryDir settings_;
private Q_SLOTS:
    void initTestCase() { QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settings_.path()); }

    void theValuesAreCheckedAsTheStationNeedsThem() {
        QVERIFY(sonolink::gui::problemsOf(valid()).isEmpty());
        const auto problem = [](auto change, const char* expected) {
            StationSettings s = valid();
            change(s);
            const auto problems = sonolink::gui::problemsOf(s);
            QVERIFY2(problems.size() == 1 && problems[0].contains(expected), qPrintable(problems.join(" | ")));
        };
        problem([](StationSettings& s) { s.stationAeTitle = "   "; }, "AE title is empty");
        problem([](StationSettings& s) { s.stationAeTitle = "ABCDEFGHIJKLMNOPQ"; }, "longer than 16");
        problem([](StationSettings& s) { s.stationAeTitle = "超声"; }, "printable ASCII");
        problem([](StationSettings& s) { s.nodes[1].name = "pacs"; }, "named twice");
        problem([](StationSettings& s) { s.nodes[0].host = ""; }, "has no host");
        problem([](StationSettings& s) { s.nodes[0].port = 70000; }, "70000 is not 1 to 65535");
        problem([](StationSettings& s) { s.stationName = QString(17, 'x'); }, "station name");
        StationSettings tls = valid();
        tls.nodes[0].tls = true;  // TLS needs the station's files, readable
        tls.tlsCertificate = "/no/such/cert.pem";
        const auto problems = sonolink::gui::problemsOf(tls);
        QCOMPARE(problems.size(), 3);
        QVERIFY(problems[0].contains("/no/such/cert.pem cannot be read"));
        QVERIFY(problems[1].contains("private key"));
    }

    void theDialogRefusesOkWhileAProblemStands() {
        sonolink::gui::SettingsDialog dialog(valid(), {"pacs"}, "en");
        dialog.show();
        auto* table = dialog.findChild<QTableWidget*>("nodesTable");
        QCOMPARE(table->rowCount(), 2);
        table->item(0, 3)->setText("not a port");
        dialog.findChild<QPushButton*>("settingsOkButton")->click();
        QVERIFY(dialog.isVisible());
        QVERIFY(dialog.findChild<QLabel*>("settingsProblemsLabel")->text().contains("port"));
        table->item(0, 3)->setText("4243");
        dialog.findChild<QPushButton*>("addNodeButton")->click();
        QCOMPARE(table->rowCount(), 3);
        dialog.findChild<QPushButton*>("removeNodeButton")->click();  // the new row, selected
        QCOMPARE(table->rowCount(), 2);
        table->selectRow(0);
        QVERIFY2(!dialog.findChild<QPushButton*>("echoButton")->isEnabled(), "an edited node is tested after the restart");
        table->item(0, 3)->setText("4242");
        table->selectRow(1);
        table->selectRow(0);
        QVERIFY(dialog.findChild<QPushButton*>("echoButton")->isEnabled());
        dialog.findChild<QPushButton*>("settingsOkButton")->click();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QCOMPARE(dialog.values(), valid());
    }

    void whatIsKeptReadsBackAndTheLoaderTakesIt() {
        QVERIFY(!sonolink::app::loadStationSettings());
        sonolink::app::saveStationSettings(valid());
        const auto kept = sonolink::app::loadStationSettings();
        QVERIFY(kept);
        QCOMPARE(*kept, valid());
        std::vector<sonolink::config::ConfigOverride> overrides;
        for (auto& [key, value] : sonolink::app::configOverridesOf(*kept)) overrides.push_back({key, value, "settings"});
        const auto config = sonolink::config::loadConfig("", overrides);
        QVERIFY2(config.has_value(), config ? "" : config.error().describe().c_str());
        QCOMPARE(config->dicom.stationAeTitle, std::string("US_ROOM_3"));
        QCOMPARE(config->dicom.stationName, std::string("ROOM3"));
        QCOMPARE(config->dicom.nodes.size(), std::size_t(2));
        QCOMPARE(config->dicom.nodes[1].aeTitle, std::string("WLMSCP"));
        QCOMPARE(config->dicom.nodes[1].port, 1104);
        QVERIFY(config->selftest.mode == sonolink::config::SelfTestMode::Full);
    }
};

QTEST_MAIN(TestSettings)
#include "tst_settings.moc"
