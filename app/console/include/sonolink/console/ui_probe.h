// UiProbe: the console as its users feel it, measured on the GUI thread while it runs: the
// event loop's lag (a 2 ms precise timer: how late each timeout fires), the frames shown
// against the frames the engine published, what drawing a frame costs (the B-mode view's
// paint: wall time, and the GUI thread's CPU time, its cost whatever else runs), start-up to the self-test wizard's first page and, after the self-test, to the
// first live image, and in dual mode the laser shots shown and each one's time from its pulse to the view. report() gives them as JSON (`sonolink --probe-ui
// SECONDS`). Thread contract: GUI thread only.
#pragma once

#include <QElapsedTimer>
#include <QJsonObject>
#include <QObject>
#include <QTimer>

#include <vector>

namespace sonolink::gui {
class EngineBridge;
class BModeView;
}  // namespace sonolink::gui

namespace sonolink::app {

class UiProbe : public QObject {
    Q_OBJECT
public:
    UiProbe(gui::EngineBridge& bridge, gui::BModeView& view, QObject* parent = nullptr);

    void start();  // from now on: lag, frames and paints counted
    void stop();
    void markStartup(double msToWizard) { startupMs_ = msToWizard; }
    [[nodiscard]] QJsonObject report() const;

private:
    void tick();

    gui::EngineBridge& bridge_;
    QTimer timer_;
    QElapsedTimer clock_;
    QElapsedTimer sinceReady_;
    qint64 lastNs_ = 0;
    std::vector<double> lagMs_;
    std::vector<double> paintMs_;     // wall
    std::vector<double> paintCpuMs_;  // the GUI thread's CPU time: the paint's cost
    bool running_ = false;
    quint64 shownAtStart_ = 0;
    quint64 publishedAtStart_ = 0;
    quint64 shown_ = 0;
    quint64 published_ = 0;
    double seconds_ = 0;
    double startupMs_ = -1;
    double firstImageMs_ = -1;  // "ready" (the self-test over) to the first image shown
    // Dual mode: shots published (engine) and handed to the view; pulse -> view, per shot.
    quint64 shotsPublishedAtStart_ = 0, shotsPublished_ = 0, shotsShown_ = 0;
    bool anyShot_ = false;
    quint32 lastShot_ = 0;
    double clockOffsetNs_ = 0;  // the front end's clock minus the host's
    std::vector<double> shotToShownMs_;
    double shotToPublishedP99Ms_ = 0;
};

}  // namespace sonolink::app
