#include "image_watch.h"

#include <algorithm>

namespace sonolink::app {

ImageWatch::ImageWatch(gui::EngineBridge& bridge, gui::BModeView& view, int staleAfterMs, QObject* parent)
    : QObject(parent), bridge_(bridge), view_(view), staleAfterMs_(staleAfterMs), state_(bridge.stateName()) {
    connect(&bridge_, &gui::EngineBridge::stateChanged, this, &ImageWatch::onState);
    connect(&bridge_.display(), &gui::DisplayFeed::imageReady, this, [this] {
        sinceImage_.restart();
        if (stale_) {
            stale_ = false;
            Q_EMIT stalled(0, {});
            show();
        }
    });
    connect(&bridge_.display(), &gui::DisplayFeed::healthSampled, this, [this](const gui::LinkHealth& h) { lastHealth_ = h; });
    connect(&timer_, &QTimer::timeout, this, &ImageWatch::check);
    sinceImage_.start();
    timer_.start(std::max(50, staleAfterMs_ / 6));  // said within staleAfter plus a sixth of it
    show();
}

void ImageWatch::onState(const QString& state, const QString& reason) {
    if (state == "streaming" && state_ != "streaming") sinceImage_.restart();  // a second from now, not from the last picture
    state_ = state;
    stateReason_ = reason;
    if (state != "streaming" && stale_) {
        stale_ = false;
        Q_EMIT stalled(0, {});
    }
    show();
}

void ImageWatch::check() {
    if (state_ == "streaming" && sinceImage_.elapsed() >= staleAfterMs_) {
        stale_ = true;
        show();
        return;
    }
    // A block can come (or go) without a state change: a self-test re-run or an override.
    if (state_ == "ready") show();
}

void ImageWatch::show() {
    view_.setStateMark(state_ == "frozen" ? tr("FROZEN") : QString());
    if (stale_) {
        QString why;
        if (lastHealth_.notImaged > 0) {
            why = tr("The beamformer refused the last frames (%1 in the last half second). Choose the depth or preset again; if it stays, "
                     "Disconnect and Connect, and tell the engineer what the status bar says.")
                      .arg(lastHealth_.notImaged);
        } else if (lastHealth_.dropped() > 0) {
            why = tr("Frames are being lost on the link (%1 in the last half second): see Link health, and call the engineer.").arg(lastHealth_.dropped());
        } else {
            why = tr("No frames arrive from the front end. Check the probe and the front end's cable and power, or Disconnect and Connect again.");
        }
        const double seconds = static_cast<double>(sinceImage_.elapsed()) / 1000.0;
        view_.setNotice(tr("No new image for %1 s: this picture is not live.\n%2").arg(seconds, 0, 'f', 0).arg(why), true);
        Q_EMIT stalled(seconds, why);
        return;
    }
    const auto block = bridge_.streamingBlock();
    if ((state_ == "ready" || state_ == "idle") && !block.isEmpty()) {
        view_.setNotice(tr("Scanning is blocked by the start-up self-test: %1\nWhat to do: call the station's engineer, who can run the failed "
                           "step again (Self-test…) or override it with a reason and a password.")
                            .arg(block),
                        true);
        return;
    }
    if (state_ == "error") {
        view_.setNotice(tr("The station stopped: %1\nWhat to do: Connect again; if it fails again, call the engineer.").arg(stateReason_), true);
        return;
    }
    view_.setNotice({}, false);
}

}  // namespace sonolink::app
