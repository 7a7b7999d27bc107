#include "sonolink/console/cine_review_window.h"

#include <QElapsedTimer>
#include <QStatusBar>
#include <QVBoxLayout>

#include <chrono>
#include <cmath>
#include <thread>

#include "sonolink/gui/views/bmode_image.h"
#include "sonolink/gui/views/bmode_view.h"
#include "sonolink/gui/views/cine_bar.h"

namespace sonolink::app {
namespace {

constexpr double kUnstatedIntervalMs = 1000.0 / 30;

qint64 steadyNs() { return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

}  // namespace

CineReviewWindow::CineReviewWindow(CineReviewSource source, QWidget* parent)
    : QMainWindow(parent), source_(std::move(source)), view_(new gui::BModeView), cineBar_(new gui::CineBar), frameLabel_(new QLabel), problem_(new QLabel),
      madeNs_(steadyNs()) {
    setObjectName("cineReviewWindow");
    const auto name = source_.name.section('/', -1);
    setWindowTitle(tr("SonoLink — Review: %1").arg(name));
    auto* central = new QWidget;
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(view_, 1);
    view_->setPatientBanner(source_.patient);  // whose images these are, over every frame
    layout->addWidget(cineBar_);
    setCentralWidget(central);
    auto* review = new QLabel(source_.frames == 1 ? tr("Review: %1 (1 frame)").arg(name) : tr("Review: %1 (%2 frames)").arg(name).arg(source_.frames));
    review->setObjectName("reviewLabel");
    review->setToolTip(source_.name);
    review->setStyleSheet("color: #2060c0; font-weight: bold");
    frameLabel_->setObjectName("frameLabel");
    problem_->setObjectName("problemLabel");
    problem_->setStyleSheet("color: #d03030");
    statusBar()->addWidget(review);
    statusBar()->addWidget(frameLabel_);
    statusBar()->addPermanentWidget(problem_, 1);
    if (source_.mmAcross <= 0 || source_.mmDown <= 0) {
        problem_->setStyleSheet("color: #b07000");
        problem_->setText(tr("The object states no pixel spacing: the rulers count pixels, not millimetres."));
    } else if (!source_.firstPixelXMm || !source_.firstPixelZMm) {
        problem_->setStyleSheet("color: #b07000");
        problem_->setText(tr("The object does not say where the picture lies: depth is shown from its top edge, 0 across at its centre."));
    }
    connect(cineBar_, &gui::CineBar::frameChosen, this, &CineReviewWindow::want);
    std::thread(loaderLoop, loader_, source_.read, this).detach();
    cineBar_->load(source_.frames, source_.frameIntervalMs > 0 ? source_.frameIntervalMs : kUnstatedIntervalMs);
    cineBar_->setVisible(source_.frames > 1);
    cineBar_->setFrame(0);
    want(0);
    resize(1000, 760);
}

CineReviewWindow::~CineReviewWindow() {
    std::unique_lock lock(loader_->mutex);
    loader_->stopping = true;
    loader_->wake.notify_all();
    loader_->idle.wait_for(lock, std::chrono::seconds(1), [this] { return !loader_->reading; });
}

void CineReviewWindow::want(int index) {
    {
        std::lock_guard lock(loader_->mutex);
        loader_->wanted = index;
    }
    loader_->wake.notify_all();
}

// One frame at a time, the latest asked for (a scrub or play that outruns the reads skips the
// frames in between). The window is told under the lock, and only while it lives (its
// destructor sets stopping under the same lock; events posted before that die with it).
void CineReviewWindow::loaderLoop(std::shared_ptr<Loader> loader, std::function<QImage(int, QString*)> read, CineReviewWindow* window) {
    for (;;) {
        int index = -1;
        {
            std::unique_lock lock(loader->mutex);
            loader->wake.wait(lock, [&] { return loader->stopping || loader->wanted >= 0; });
            if (loader->stopping) return;
            index = loader->wanted;
            loader->wanted = -1;
            loader->reading = true;
        }
        QElapsedTimer took;
        took.start();
        QString why;
        QImage image = read(index, &why);
        const double readMs = static_cast<double>(took.nsecsElapsed()) / 1e6;
        std::lock_guard lock(loader->mutex);
        loader->reading = false;
        loader->idle.notify_all();
        if (loader->stopping) return;
        QMetaObject::invokeMethod(
            window, [window, index, image, why, readMs] { window->onLoaded(index, image, why, readMs); }, Qt::QueuedConnection);
    }
}

void CineReviewWindow::onLoaded(int index, const QImage& image, const QString& why, double readMs) {
    if (image.isNull()) {
        ++framesFailed_;
        problem_->setStyleSheet("color: #d03030");
        problem_->setText(tr("Frame %1 cannot be shown (%2 so far): %3").arg(index + 1).arg(framesFailed_).arg(why));
        problem_->setToolTip(why);
        Q_EMIT frameFailed(index, why);
        return;
    }
    gui::BModeImage shown;
    const bool calibrated = source_.mmAcross > 0 && source_.mmDown > 0;
    shown.mmPerPixel = calibrated ? source_.mmAcross : 1.0;
    shown.image = image;
    if (calibrated && std::abs(source_.mmDown - source_.mmAcross) > 1e-9 * source_.mmAcross) {  // square pixels, as the view draws them
        const int rows = std::max(1, static_cast<int>(std::lround(image.height() * source_.mmDown / source_.mmAcross)));
        shown.image = image.scaled(image.width(), rows, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    }
    shown.xStartMm = source_.firstPixelXMm.value_or(-0.5 * (shown.image.width() - 1) * shown.mmPerPixel);
    shown.zStartMm = source_.firstPixelZMm.value_or(0);
    shown.frameId = static_cast<quint32>(index);
    view_->showImage(shown);
    shown_ = index;
    ++framesShown_;
    if (firstFrameMs_ < 0) firstFrameMs_ = static_cast<double>(steadyNs() - madeNs_) / 1e6;
    frameLabel_->setText(tr("Frame %1 / %2, read in %3 ms").arg(index + 1).arg(source_.frames).arg(readMs, 0, 'f', 1));
    Q_EMIT frameShown(index);
}

}  // namespace sonolink::app
