#include "sonolink/console/ui_probe.h"

#include <QDateTime>

#include <algorithm>
#include <cmath>

#include "sonolink/gui/bridge/engine_bridge.h"
#include "sonolink/gui/views/bmode_view.h"

namespace sonolink::app {
namespace {

constexpr int kTickMs = 2;

double quantile(std::vector<double> v, double q) {
    if (v.empty()) return 0;
    const auto k = static_cast<std::size_t>(std::ceil(q * static_cast<double>(v.size()))) - 1;
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(std::min(k, v.size() - 1)), v.end());
    return v[std::min(k, v.size() - 1)];
}

}  // namespace

UiProbe::UiProbe(gui::EngineBridge& bridge, gui::BModeView& view, QObject* parent) : QObject(parent), bridge_(bridge) {
    timer_.setTimerType(Qt::PreciseTimer);
    timer_.setInterval(kTickMs);
    connect(&timer_, &QTimer::timeout, this, &UiProbe::tick);
    connect(&view, &gui::BModeView::painted, this, [this](double wallMs, double cpuMs) {
        if (!running_) return;
        paintMs_.push_back(wallMs);
        paintCpuMs_.push_back(cpuMs);
    });
    connect(&bridge_, &gui::EngineBridge::stateChanged, this, [this](const QString& state, const QString&) {
        if (state == "ready" && firstImageMs_ < 0) sinceReady_.start();
    });
    connect(&bridge_.display(), &gui::DisplayFeed::imageReady, this, [this](const gui::BModeImage& image) {
        if (firstImageMs_ < 0 && sinceReady_.isValid()) firstImageMs_ = static_cast<double>(sinceReady_.nsecsElapsed()) / 1e6;
        // Dual mode: a new shot handed to the view, against its pulse on the front end's clock.
        if (!running_ || !image.hasShot || (anyShot_ && image.shotFrameId == lastShot_)) return;
        anyShot_ = true;
        lastShot_ = image.shotFrameId;
        ++shotsShown_;
        const auto now = static_cast<double>(QDateTime::currentMSecsSinceEpoch()) * 1e6 + clockOffsetNs_;
        shotToShownMs_.push_back((now - static_cast<double>(image.shotPulseNs)) / 1e6);
    });
}

void UiProbe::start() {
    lagMs_.clear();
    paintMs_.clear();
    paintCpuMs_.clear();
    shownAtStart_ = bridge_.display().framesShown();
    const auto stats = bridge_.stats();
    publishedAtStart_ = stats.framesDisplayed;
    shotsPublishedAtStart_ = stats.laser.shown;
    clockOffsetNs_ = stats.frontEnd.clockOffsetUs * 1e3;
    shotToShownMs_.clear();
    shotsShown_ = 0;
    running_ = true;
    clock_.start();
    lastNs_ = 0;
    timer_.start();
}

void UiProbe::stop() {
    if (!running_) return;
    timer_.stop();
    running_ = false;
    seconds_ = static_cast<double>(clock_.nsecsElapsed()) / 1e9;
    shown_ = bridge_.display().framesShown() - shownAtStart_;
    const auto stats = bridge_.stats();
    published_ = stats.framesDisplayed - publishedAtStart_;
    shotsPublished_ = stats.laser.shown - shotsPublishedAtStart_;
    shotToPublishedP99Ms_ = stats.laser.shotToShownP99Ms;
}

// How late this timeout came: the time since the last one beyond the interval.
void UiProbe::tick() {
    const qint64 now = clock_.nsecsElapsed();
    if (lastNs_ > 0) lagMs_.push_back(std::max(0.0, static_cast<double>(now - lastNs_) / 1e6 - kTickMs));
    lastNs_ = now;
}

QJsonObject UiProbe::report() const {
    QJsonObject out;
    out["seconds"] = seconds_;
    out["lag_samples"] = static_cast<qint64>(lagMs_.size());
    out["lag_p50_ms"] = quantile(lagMs_, 0.50);
    out["lag_p99_ms"] = quantile(lagMs_, 0.99);
    out["lag_max_ms"] = lagMs_.empty() ? 0.0 : *std::max_element(lagMs_.begin(), lagMs_.end());
    out["frames_published"] = static_cast<qint64>(published_);
    out["frames_shown"] = static_cast<qint64>(shown_);
    out["published_fps"] = seconds_ > 0 ? static_cast<double>(published_) / seconds_ : 0.0;
    out["shown_fps"] = seconds_ > 0 ? static_cast<double>(shown_) / seconds_ : 0.0;
    out["paints"] = static_cast<qint64>(paintMs_.size());
    out["paint_p50_ms"] = quantile(paintMs_, 0.50);
    out["paint_p99_ms"] = quantile(paintMs_, 0.99);
    out["paint_cpu_p50_ms"] = quantile(paintCpuMs_, 0.50);
    out["paint_cpu_p99_ms"] = quantile(paintCpuMs_, 0.99);
    out["startup_to_wizard_ms"] = startupMs_;
    out["ready_to_first_image_ms"] = firstImageMs_;
    // Dual mode: shots the engine published and the view was handed, and from a shot's pulse to
    // the view (a shot shows at its publication, not only with the next B-mode frame).
    out["shots_published"] = static_cast<qint64>(shotsPublished_);
    out["shots_shown"] = static_cast<qint64>(shotsShown_);
    out["shot_to_shown_p50_ms"] = quantile(shotToShownMs_, 0.50);
    out["shot_to_shown_p99_ms"] = quantile(shotToShownMs_, 0.99);
    out["shot_to_published_p99_ms"] = shotToPublishedP99Ms_;
    return out;
}

}  // namespace sonolink::app
