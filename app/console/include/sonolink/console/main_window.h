// MainWindow: the SonoLink console's first screen: the live B-mode view in true proportions,
// Connect / Live / Freeze, gain and dynamic range, and a status bar with the engine's state, the
// frame rate and latency, and the newest problem with its origin and what to do; Self-test opens
// the start-up self-test wizard again.
// Thread contract: GUI thread only.
#pragma once

#include <QElapsedTimer>
#include <QMainWindow>

#include "sonolink/gui/bridge/engine_bridge.h"

class QLabel;
class QSlider;

namespace sonolink::gui {
class BModeView;
}

namespace sonolink::app {

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // Streams as soon as the engine is Ready when autoStream.
    MainWindow(gui::EngineBridge& bridge, bool autoStream, QWidget* parent = nullptr);

    [[nodiscard]] gui::BModeView* view() const { return view_; }

Q_SIGNALS:
    void selfTestRequested();  // the engineer asked for the self-test wizard

private:
    void onState(const QString& state, const QString& reason);
    void onImage(const gui::BModeImage& image);

    gui::EngineBridge& bridge_;
    bool autoStream_;
    gui::BModeView* view_;
    QLabel* state_;
    QLabel* rate_;
    QLabel* problem_;
    QSlider* gain_;
    QSlider* range_;
    QElapsedTimer clock_;
    quint64 framesAtMark_ = 0;
};

}  // namespace sonolink::app
