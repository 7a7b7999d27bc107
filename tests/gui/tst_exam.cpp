// QtTest for the exam: the patient's values checked as DICOM would (PN delimiters, lengths, ID,
// birth date, sex), names in PN components with Chinese ones (to PN and back), the dialog
// refusing Start exam while a problem stands and listing it, a worklist answer listed and
// picked into the form; and, when exam_worklist_test.py runs it against dcmtk's wlmscpfs
// (SONOLINK_TEST_CONFIG naming the nodes "worklist" and the closed "nobody"), the console's
// worklist query, the pick, the exam set on the real engine, a failed query's reason, End exam.
#include <QtTest>

#include <QComboBox>
#include <QDateEdit>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

#include "console_engine.h"
#include "sonolink/console/main_window.h"
#include "sonolink/gui/dialogs/exam_dialog.h"
#include "sonolink/gui/views/exam_entry.h"

using sonolink::gui::ExamDialog;
using sonolink::gui::ExamEntry;

namespace {

ExamEntry valid() {
    ExamEntry e;
    e.familyName = "Wang";
    e.givenName = "Xiaoming";
    e.ideographicFamily = "王";
    e.ideographicGiven = "小明";
    e.id = "P0001";
    e.birthDate = QDate(1980, 1, 1);
    e.sex = "M";
    return e;
}

void type(QWidget& dialog, const char* name, const QString& text) {
    auto* edit = dialog.findChild<QLineEdit*>(name);
    QVERIFY2(edit, name);
    edit->setText(text);
}

}  // namespace

class TestExam : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void namesGoToPnAndBack() {
        QCOMPARE(sonolink::gui::pnOf(valid()), QString("Wang^Xiaoming=王^小明"));
        ExamEntry alphabetic;
        alphabetic.familyName = "Smith";
        QCOMPARE(sonolink::gui::pnOf(alphabetic), QString("Smith"));  // trailing empty components dropped
        const auto back = sonolink::gui::entryFromPn("Wang^Xiaoming=王^小明");
        QCOMPARE(back.familyName, QString("Wang"));
        QCOMPARE(back.givenName, QString("Xiaoming"));
        QCOMPARE(back.ideographicFamily, QString("王"));
        QCOMPARE(back.ideographicGiven, QString("小明"));
        QCOMPARE(sonolink::gui::displayName(back), QString("Wang Xiaoming (王小明)"));
        QCOMPARE(sonolink::gui::displayName(sonolink::gui::entryFromPn("=李^娜")), QString("李娜"));
        QCOMPARE(sonolink::gui::displayName(alphabetic), QString("Smith"));
    }

    void theValuesAreCheckedAsDicomWould() {
        const QDate today(2026, 12, 2);
        QVERIFY(sonolink::gui::problemsOf(valid(), today).isEmpty());
        ExamEntry chineseOnly;  // a Chinese name alone is a name
        chineseOnly.ideographicFamily = "李";
        chineseOnly.id = "P2";
        QVERIFY(sonolink::gui::problemsOf(chineseOnly, today).isEmpty());
        const auto problem = [&](auto change, const char* expected) {
            ExamEntry e = valid();
            change(e);
            const auto problems = sonolink::gui::problemsOf(e, today);
            QVERIFY2(problems.size() == 1 && problems[0].contains(expected), qPrintable(problems.join(" | ")));
        };
        problem([](ExamEntry& e) { e.familyName = "Wang^Li"; }, "family name may not contain");
        problem([](ExamEntry& e) { e.ideographicGiven = "小=明"; }, "given name (characters)");
        problem([](ExamEntry& e) { e.familyName.clear(), e.ideographicFamily.clear(); }, "family name is needed");
        problem([](ExamEntry& e) { e.familyName = QString(70, 'a'); }, "64 characters");
        problem([](ExamEntry& e) { e.id.clear(); }, "patient ID is needed");
        problem([](ExamEntry& e) { e.id = "A\\B"; }, "patient ID may not contain");
        problem([](ExamEntry& e) { e.birthDate = QDate(2027, 1, 1); }, "future");
        problem([](ExamEntry& e) { e.sex = "X"; }, "Sex must be");
        problem([](ExamEntry& e) { e.accessionNumber = QString(17, '1'); }, "accession number");
    }

    void theDialogRefusesToStartWhileAProblemStands() {
        ExamDialog dialog({}, {});
        dialog.show();
        type(dialog, "familyNameEdit", "Wang^");
        type(dialog, "patientIdEdit", "");
        dialog.findChild<QPushButton*>("startExamButton")->click();
        QVERIFY(dialog.isVisible());
        QCOMPARE(dialog.result(), int(QDialog::Rejected));
        const auto shown = dialog.findChild<QLabel*>("examProblemsLabel")->text();
        QVERIFY2(shown.contains("may not contain") && shown.contains("patient ID is needed"), qPrintable(shown));
        type(dialog, "familyNameEdit", "Wang");
        type(dialog, "ideographicFamilyEdit", "王");
        type(dialog, "patientIdEdit", "P0001");
        dialog.findChild<QPushButton*>("startExamButton")->click();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QCOMPARE(sonolink::gui::pnOf(dialog.entry()), QString("Wang=王"));
        QVERIFY(!dialog.entry().birthDate.isValid());                                  // unknown unless given
        QVERIFY(!dialog.findChild<QPushButton*>("worklistQueryButton")->isEnabled());  // no node configured
    }

    void aWorklistAnswerIsListedAndPicked() {
        ExamDialog dialog({"worklist"}, {});
        QSignalSpy asked(&dialog, &ExamDialog::worklistQueryRequested);
        dialog.findChild<QDateEdit*>("worklistDateEdit")->setDate(QDate(2026, 11, 30));
        dialog.findChild<QPushButton*>("worklistQueryButton")->click();
        QCOMPARE(asked.size(), 1);
        QCOMPARE(asked[0][0].toString(), QString("worklist"));
        QCOMPARE(asked[0][1].toString(), QString("20261130"));
        sonolink::gui::ScheduledRow row;
        row.exam = valid();
        row.exam.studyInstanceUid = "2.25.42";
        row.exam.requestedProcedureDescription = "US THYROID, left lobe";
        row.date = "20261130";
        row.time = "090000";
        dialog.showWorklist({row}, {});
        QCOMPARE(dialog.worklistRows(), 1);
        dialog.pick(0);
        QCOMPARE(dialog.findChild<QLineEdit*>("ideographicFamilyEdit")->text(), QString("王"));
        QCOMPARE(dialog.entry().studyInstanceUid, QString("2.25.42"));  // the order's fields come along
        QCOMPARE(dialog.entry().bodyPart, QString("THYROID"));          // the body part its procedure names
        dialog.findChild<QComboBox*>("bodyPartCombo")->setCurrentText("neck");
        QCOMPARE(dialog.entry().bodyPart, QString("NECK"));  // changed by hand, as DICOM writes it
        dialog.showWorklist({}, "nothing listening at 127.0.0.1:1");
        QVERIFY(dialog.findChild<QLabel*>("worklistStatusLabel")->text().contains("nothing listening"));
    }

    void theConsolePicksFromARealWorklist() {
        const QByteArray path = qgetenv("SONOLINK_TEST_CONFIG");
        if (path.isEmpty()) QSKIP("needs wlmscpfs: run by tests/gui/exam_worklist_test.py");
        auto engine = sonolink::testing::consoleEngine(path.toStdString(), "tst_exam");
        QVERIFY(engine);
        sonolink::gui::EngineBridge bridge(*engine);
        sonolink::app::MainWindow window(bridge, false);
        window.setDicomNodes({"worklist", "nobody"});
        window.show();
        QVERIFY(window.findChild<QLabel*>("patientLabel")->text().contains("No exam"));

        window.openExam();
        auto* dialog = window.examDialog();
        QVERIFY(dialog);
        dialog->findChild<QDateEdit*>("worklistDateEdit")->setDate(QDate(2026, 11, 30));
        dialog->findChild<QPushButton*>("worklistQueryButton")->click();
        QTRY_COMPARE_WITH_TIMEOUT(dialog->worklistRows(), 1, 15000);
        dialog->pick(0);
        QCOMPARE(dialog->findChild<QLineEdit*>("familyNameEdit")->text(), QString("Wang"));
        QCOMPARE(dialog->findChild<QLineEdit*>("ideographicGivenEdit")->text(), QString("小明"));
        QCOMPARE(dialog->findChild<QLineEdit*>("patientIdEdit")->text(), QString("P0001"));
        dialog->findChild<QPushButton*>("startExamButton")->click();
        QTRY_COMPARE_WITH_TIMEOUT(engine->exam().patient.name, std::string("Wang^Xiaoming=王^小明"), 5000);
        QCOMPARE(engine->exam().studyInstanceUid, std::string("2.25.1234567890"));  // the order's study
        QCOMPARE(engine->exam().patient.birthDate, std::string("19800101"));
        QCOMPARE(engine->exam().requestedProcedureId, std::string("RP0001"));
        QVERIFY(window.findChild<QLabel*>("patientLabel")->text().contains("王小明"));

        window.openExam();  // a node that does not answer: the reason, in the dialog
        dialog = window.examDialog();
        QVERIFY(dialog);
        dialog->findChild<QComboBox*>("worklistNodeCombo")->setCurrentText("nobody");
        dialog->findChild<QPushButton*>("worklistQueryButton")->click();
        QTRY_VERIFY_WITH_TIMEOUT(dialog->findChild<QLabel*>("worklistStatusLabel")->text().contains("failed"), 15000);
        dialog->reject();

        window.findChild<QAction*>("endExamAction")->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(engine->exam().patient.name.empty(), 5000);
        QVERIFY(window.findChild<QLabel*>("patientLabel")->text().contains("No exam"));
    }
};

QTEST_MAIN(TestExam)
#include "tst_exam.moc"
