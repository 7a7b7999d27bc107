#include "sonolink/gui/views/photoacoustic_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QVBoxLayout>

#include <cmath>

namespace sonolink::gui {
namespace {

QSlider* slider(const QString& objectName, int low, int high, int value) {
    auto* s = new QSlider(Qt::Horizontal);
    s->setObjectName(objectName);
    s->setRange(low, high);
    s->setValue(value);
    return s;
}

// A slider with its value beside it, in the unit given.
QHBoxLayout* withValue(QSlider* s, const QString& unit) {
    auto* value = new QLabel;
    value->setMinimumWidth(44);
    const auto show = [value, unit](int v) { value->setText(QString("%1 %2").arg(v).arg(unit)); };
    show(s->value());
    QObject::connect(s, &QSlider::valueChanged, value, show);
    auto* box = new QHBoxLayout;
    box->addWidget(s, 1);
    box->addWidget(value);
    return box;
}

}  // namespace

PhotoacousticPanel::PhotoacousticPanel(const ShotDisplay& start, QWidget* parent)
    : QWidget(parent), view_(new QComboBox), map_(new QComboBox), gain_(slider("shotGainSlider", -30, 30, static_cast<int>(std::lround(start.gainDb)))),
      range_(slider("shotRangeSlider", 10, 80, static_cast<int>(std::lround(start.dynamicRangeDb)))),
      threshold_(slider("shotThresholdSlider", 0, 95, static_cast<int>(std::lround(start.threshold * 100)))),
      opacity_(slider("shotOpacitySlider", 10, 100, static_cast<int>(std::lround(start.opacity * 100)))),
      normalise_(new QCheckBox(tr("Normalise by pulse energy"))), unavailable_(new QLabel(tr("No laser fires: dual mode is off (acquisition.laser_rate_hz)."))),
      controls_(new QWidget) {
    setObjectName("photoacousticPanel");
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* group = new QGroupBox(tr("Photoacoustic"));
    auto* groupLayout = new QVBoxLayout(group);
    unavailable_->setObjectName("laserUnavailableLabel");
    unavailable_->setWordWrap(true);
    unavailable_->hide();
    groupLayout->addWidget(unavailable_);
    auto* form = new QFormLayout(controls_);
    form->setContentsMargins(0, 0, 0, 0);
    view_->setObjectName("shotViewCombo");
    view_->addItem(tr("Ultrasound"), static_cast<int>(ShotView::Ultrasound));
    view_->addItem(tr("Photoacoustic"), static_cast<int>(ShotView::Photoacoustic));
    view_->addItem(tr("Overlay"), static_cast<int>(ShotView::Overlay));
    view_->addItem(tr("Side by side"), static_cast<int>(ShotView::SideBySide));
    view_->setCurrentIndex(view_->findData(static_cast<int>(start.view)));
    map_->setObjectName("shotMapCombo");
    map_->addItem(tr("Hot"), static_cast<int>(ShotMap::Hot));
    map_->addItem(tr("Iron"), static_cast<int>(ShotMap::Iron));
    map_->setCurrentIndex(map_->findData(static_cast<int>(start.map)));
    normalise_->setObjectName("shotNormaliseCheck");
    normalise_->setChecked(start.normaliseEnergy);
    normalise_->setToolTip(tr("Each shot scaled by the session's mean pulse energy over its own (the photodiode's reading)"));
    form->addRow(tr("Show"), view_);
    form->addRow(tr("Colour map"), map_);
    form->addRow(tr("Gain"), withValue(gain_, tr("dB")));
    form->addRow(tr("Dynamic range"), withValue(range_, tr("dB")));
    form->addRow(tr("Threshold"), withValue(threshold_, tr("%")));
    form->addRow(tr("Opacity"), withValue(opacity_, tr("%")));
    form->addRow(normalise_);
    groupLayout->addWidget(controls_);
    layout->addWidget(group);
    for (auto* combo : {view_, map_}) connect(combo, &QComboBox::currentIndexChanged, this, &PhotoacousticPanel::emitChanged);
    for (auto* s : {gain_, range_, threshold_, opacity_}) connect(s, &QSlider::valueChanged, this, &PhotoacousticPanel::emitChanged);
    connect(normalise_, &QCheckBox::toggled, this, &PhotoacousticPanel::emitChanged);
}

ShotDisplay PhotoacousticPanel::values() const {
    ShotDisplay v;
    v.view = static_cast<ShotView>(view_->currentData().toInt());
    v.map = static_cast<ShotMap>(map_->currentData().toInt());
    v.gainDb = gain_->value();
    v.dynamicRangeDb = range_->value();
    v.threshold = threshold_->value() / 100.0;
    v.opacity = opacity_->value() / 100.0;
    v.normaliseEnergy = normalise_->isChecked();
    return v;
}

void PhotoacousticPanel::setLaserAvailable(bool available) {
    controls_->setEnabled(available);
    unavailable_->setVisible(!available);
}

void PhotoacousticPanel::emitChanged() { Q_EMIT changed(values()); }

}  // namespace sonolink::gui
