// EngineBridge: the one adapter between the engine's facade and the GUI. Engine events (from
// engine threads) become queued Qt signals on the bridge's thread; a timer on that thread pulls
// the newest display frame at the screen's pace and hands it on as a BModeImage; commands go
// straight to the facade (which queues them and returns at once). The only GUI code that
// includes the facade's headers. Thread contract: GUI thread only (the signals arrive there).
#pragma once

#include <QObject>
#include <QString>
#include <QTimer>

#include "sonolink/engine/engine.h"
#include "sonolink/gui/views/bmode_image.h"

namespace sonolink::gui {

class EngineBridge : public QObject {
    Q_OBJECT
public:
    // engine must outlive the bridge. intervalMs: how often the newest frame is looked for.
    explicit EngineBridge(engine::Engine& engine, int intervalMs = 8, QObject* parent = nullptr);
    ~EngineBridge() override;

    void connectLink() { engine_.connect(); }
    void startStreaming() { engine_.startStreaming(); }
    void freeze() { engine_.freeze(); }
    void disconnectLink() { engine_.disconnect(); }
    void setGainDb(double gainDb);
    void setDynamicRangeDb(double rangeDb);

    [[nodiscard]] QString stateName() const;
    [[nodiscard]] quint64 framesShown() const { return framesShown_; }

Q_SIGNALS:
    void stateChanged(const QString& state, const QString& reason);
    // An error or warning in one line: where it came from, what, and what to do.
    void problem(const QString& description, bool isError);
    void imageReady(const sonolink::gui::BModeImage& image);
    // A start-up self-test step ended: its verdict ("pass", "warn", "fail"), figures and fix.
    void selfTestStepEnded(const QString& step, const QString& verdict, const QString& figures, const QString& fix);

private:
    void pull();

    engine::Engine& engine_;
    engine::ImagingSettings imaging_;  // as asked for last (the engine applies them later)
    engine::Subscription subscription_;
    QTimer timer_;
    quint64 lastSession_ = 0;
    quint32 lastFrame_ = 0;
    bool seenOne_ = false;
    quint64 framesShown_ = 0;
};

}  // namespace sonolink::gui
