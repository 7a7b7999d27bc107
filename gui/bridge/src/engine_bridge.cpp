#include "sonolink/gui/bridge/engine_bridge.h"

#include <QMetaObject>
#include <QPointer>

namespace sonolink::gui {

EngineBridge::EngineBridge(engine::Engine& engine, int intervalMs, QObject* parent)
    : QObject(parent), engine_(engine), imaging_(engine.imaging()) {
    setObjectName("engineBridge");
    QPointer<EngineBridge> self(this);
    // On an engine thread: copy what the GUI needs and post it; the bridge's thread emits it.
    subscription_ = engine_.subscribe([self](const engine::EngineEvent& event) {
        if (const auto* s = std::get_if<engine::StateChanged>(&event)) {
            const auto state = QString::fromUtf8(engine::toString(s->to).data(), static_cast<qsizetype>(engine::toString(s->to).size()));
            const auto reason = QString::fromStdString(s->reason);
            QMetaObject::invokeMethod(self.data(), [self, state, reason] { if (self) Q_EMIT self->stateChanged(state, reason); }, Qt::QueuedConnection);
        } else if (const auto* t = std::get_if<engine::SelfTestStep>(&event)) {
            const auto verdictName = engine::toString(t->verdict);
            const auto step = QString::fromStdString(t->step), figures = QString::fromStdString(t->figures), fix = QString::fromStdString(t->fix);
            const auto verdict = QString::fromUtf8(verdictName.data(), static_cast<qsizetype>(verdictName.size()));
            QMetaObject::invokeMethod(
                self.data(), [self, step, verdict, figures, fix] { if (self) Q_EMIT self->selfTestStepEnded(step, verdict, figures, fix); },
                Qt::QueuedConnection);
        } else if (const auto* e = std::get_if<engine::EngineError>(&event)) {
            const auto text = QString::fromStdString(e->describe());
            const bool isError = e->severity != engine::Severity::Warning;
            QMetaObject::invokeMethod(self.data(), [self, text, isError] { if (self) Q_EMIT self->problem(text, isError); }, Qt::QueuedConnection);
        }
    });
    connect(&timer_, &QTimer::timeout, this, &EngineBridge::pull);
    timer_.start(intervalMs);
}

EngineBridge::~EngineBridge() {
    timer_.stop();
    subscription_ = {};  // no sink runs after this
}

QString EngineBridge::stateName() const {
    const auto name = engine::toString(engine_.state());
    return QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
}

// The settings asked for are the bridge's own copy: the engine applies them on its thread, so a
// second change read from engine.imaging() before the first is applied would undo the first.
void EngineBridge::setGainDb(double gainDb) {
    imaging_.gainDb = gainDb;
    engine_.setImaging(imaging_);
}

void EngineBridge::setDynamicRangeDb(double rangeDb) {
    imaging_.dynamicRangeDb = rangeDb;
    engine_.setImaging(imaging_);
}

// The newest frame, once: its pixels wrapped (the frame is immutable once published; the image
// keeps it alive), then handed to the views.
void EngineBridge::pull() {
    auto frame = engine_.latestFrame();
    if (!frame || frame->rows <= 0 || frame->columns <= 0) return;
    if (seenOne_ && frame->session == lastSession_ && frame->frameId == lastFrame_) return;
    seenOne_ = true;
    lastSession_ = frame->session;
    lastFrame_ = frame->frameId;
    auto* keep = new std::shared_ptr<const engine::DisplayFrame>(frame);
    QImage image(frame->pixels.data(), frame->columns, frame->rows, frame->columns, QImage::Format_Grayscale8,
                 [](void* held) { delete static_cast<std::shared_ptr<const engine::DisplayFrame>*>(held); }, keep);
    BModeImage out;
    out.image = std::move(image);
    out.mmPerPixel = frame->cmPerPixelX * 10;
    out.xStartMm = frame->xStartCm * 10;
    out.zStartMm = frame->zStartCm * 10;
    out.session = frame->session;
    out.frameId = frame->frameId;
    out.latencyMs = frame->latencyUs / 1000;
    out.gainDb = frame->imaging.gainDb;
    out.dynamicRangeDb = frame->imaging.dynamicRangeDb;
    ++framesShown_;
    Q_EMIT imageReady(out);
}

}  // namespace sonolink::gui
