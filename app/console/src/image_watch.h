// ImageWatch: the console's guard against a picture that lies. While streaming, a display that
// has had no new image for staleAfterMs (the console's: 0.75 s) says so on the image within a
// sixth more, with the likeliest cause from the link's health (frames the beamformer refused,
// frames lost, or none arriving); while a failed self-test blocks scanning, the image says what
// failed and what to do; frozen, it is marked FROZEN. The status bar's rate is told when it goes
// stale (stalled()). Thread contract: GUI thread only.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>

#include "sonolink/gui/bridge/engine_bridge.h"
#include "sonolink/gui/views/bmode_view.h"

namespace sonolink::app {

class ImageWatch : public QObject {
    Q_OBJECT
public:
    // staleAfterMs: how long without a new image while streaming before the image says so.
    ImageWatch(gui::EngineBridge& bridge, gui::BModeView& view, int staleAfterMs = 1000, QObject* parent = nullptr);

Q_SIGNALS:
    // No new image for this long while streaming, and why (empty why: images flow again).
    void stalled(double seconds, const QString& why);

private:
    void onState(const QString& state, const QString& reason);
    void check();
    void show();

    gui::EngineBridge& bridge_;
    gui::BModeView& view_;
    int staleAfterMs_;
    QTimer timer_;
    QElapsedTimer sinceImage_;
    QString state_;
    QString stateReason_;
    gui::LinkHealth lastHealth_;
    bool stale_ = false;
};

}  // namespace sonolink::app
