#include "sonolink/console/main_window.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QStatusBar>
#include <QToolBar>
#include <QVBoxLayout>

#include "sonolink/gui/views/bmode_view.h"

namespace sonolink::app {
namespace {

// The engine's state as the status bar names it, in the user's language.
QString stateTitle(const QString& state) {
    if (state == "idle") return MainWindow::tr("idle");
    if (state == "connecting") return MainWindow::tr("connecting");
    if (state == "self-test") return MainWindow::tr("self-test");
    if (state == "ready") return MainWindow::tr("ready");
    if (state == "streaming") return MainWindow::tr("streaming");
    if (state == "frozen") return MainWindow::tr("frozen");
    if (state == "error") return MainWindow::tr("error");
    return state;
}

}  // namespace

MainWindow::MainWindow(gui::EngineBridge& bridge, bool autoStream, QWidget* parent)
    : QMainWindow(parent), bridge_(bridge), autoStream_(autoStream), view_(new gui::BModeView), state_(new QLabel),
      rate_(new QLabel), problem_(new QLabel), gain_(new QSlider(Qt::Vertical)), range_(new QSlider(Qt::Vertical)) {
    setObjectName("mainWindow");
    setWindowTitle(tr("SonoLink"));
    auto* controls = new QVBoxLayout;
    const auto addSlider = [&](QSlider* slider, const QString& name, const QString& objectName, int low, int high, int value) {
        slider->setObjectName(objectName);
        slider->setRange(low, high);
        slider->setValue(value);
        auto* label = new QLabel(name);
        label->setAlignment(Qt::AlignHCenter);
        controls->addWidget(label);
        controls->addWidget(slider, 1, Qt::AlignHCenter);
    };
    addSlider(gain_, tr("Gain\n(dB)"), "gainSlider", -30, 30, 0);
    addSlider(range_, tr("Range\n(dB)"), "dynamicRangeSlider", 20, 100, 60);
    connect(gain_, &QSlider::valueChanged, this, [this](int db) { bridge_.setGainDb(db); });
    connect(range_, &QSlider::valueChanged, this, [this](int db) { bridge_.setDynamicRangeDb(db); });
    auto* central = new QWidget;
    auto* layout = new QHBoxLayout(central);
    layout->addWidget(view_, 1);
    layout->addLayout(controls);
    setCentralWidget(central);

    auto* tools = addToolBar(tr("Acquisition"));
    tools->setObjectName("acquisitionToolBar");
    tools->addAction(tr("Connect"), this, [this] { bridge_.connectLink(); })->setObjectName("connectAction");
    tools->addAction(tr("Live"), this, [this] { bridge_.startStreaming(); })->setObjectName("liveAction");
    auto* freeze = tools->addAction(tr("Freeze"), this, [this] { bridge_.freeze(); });
    freeze->setObjectName("freezeAction");
    freeze->setShortcut(Qt::Key_F);
    tools->addSeparator();
    auto* selfTest = tools->addAction(tr("Self-test…"), this, [this] { Q_EMIT selfTestRequested(); });
    selfTest->setObjectName("selfTestAction");
    selfTest->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_T));

    state_->setObjectName("stateLabel");
    rate_->setObjectName("rateLabel");
    problem_->setObjectName("problemLabel");
    statusBar()->addWidget(state_);
    statusBar()->addWidget(rate_);
    statusBar()->addPermanentWidget(problem_, 1);
    connect(&bridge_, &gui::EngineBridge::stateChanged, this, &MainWindow::onState);
    connect(&bridge_, &gui::EngineBridge::imageReady, this, &MainWindow::onImage);
    connect(&bridge_, &gui::EngineBridge::problem, this, [this](const QString& text, bool isError) {
        problem_->setText(text);
        problem_->setToolTip(text);
        problem_->setStyleSheet(isError ? "color: #d03030" : "color: #b07000");
    });
    // A self-test step that did not pass, in the status bar too (the wizard has them all): its figures and fix.
    connect(&bridge_, &gui::EngineBridge::selfTestStepEnded, this,
            [this](const gui::SelfTestResult& r) {
                if (r.verdict == "pass") return;
                problem_->setText(tr("Self-test, %1: %2: %3%4").arg(r.step, r.verdict, r.figures, r.fix.isEmpty() ? QString() : tr(" What to do: %1").arg(r.fix)));
                problem_->setToolTip(problem_->text());  // the whole of it where the bar cuts it short
                problem_->setStyleSheet(r.verdict == "fail" ? "color: #d03030" : "color: #b07000");
            });
    onState(bridge_.stateName(), {});
    clock_.start();
    resize(1100, 800);
}

void MainWindow::onState(const QString& state, const QString& reason) {
    state_->setText(reason.isEmpty() ? tr("Engine: %1").arg(stateTitle(state)) : tr("Engine: %1 (%2)").arg(stateTitle(state), reason));
    // Streaming while a failed self-test blocks it would only be refused: the wizard says why.
    if (autoStream_ && state == "ready" && bridge_.streamingBlock().isEmpty()) bridge_.startStreaming();
}

void MainWindow::onImage(const gui::BModeImage& image) {
    view_->showImage(image);
    const auto elapsed = clock_.elapsed();
    if (elapsed >= 1000) {
        const double fps = 1000.0 * static_cast<double>(bridge_.framesShown() - framesAtMark_) / static_cast<double>(elapsed);
        rate_->setText(tr("%1 frames/s, latency %2 ms").arg(fps, 0, 'f', 1).arg(image.latencyMs, 0, 'f', 1));
        framesAtMark_ = bridge_.framesShown();
        clock_.restart();
    }
}

}  // namespace sonolink::app
