// MainWindow's dual mode: the laser shots' controls beside the picture's, the picture shown with
// its shot (over it or instead of it in the one view, or beside it in a second), and the laser's
// state in the status bar: shots per second, missed ones (amber, counted), the pulse energy.
#include <QLabel>
#include <QStatusBar>

#include <algorithm>
#include <cmath>

#include "sonolink/console/main_window.h"
#include "sonolink/gui/views/bmode_view.h"
#include "sonolink/gui/views/link_health.h"
#include "sonolink/gui/views/photoacoustic_panel.h"

namespace sonolink::app {

void MainWindow::buildShotControls() {
    shotView_->setObjectName("shotView");
    shotView_->setMinimumSize(240, 240);
    laser_->setObjectName("laserLabel");
    shots_->setLaserAvailable(bridge_.firesLaser());
    shots_->setVisible(bridge_.firesLaser());  // an ultrasound-only station shows no laser controls
    laser_->setVisible(bridge_.firesLaser());
    connect(shots_, &gui::PhotoacousticPanel::changed, this, [this](const gui::ShotDisplay& shown) {
        bridge_.display().setShotDisplay(shown);
        shotView_->setVisible(shown.view == gui::ShotView::SideBySide);
        if (!cine_.isEmpty()) cine_ = bridge_.display().cine();  // a frozen review shows its frames the new way
    });
    shotView_->setVisible(bridge_.firesLaser() && bridge_.display().shotDisplay().view == gui::ShotView::SideBySide);
}

void MainWindow::showPicture(const gui::BModeImage& image) {
    view_->showImage(image);
    if (!shotView_->isVisible() || image.shotColour.isNull()) return;
    auto shot = image;  // the same raster and place: the rulers and calipers read alike
    shot.image = image.shotColour;
    shot.shotColour = {};
    shotView_->showImage(shot);
}

void MainWindow::showLaser(const gui::LinkHealth& health) {
    shots_->setLaserAvailable(health.laserFires);
    shots_->setVisible(health.laserFires);
    laser_->setVisible(health.laserFires);
    if (!health.laserFires) return;
    // The rate over the last five seconds of samples (half a second holds too few shots to say, and
    // the counts arrive in steps of a fifth of a second).
    laserSamples_.push_back({health.seconds, health.shotsFiredTotal});
    while (laserSamples_.size() > 1 && health.seconds - laserSamples_.front().first > 5.01) laserSamples_.pop_front();
    const auto& first = laserSamples_.front();
    const double span = health.seconds - first.first;
    const double rate = span > 0 ? static_cast<double>(health.shotsFiredTotal - std::min(first.second, health.shotsFiredTotal)) / span : 0;
    QString text = rate > 0 ? tr("Laser %1 shots/s").arg(rate, 0, 'f', 0) : tr("Laser idle");
    if (!std::isnan(health.shotEnergyMj)) text += tr(", %1 mJ").arg(health.shotEnergyMj, 0, 'f', 1);
    if (health.shotsMissedTotal > 0) text += tr(", %1 missed").arg(health.shotsMissedTotal);
    laser_->setText(text);
    laser_->setToolTip(tr("%1 shots fired, %2 missed, late or dark (never imaged); pulse to picture p99 %3 ms")
                           .arg(health.shotsFiredTotal)
                           .arg(health.shotsMissedTotal)
                           .arg(health.shotToShownP99Ms, 0, 'f', 1));
    laser_->setStyleSheet(health.shotsMissed > 0 ? "color: #b07000" : "");
}

}  // namespace sonolink::app
