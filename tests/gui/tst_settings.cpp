// QtTest for the station settings: the values checked as the station needs them (AE titles,
// names, hosts, ports, TLS files, probes, the self-test mode), the dialog refusing OK while a problem
// stands, what it keeps read back the same, and the overrides it makes taken by the
// configuration loader at the next start. The C-ECHO of a node is tested against storescp in
// tst_pacs_queue.
#include <QtTest>

#include <QComboBox>
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
    s.probe = "L7-192";
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
        problem([](StationSettings& s) { s.probes[2].name = "L5-128"; }, "Probe L5-128 is named twice");
        problem([](StationSettings& s) { s.probes[0].elementCount = 257; }, "257 elements is not 1 to 256");
        problem([](StationSettings& s) { s.probes[0].pitchMm = -1; }, "pitch of -1 mm");
        problem([](StationSettings& s) { s.probes[0].centerFrequencyMHz = 51; }, "centre frequency of 51 MHz");
        problem([](StationSettings& s) { s.probe = "C5-2"; }, "C5-2, is not listed");
        StationSettings tls = valid();
        tls.nodes[0].tls = true;  // TLS needs the station's files, readable
        tls.tlsCertificate = "/no/such/cert.pem";
        const auto problems = sonolink::gui::problemsOf(tls);
        QCOMPARE(problems.size(), 3);
        QVERIFY(problems[0].contains("/no/such/cert.pem cannot be read"));
        QVERIFY(problems[1].contains("private key"));
    }

    // The dialog's probe limits are the loader's: what one takes the other takes, what one refuses the other refuses.
    void theProbeLimitsAreTheLoaders() {
        const auto loads = [](const sonolink::gui::ProbeEntry& probe) {
            StationSettings s = valid();
            s.probes = {probe};
            s.probe = probe.name;
            std::vector<sonolink::config::ConfigOverride> overrides;
            for (auto& [key, value] : sonolink::app::configOverridesOf(s)) overrides.push_back({key, value, "settings"});
            overrides.push_back({"/acquisition/sampling_rate_hz", "125000000", "test"});  // room for the highest centre frequency
            return std::pair{sonolink::gui::problemsOf(s).isEmpty(), sonolink::config::loadConfig("", overrides).has_value()};
        };
        for (const auto& [probe, fine] :
             {std::pair{sonolink::gui::ProbeEntry{"lowest", 1, 0.01, 0.5}, true}, std::pair{sonolink::gui::ProbeEntry{"highest", 256, 5, 50}, true},
              std::pair{sonolink::gui::ProbeEntry{"elements", 257, 0.3, 5}, false}, std::pair{sonolink::gui::ProbeEntry{"pitch", 128, 5.5, 5}, false},
              std::pair{sonolink::gui::ProbeEntry{"centre", 128, 0.3, 0.4}, false}}) {
            const auto [dialogTakes, loaderTakes] = loads(probe);
            QVERIFY2(dialogTakes == fine && loaderTakes == fine, qPrintable(probe.name));
        }
    }

    void theProbeTabEditsTheListAndTheOneInUse() {
        sonolink::gui::SettingsDialog dialog(valid(), {}, "en");
        auto* table = dialog.findChild<QTableWidget*>("probesTable");
        auto* inUse = dialog.findChild<QComboBox*>("probeInUseCombo");
        QCOMPARE(table->rowCount(), 3);
        QCOMPARE(inUse->currentData().toString(), QString("L7-192"));
        QCOMPARE(inUse->count(), 4);  // as configured, and the three
        dialog.findChild<QPushButton*>("addProbeButton")->click();
        QCOMPARE(table->rowCount(), 4);
        table->item(3, 0)->setText("L10-64");
        table->item(3, 1)->setText("64");
        table->item(3, 2)->setText("0.25");
        table->item(3, 3)->setText("10");
        QCOMPARE(inUse->findData("L10-64"), 4);
        inUse->setCurrentIndex(4);
        table->item(3, 2)->setText("wide");
        QVERIFY(sonolink::gui::problemsOf(dialog.values()).join(' ').contains("pitch of -1 mm"));
        table->item(3, 2)->setText("0.25");
        const auto values = dialog.values();
        QCOMPARE(values.probe, QString("L10-64"));
        QCOMPARE(values.probes.back(), (sonolink::gui::ProbeEntry{"L10-64", 64, 0.25, 10}));
        table->selectRow(3);
        dialog.findChild<QPushButton*>("removeProbeButton")->click();
        QCOMPARE(inUse->currentData().toString(), QString());  // its probe gone: as configured
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
        // Test asks an edited node as shown, and one in use unchanged as the station runs it.
        QList<QPair<sonolink::gui::PacsNodeEntry, bool>> asked;
        connect(&dialog, &sonolink::gui::SettingsDialog::echoRequested, this, [&](const sonolink::gui::PacsNodeEntry& n, bool asIs) {
            asked.append({n, asIs});
        });
        table->selectRow(0);
        auto* echo = dialog.findChild<QPushButton*>("echoButton");
        QVERIFY2(echo->isEnabled(), "an edited node is tested before it is kept");
        echo->click();
        table->item(0, 3)->setText("4242");
        echo->click();
        QCOMPARE(asked.size(), 2);
        QCOMPARE(asked[0].first.port, 4243);
        QVERIFY2(!asked[0].second, "edited: asked as shown");
        QCOMPARE(asked[1].first.port, 4242);
        QVERIFY2(asked[1].second, "in use, unchanged: asked as it runs");
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
        QCOMPARE(config->probe.elementCount, 192);
        QCOMPARE(config->probe.pitchM, 0.2e-3);
        QCOMPARE(config->probe.centerFrequencyHz, 7.5e6);
    }
};

QTEST_MAIN(TestSettings)
#include "tst_settings.moc"
