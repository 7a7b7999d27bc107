#include "probe_run.h"

#include <QApplication>
#include <QJsonDocument>
#include <QPushButton>
#include <QTimer>

#include <iostream>

#include "sonolink/console/main_window.h"
#include "sonolink/console/ui_probe.h"
#include "sonolink/gui/bridge/engine_bridge.h"

namespace sonolink::app {

void scheduleUiProbe(double seconds, MainWindow& window, gui::EngineBridge& bridge, UiProbe& probe) {
    const int ms = static_cast<int>(seconds * 1000);
    auto armed = std::make_shared<QMetaObject::Connection>();
    *armed = QObject::connect(&bridge.display(), &gui::DisplayFeed::imageReady, &window, [armed, ms, &window, &bridge, &probe](const gui::BModeImage&) {
        QObject::disconnect(*armed);  // the first live image: settle, then measure
        QTimer::singleShot(1000, &window, [ms, &window, &bridge, &probe] {
            probe.start();
            QTimer::singleShot(ms / 2, &window, [&window, &bridge] {
                gui::ExamEntry probeExam;  // an export needs an exam
                probeExam.familyName = "Probe";
                probeExam.id = "PROBE-0001";
                bridge.setExam(probeExam);
                window.exportCine();
                window.openExam();
                if (auto* query = window.examDialog()->findChild<QPushButton*>("worklistQueryButton"); query && query->isEnabled()) query->click();
            });
            QTimer::singleShot(ms, &window, [&window, &bridge, &probe] {
                probe.stop();
                auto report = probe.report();
                report["window_title"] = window.windowTitle();  // a review names its recording
                report["channels"] = bridge.channelCount();     // the acquisition shown (a review's is the recording's)
                std::cout << QJsonDocument(report).toJson(QJsonDocument::Compact).toStdString() << std::endl;
                QApplication::quit();
            });
        });
    });
}

}  // namespace sonolink::app
