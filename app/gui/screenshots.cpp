#include "screenshots.h"

#include <QApplication>
#include <QDockWidget>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>
#include <QTimer>

#include <algorithm>
#include <iostream>

#include "sonolink/config/app_config.h"
#include "sonolink/console/main_window.h"
#include "sonolink/gui/bridge/engine_bridge.h"
#include "sonolink/gui/dialogs/self_test_wizard.h"
#include "sonolink/gui/views/bmode_view.h"

namespace sonolink::app {
namespace {

void save(QWidget& widget, const QString& file) {
    if (!widget.grab().save(file)) std::cerr << "sonolink: cannot save the screenshot " << file.toStdString() << '\n';
}

// The built-in phantom's first two targets under the array's centre (at a quarter and a half
// of the imaged depth) and its cyst, where the calipers go.
void placeCalipers(const config::AppConfig& config, gui::BModeView& view) {
    const auto& a = config.acquisition;
    const double depthMm = a.soundSpeedMps * a.samplesPerChannel / a.samplingRateHz / 2 * 1000;
    const double halfApertureMm = config.probe.elementCount * config.probe.pitchM / 2 * 1000;
    gui::Measurement distance;
    distance.kind = gui::MeasurementKind::Distance;
    distance.pointsMm = {QPointF(0, 0.25 * depthMm), QPointF(0, 0.5 * depthMm)};
    view.addMeasurement(distance);
    const double r = std::min(0.12 * depthMm, 0.3 * halfApertureMm);
    const QPointF cyst(-0.4 * halfApertureMm, 0.7 * depthMm);
    gui::Measurement ellipse;
    ellipse.kind = gui::MeasurementKind::Ellipse;
    ellipse.pointsMm = {cyst - QPointF(r, 0), cyst + QPointF(r, 0), cyst + QPointF(0, r)};
    view.addMeasurement(ellipse);
    gui::Measurement note;
    note.kind = gui::MeasurementKind::Text;
    note.pointsMm = {cyst + QPointF(-r, -r - 1)};
    note.text = QStringLiteral("cyst");
    view.addMeasurement(note);
}

// At the quit time: the main window and every other screen asked for, each from the scene set up
// for it; the calipers last, on the frozen image, then the quit.
void takePlannedScreenshots(const ScreenshotPlan& plan, const config::AppConfig& config, MainWindow& window, gui::SelfTestWizard& wizard,
                            gui::EngineBridge& bridge) {
    save(window, plan.main);
    if (!plan.stationCheck.isEmpty() && window.stationCheckDialog()) save(*window.stationCheckDialog(), plan.stationCheck);
    if (!plan.wizard.isEmpty()) save(wizard, plan.wizard);
    if (!plan.exam.isEmpty() && window.examDialog()) {
        save(*window.examDialog(), plan.exam);
        if (auto* table = window.examDialog()->findChild<QTableWidget*>("worklistTable"); !plan.examPatient.isEmpty() && table && table->rowCount() > 0) {
            table->selectRow(0);
            window.examDialog()->findChild<QPushButton*>("worklistUseButton")->click();  // the patient page, its body part from the order
            QApplication::processEvents();
            save(*window.examDialog(), plan.examPatient);
        }
    }
    if (!plan.settings.isEmpty() && window.settingsDialog()) save(*window.settingsDialog(), plan.settings);
    if (!plan.queue.isEmpty()) {
        window.findChild<QDockWidget*>("queueDock")->raise();
        QApplication::processEvents();
        save(window, plan.queue);
    }
    if (!plan.report.isEmpty()) {
        wizard.next();
        save(wizard, plan.report);
    }
    if (plan.calipers.isEmpty()) return QApplication::quit();
    wizard.hide();
    bridge.freeze();  // then the calipers on the frozen image, once the freeze is in
    QTimer::singleShot(1500, &window, [plan, &config, &window] {
        placeCalipers(config, *window.view());
        QApplication::processEvents();
        save(window, plan.calipers);
        QApplication::quit();
    });
}

}  // namespace

void scheduleScreenshots(const ScreenshotPlan& plan, const config::AppConfig& config, MainWindow& window, gui::SelfTestWizard& wizard,
                         gui::EngineBridge& bridge) {
    if (plan.main.isEmpty()) return;
    const auto before = [&](int ms, auto action) { QTimer::singleShot(std::max(0, plan.quitMs - ms), &window, action); };
    if (!plan.exam.isEmpty()) {  // the worklist asked 3 s before
        before(3000, [&window] {
            window.openExam();
            window.examDialog()->findChild<QTabWidget*>()->setCurrentIndex(1);
            window.examDialog()->findChild<QPushButton*>("worklistQueryButton")->click();
        });
    }
    if (!plan.queue.isEmpty()) {  // exported 5 s before, under a demo exam (an export needs one)
        before(5000, [&window, &bridge] {
            gui::ExamEntry demo;
            demo.familyName = "Demo";
            demo.givenName = "Phantom";
            demo.ideographicFamily = "演示";
            demo.id = "DEMO-0001";
            bridge.setExam(demo);
            window.exportCine();
        });
    }
    if (!plan.settings.isEmpty()) {  // the first node's C-ECHO asked 3 s before
        before(3000, [&window] {
            window.openSettings();
            if (auto* table = window.settingsDialog()->findChild<QTableWidget*>("nodesTable"); table && table->rowCount() > 0) table->selectRow(0);
            if (auto* echo = window.settingsDialog()->findChild<QPushButton*>("echoButton"); echo && echo->isEnabled()) echo->click();
        });
    }
    if (!plan.stationCheck.isEmpty()) before(4000, [&window] { window.openStationCheck(); });  // a C-ECHO per node: seconds
    QTimer::singleShot(plan.quitMs, &window, [plan, &config, &window, &wizard, &bridge] { takePlannedScreenshots(plan, config, window, wizard, bridge); });
}

}  // namespace sonolink::app
