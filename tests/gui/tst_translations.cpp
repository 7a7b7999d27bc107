// QtTest for the console in Simplified Chinese: with the zh_CN translations installed as the
// console installs them, every text the main window, the self-test wizard (both pages, a step
// of each verdict shown, the run settled and blocked, the details box) and the
// re-authentication dialog show is Chinese: after the words that stay as they are (units,
// acronyms, the product's name) and the engine's own data (step figures, the report document),
// no Latin letters are left. A string outside tr(), or one the .ts lacks, fails it by name.
#include <QAbstractButton>
#include <QAction>
#include <QDockWidget>
#include <QGroupBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QApplication>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QTreeWidget>
#include <QTextDocument>
#include <QWizard>
#include <QtTest>
#include <unistd.h>

#include "console_engine.h"
#include "sonolink/app/engine_setup.h"
#include "sonolink/config/config_loader.h"
#include "sonolink/console/main_window.h"
#include "sonolink/gui/dialogs/exam_dialog.h"
#include "sonolink/gui/dialogs/settings_dialog.h"
#include "sonolink/gui/views/cine_bar.h"
#include "sonolink/gui/views/queue_view.h"
#include "sonolink/console/translations.h"
#include "sonolink/gui/bridge/engine_bridge.h"
#include "sonolink/gui/dialogs/reauthentication_dialog.h"
#include "sonolink/gui/dialogs/self_test_wizard.h"
#include "sonolink/gui/dialogs/self_test_words.h"
#include "sonolink/gui/views/engine_text.h"
#include "sonolink/doctor/station_doctor.h"
#include "sonolink/report/qa_report_pdf.h"

namespace {

// What may stay Latin in a Chinese text: units, acronyms and names, configuration keys, and the test's own data.
QString withoutAllowedWords(QString text) {
    static const QRegularExpression allowed(
        R"(/\S+\.(json|pdf)|archive\.endpoint|SonoLink|SHA-256|PACS|GPU|CPU|DMA|RDMA|NUMA|PTP|CRC|ADC|RMS|BER|PDF|\*\.pdf|dB|mm|MHz|µs|DICOM|TLS|AE|C-ECHO|PEM|Ctrl\+\w|test-user|DATA|&[a-z]+;|<[^>]*>|\(&\w\))");
    return text.remove(allowed);
}

const QRegularExpression& cjk() {
    static const QRegularExpression han("\\p{Han}");
    return han;
}

class TestTranslations : public QObject {
    Q_OBJECT
    QStringList untranslated_;

    void check(const QString& where, const QString& text) {
        static const QRegularExpression latin("[A-Za-z]{2,}");
        if (text.isEmpty()) return;
        if (latin.match(withoutAllowedWords(text)).hasMatch()) untranslated_ << where + ": " + text;
    }

    void checkWidgets(QWidget& root) {
        check(root.objectName() + " window title", root.windowTitle());
        for (auto* label : root.findChildren<QLabel*>()) {
            if (label->isVisibleTo(&root)) check(label->objectName() + " (label)", label->text());
        }
        for (auto* button : root.findChildren<QAbstractButton*>()) {
            if (button->isVisibleTo(&root)) check(button->objectName() + " (button)", button->text());
            check(button->objectName() + " (tooltip)", button->toolTip());
        }
        for (auto* action : root.findChildren<QAction*>()) {
            if (!action->isSeparator()) check(action->objectName() + " (action)", action->text());
        }
        for (auto* page : root.findChildren<QWizardPage*>()) {
            check(page->objectName() + " title", page->title());
            check(page->objectName() + " subtitle", page->subTitle());
        }
        for (auto* table : root.findChildren<QTableWidget*>()) {
            for (int c = 0; c < table->columnCount(); ++c) check(table->objectName() + " header", table->horizontalHeaderItem(c)->text());
        }
        if (auto* queue = root.findChild<QTableWidget*>("queueTable"); queue && queue->rowCount() > 0) check("queue state", queue->item(0, 4)->text());
        for (auto* tabs : root.findChildren<QTabWidget*>()) {
            for (int i = 0; i < tabs->count(); ++i) check(tabs->objectName() + " tab", tabs->tabText(i));
        }
        for (auto* group : root.findChildren<QGroupBox*>()) check(group->objectName() + " group", group->title());
        for (auto* dock : root.findChildren<QDockWidget*>()) check(dock->objectName() + " dock", dock->windowTitle());
        for (auto* list : root.findChildren<QTreeWidget*>()) {
            for (int c = 0; c < list->columnCount(); ++c) check(list->objectName() + " header", list->headerItem()->text(c));
            for (int i = 0; i < list->topLevelItemCount(); ++i) {
                check(list->objectName() + " step", list->topLevelItem(i)->text(0));  // the figures (column 3) are the engine's data
                check(list->objectName() + " verdict", list->topLevelItem(i)->text(1));
            }
        }
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(sonolink::app::installTranslations(*QCoreApplication::instance(), "zh_CN")); }

    void theLanguageComesFromTheOverrideElseTheSettingElseTheLocale() {
        QCOMPARE(sonolink::app::chooseLanguage("zh_CN"), QString("zh_CN"));
        QCOMPARE(sonolink::app::chooseLanguage("zh_TW"), QString("zh_CN"));
        QCOMPARE(sonolink::app::chooseLanguage("en"), QString("en"));
        QCOMPARE(sonolink::app::chooseLanguage("de_DE"), QString("en"));  // no German: English
    }

    void everyVisibleStringIsChinese() {
        using sonolink::gui::SelfTestResult;
        sonolink::gui::SelfTestWizard wizard("test-user");
        wizard.show();
        wizard.showRunning();
        wizard.showProgress("link BER", 0.4, "DATA");  // the detail is the engine's
        checkWidgets(wizard);
        const auto result = [](const QString& step, const QString& verdict) {
            SelfTestResult r;
            r.step = step;
            r.verdict = verdict;
            r.figures = r.limit = "DATA";
            if (verdict != "pass") r.fix = "DATA";
            return r;
        };
        const auto pass = result("station: writable folder (recordings)", "pass");
        const auto warn = result("station: GPU", "warn");
        auto fail = result("link BER", "fail");
        fail.seconds = 0.4;
        fail.bitsChecked = 30000000000ULL;
        fail.bitErrors = 3000;
        fail.ber = 1e-7;
        fail.berUpperBound = 1.2e-7;
        fail.elements = {{640, 38, 0.9, "ok", -1}, {2, 1, 0.1, "dead", -1}, {600, 30, 0.2, "swapped", 5}};
        for (const auto& r : {pass, warn, fail}) wizard.showStep(r);
        wizard.showSettled("DATA");
        wizard.showReport("<p>DATA</p>", "/tmp/DATA.json", false);
        checkWidgets(wizard);
        wizard.stepList()->setCurrentItem(wizard.stepList()->topLevelItem(2));
        wizard.findChild<QPushButton*>("detailsButton")->click();
        QMessageBox* details = nullptr;
        QTRY_VERIFY((details = wizard.findChild<QMessageBox*>("stepDetails")) != nullptr);
        QTextDocument document;
        document.setHtml(details->text());
        check("step details", document.toPlainText());
        check("step details title", details->windowTitle());
        details->close();
        wizard.next();
        checkWidgets(wizard);
        wizard.showOverride("test-user", "DATA");
        checkWidgets(wizard);

        sonolink::gui::ExamDialog exam({"worklist"}, {});
        checkWidgets(exam);
        exam.showWorklist({}, {});
        checkWidgets(exam);
        exam.findChild<QPushButton*>("startExamButton")->click();  // every problem, listed
        checkWidgets(exam);

        sonolink::gui::StationSettings station;
        station.nodes << sonolink::gui::PacsNodeEntry{"影像科", "ORTHANC", "127.0.0.1", 4242, true};  // a node name is the user's data
        sonolink::gui::SettingsDialog settings(station, {"影像科"}, "zh_CN");
        checkWidgets(settings);
        settings.findChild<QPushButton*>("settingsOkButton")->click();  // every problem, listed (TLS without its files)
        checkWidgets(settings);
        settings.showEcho("影像科", false, {});
        checkWidgets(settings);

        sonolink::gui::CineBar cine;
        cine.load(5, 33);
        checkWidgets(cine);
        cine.play();
        checkWidgets(cine);

        sonolink::gui::QueueView queue;
        sonolink::gui::QueueRow item;
        item.id = "000001";
        item.state = "failed";
        queue.showQueue({item});
        checkWidgets(queue);

        sonolink::gui::ReauthenticationDialog dialog(QCoreApplication::translate("sonolink::gui::QaReportPage", "Override"), "", "", {}, "test-user");
        checkWidgets(dialog);

        auto engine = sonolink::testing::consoleEngine("", "tst_translations");  // its own link: the GUI tests run at once
        QVERIFY(engine);
        sonolink::gui::EngineBridge bridge(*engine);
        sonolink::app::MainWindow window(bridge, /*autoStream=*/false);
        window.show();
        checkWidgets(window);

        QVERIFY2(untranslated_.isEmpty(), qPrintable("not in Chinese:\n" + untranslated_.join('\n')));
    }

    // Every pattern of the engine's sentences has its Chinese, with the same values (%n).
    void theEngineTextCatalogueIsTranslated() {
        QStringList missing;
        static const QRegularExpression placeholder("%[1-9]");
        for (const auto& pattern : sonolink::gui::engineTextPatterns()) {
            const auto chinese = QCoreApplication::translate("sonolink::gui::EngineText", pattern.toUtf8().constData());
            QStringList ours, theirs;
            for (auto it = placeholder.globalMatch(pattern); it.hasNext();) ours << it.next().captured();
            for (auto it = placeholder.globalMatch(chinese); it.hasNext();) theirs << it.next().captured();
            ours.sort();
            theirs.sort();
            if (chinese == pattern || !chinese.contains(cjk()) || ours != theirs) missing << pattern + " -> " + chinese;
        }
        QVERIFY2(missing.isEmpty(), qPrintable("patterns without their Chinese:\n" + missing.join('\n')));
    }

    // The engine's own sentences as the console shows them: a whole self-test of the shipped
    // configuration on the simulated front end (its PACS absent) through the bridge, the station
    // check's rows, and the QA report made of them: every figure, limit and advice is a sentence
    // of the catalogue, shown in Chinese (the values in it stay as the engine wrote them: numbers,
    // folders, a node's name, a tool's own error); the report's labels are Chinese.
    void theEngineSentencesAreShownInChinese() {
        auto engine = sonolink::testing::consoleEngine(SONOLINK_DEFAULT_CONFIG, "tst_translations_engine", {}, {}, sonolink::app::SelfTestChoice::AsConfigured);
        QVERIFY(engine);
        sonolink::gui::EngineBridge bridge(*engine);
        QList<sonolink::gui::SelfTestResult> results;
        connect(&bridge, &sonolink::gui::EngineBridge::selfTestStepEnded, this, [&](const sonolink::gui::SelfTestResult& r) { results << r; });
        bool ended = false;
        connect(&bridge, &sonolink::gui::EngineBridge::selfTestProgress, this,
                [&](const QString& step, double, const QString&) { ended = !results.isEmpty() && step.isEmpty(); });
        bridge.connectLink();  // the shipped configuration runs its self-test at connect
        QTRY_VERIFY_WITH_TIMEOUT(ended && (bridge.stateName() == "ready" || bridge.stateName() == "error"), 120000);
        QVERIFY(results.size() >= 8);
        QStringList english;
        const auto shown = [&](const QString& where, const QString& text) {
            if (!text.isEmpty() && !text.contains(cjk())) english << where + ": " + text;
        };
        for (const auto& r : results) {
            shown(r.step + " figures", r.figures);
            shown(r.step + " limit", r.limit);
            shown(r.step + " what to do", r.fix);
        }
        for (const auto& c : sonolink::doctor::runDoctor({SONOLINK_DEFAULT_CONFIG, {}}).checks) {
            shown("station check " + QString::fromStdString(c.check) + " figures", sonolink::gui::engineText(QString::fromStdString(c.figures)));
            shown("station check " + QString::fromStdString(c.check) + " what to do", sonolink::gui::engineText(QString::fromStdString(c.fix)));
        }
        QVERIFY2(english.isEmpty(), qPrintable("shown in English:\n" + english.join('\n')));

        nlohmann::json report{{"station", "SL-1"}, {"verdict", "fail"}, {"steps", nlohmann::json::array()}};
        for (const auto& step : bridge.selfTestSteps()) {
            report["steps"].push_back({{"step", step.step}, {"verdict", "fail"}, {"figures", step.figures}, {"limit", step.limit}, {"fix", step.fix}});
        }
        const sonolink::report::ReportLanguage language{[](const std::string& s) { return sonolink::gui::engineText(QString::fromStdString(s)).toStdString(); },
                                                        [](const std::string& s) { return sonolink::gui::stepTitle(QString::fromStdString(s)).toStdString(); }};
        QTextDocument html;
        html.setHtml(QString::fromStdString(sonolink::report::qaReportHtml(report, language)));
        const auto text = html.toPlainText();
        for (const char* label : {"Station", "Verdict", "Steps", "Figures", "Limit", "What to do:", "Signature", "Not signed", "FAIL", "fail"}) {
            if (text.contains(label)) english << QString("the QA report's label ") + label;
        }
        for (const auto& r : results) {
            if (!text.contains(sonolink::gui::stepTitle(r.step)) || !text.contains(r.figures.left(24))) english << "the QA report's row of " + r.step;
        }
        QVERIFY2(english.isEmpty(), qPrintable("the QA report in English:\n" + english.join('\n')));
    }
};

}  // namespace

QTEST_MAIN(TestTranslations)
#include "tst_translations.moc"
