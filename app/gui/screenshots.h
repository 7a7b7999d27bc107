// Screenshots of the running console, for the docs (tests/gui/take_screenshots.sh runs it under
// Xvfb): what each --screenshot-* option saves and the scene it sets up first (the worklist
// asked, a cine exported, calipers on the frozen phantom), timed against --quit-after, then the
// quit. Thread contract: GUI thread only.
#pragma once

#include <QString>

namespace sonolink::config {
struct AppConfig;
}
namespace sonolink::gui {
class EngineBridge;
class SelfTestWizard;
}  // namespace sonolink::gui

namespace sonolink::app {

class MainWindow;

struct ScreenshotPlan {
    QString main;          // the main window (empty: no screenshots, no quit)
    QString wizard;        // the self-test wizard's steps page
    QString report;        // its report page
    QString exam;          // the exam dialog answering the first DICOM node's worklist
    QString queue;         // the main window's PACS queue after a cine export to the first node
    QString calipers;      // the main window frozen, calipers on the phantom's targets
    QString settings;      // the settings dialog, its first node's C-ECHO answered
    QString stationCheck;  // Help > Station check…, its checks in
    QString examPatient;   // the exam dialog's patient page, filled from the worklist's first item (with exam)
    int quitMs = 6000;
};

// Arms the timers; the objects must outlive the event loop.
void scheduleScreenshots(const ScreenshotPlan& plan, const config::AppConfig& config, MainWindow& window, gui::SelfTestWizard& wizard,
                         gui::EngineBridge& bridge);

}  // namespace sonolink::app
