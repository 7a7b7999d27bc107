#include "sonolink/gui/views/cine_bar.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSlider>

#include <algorithm>
#include <cmath>

namespace sonolink::gui {

CineBar::CineBar(QWidget* parent)
    : QWidget(parent), slider_(new QSlider(Qt::Horizontal)), play_(new QPushButton(tr("Play"))), loop_(new QCheckBox(tr("Loop"))), counter_(new QLabel) {
    setObjectName("cineBar");
    slider_->setObjectName("cineSlider");
    play_->setObjectName("cinePlayButton");
    loop_->setObjectName("cineLoopCheck");
    counter_->setObjectName("cineFrameLabel");
    loop_->setChecked(true);
    counter_->setMinimumWidth(70);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 0, 4, 0);
    layout->addWidget(new QLabel(tr("Cine")));
    layout->addWidget(play_);
    layout->addWidget(slider_, 1);
    layout->addWidget(counter_);
    layout->addWidget(loop_);
    connect(slider_, &QSlider::valueChanged, this, [this](int index) {
        showCounter();
        Q_EMIT frameChosen(index);
    });
    connect(play_, &QPushButton::clicked, this, [this] { playing() ? pause() : play(); });
    connect(&timer_, &QTimer::timeout, this, &CineBar::step);
    load(0, 33);
}

void CineBar::load(int count, double frameIntervalMs) {
    pause();
    count_ = count;
    timer_.setInterval(static_cast<int>(std::clamp(std::lround(frameIntervalMs), 5L, 1000L)));
    slider_->blockSignals(true);
    slider_->setRange(0, std::max(0, count - 1));
    slider_->setValue(std::max(0, count - 1));
    slider_->blockSignals(false);
    setEnabled(count > 0);
    showCounter();
}

void CineBar::setFrame(int index) { slider_->setValue(std::clamp(index, 0, std::max(0, count_ - 1))); }

int CineBar::frame() const { return slider_->value(); }

void CineBar::play() {
    if (count_ < 2) return;
    if (frame() == count_ - 1) setFrame(0);  // from the start when at the end
    timer_.start();
    play_->setText(tr("Pause"));
}

void CineBar::pause() {
    timer_.stop();
    play_->setText(tr("Play"));
}

void CineBar::step() {
    if (frame() + 1 < count_) setFrame(frame() + 1);
    else if (loop_->isChecked()) setFrame(0);
    else pause();
}

void CineBar::showCounter() { counter_->setText(count_ > 0 ? tr("%1 / %2").arg(frame() + 1).arg(count_) : tr("no cine")); }

}  // namespace sonolink::gui
