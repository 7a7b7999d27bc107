#include "sonolink/gui/views/imaging_panel.h"

#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>

namespace sonolink::gui {
namespace {

QSlider* slider(Qt::Orientation orientation, const QString& objectName, int low, int high, int value) {
    auto* s = new QSlider(orientation);
    s->setObjectName(objectName);
    s->setRange(low, high);
    s->setValue(value);
    return s;
}

// A slider with its value written beside it, right-aligned.
QHBoxLayout* imagingValueRow(QSlider* s, QLabel* value) {
    auto* box = new QHBoxLayout;
    value->setMinimumWidth(28);
    value->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    box->addWidget(s, 1);
    box->addWidget(value);
    return box;
}

}  // namespace

ImagingPanel::ImagingPanel(const ImagingValues& start, QWidget* parent)
    : QWidget(parent), depthStartMm_(start.depthStartMm), presets_(new QComboBox),
      gain_(slider(Qt::Horizontal, "gainSlider", -30, 30, static_cast<int>(std::lround(start.gainDb)))),
      range_(slider(Qt::Horizontal, "dynamicRangeSlider", 20, 100, static_cast<int>(std::lround(start.dynamicRangeDb)))), depth_(new QSpinBox),
      persistence_(slider(Qt::Horizontal, "persistenceSlider", 0, 95, static_cast<int>(std::lround(start.persistence * 100)))), persistenceValue_(new QLabel) {
    setObjectName("imagingPanel");
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(makePictureBox(start));
    layout->addWidget(makeTgcBox(start));
    layout->addStretch(1);
}

// Picture: the preset (chosen, or saved), gain, range, depth and persistence, each change said by
// its signal unless apply() is under way.
QWidget* ImagingPanel::makePictureBox(const ImagingValues& start) {
    auto* picture = new QGroupBox(tr("Picture"));
    auto* form = new QFormLayout(picture);
    presets_->setObjectName("presetCombo");
    presets_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    presets_->setMinimumContentsLength(10);
    auto* save = new QPushButton(tr("Save…"));
    save->setObjectName("savePresetButton");
    save->setToolTip(tr("Keep these settings as a preset"));
    // The combo on a row of its own, the whole width of the panel: beside the button the panel's
    // width cut "General" to "Gener".
    form->addRow(tr("Preset"), presets_);
    auto* saveRow = new QHBoxLayout;
    saveRow->addStretch(1);
    saveRow->addWidget(save);
    form->addRow(QString(), saveRow);
    connect(presets_, &QComboBox::activated, this, [this](int i) { Q_EMIT presetChosen(presets_->itemText(i)); });
    connect(save, &QPushButton::clicked, this, &ImagingPanel::savePresetRequested);
    auto* gainValue = new QLabel(QString::number(gain_->value()));
    auto* rangeValue = new QLabel(QString::number(range_->value()));
    form->addRow(tr("Gain (dB)"), imagingValueRow(gain_, gainValue));
    form->addRow(tr("Range (dB)"), imagingValueRow(range_, rangeValue));
    depth_->setObjectName("depthSpin");
    depth_->setRange(static_cast<int>(std::ceil(start.depthStartMm)) + 5, 300);
    depth_->setValue(static_cast<int>(std::lround(start.depthEndMm)));
    depth_->setSuffix(tr(" mm"));
    depth_->setKeyboardTracking(false);  // a new depth once typed, not at every digit
    form->addRow(tr("Depth"), depth_);
    persistenceValue_->setText(persistence_->value() == 0 ? tr("off") : QString::number(persistence_->value() / 100.0, 'f', 2));
    form->addRow(tr("Persistence"), imagingValueRow(persistence_, persistenceValue_));
    connect(gain_, &QSlider::valueChanged, this, [this, gainValue](int db) {
        gainValue->setText(QString::number(db));
        if (!applying_) Q_EMIT gainChanged(db);
    });
    connect(range_, &QSlider::valueChanged, this, [this, rangeValue](int db) {
        rangeValue->setText(QString::number(db));
        if (!applying_) Q_EMIT dynamicRangeChanged(db);
    });
    connect(depth_, &QSpinBox::valueChanged, this, [this](int mm) {
        if (!applying_) Q_EMIT depthEndChanged(mm);
    });
    connect(persistence_, &QSlider::valueChanged, this, [this](int percent) {
        persistenceValue_->setText(percent == 0 ? tr("off") : QString::number(percent / 100.0, 'f', 2));
        if (!applying_) Q_EMIT persistenceChanged(percent / 100.0);
    });
    return picture;
}

// TGC: a slider per depth band, near (top) to far (bottom), each with its value beside it.
QWidget* ImagingPanel::makeTgcBox(const ImagingValues& start) {
    auto* tgcBox = new QGroupBox(tr("TGC (dB)"));
    auto* grid = new QGridLayout(tgcBox);
    for (std::size_t i = 0; i < start.tgcDb.size(); ++i) {
        auto* s = slider(Qt::Horizontal, QString("tgcSlider%1").arg(i), -40, 40, static_cast<int>(std::lround(start.tgcDb[i])));
        s->setToolTip(tr("Time-gain compensation, band %1 of %2 (near to far)").arg(i + 1).arg(start.tgcDb.size()));
        auto* value = new QLabel(QString::number(s->value()));
        value->setMinimumWidth(28);
        value->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
        grid->addWidget(s, static_cast<int>(i), 0);
        grid->addWidget(value, static_cast<int>(i), 1);
        connect(s, &QSlider::valueChanged, this, [this, value](int db) {
            value->setText(QString::number(db));
            if (!applying_) Q_EMIT tgcChanged(tgcDb());
        });
        tgc_.push_back(s);
    }
    return tgcBox;
}

ImagingValues ImagingPanel::values() const {
    ImagingValues v;
    v.gainDb = gain_->value();
    v.dynamicRangeDb = range_->value();
    v.depthStartMm = depthStartMm_;
    v.depthEndMm = depth_->value();
    v.persistence = persistence_->value() / 100.0;
    v.tgcDb = tgcDb();
    return v;
}

void ImagingPanel::apply(const ImagingValues& v) {
    applying_ = true;  // one change, said once at the end: never half a preset
    gain_->setValue(static_cast<int>(std::lround(v.gainDb)));
    range_->setValue(static_cast<int>(std::lround(v.dynamicRangeDb)));
    depth_->setValue(static_cast<int>(std::lround(v.depthEndMm)));
    persistence_->setValue(static_cast<int>(std::lround(v.persistence * 100)));
    for (std::size_t i = 0; i < tgc_.size() && i < v.tgcDb.size(); ++i) tgc_[i]->setValue(static_cast<int>(std::lround(v.tgcDb[i])));
    applying_ = false;
    Q_EMIT valuesApplied(values());
}

void ImagingPanel::setPresets(const QStringList& names) {
    const QString now = presets_->currentText();
    presets_->clear();
    presets_->addItems(names);
    if (names.contains(now)) presets_->setCurrentText(now);
}

std::vector<double> ImagingPanel::tgcDb() const {
    std::vector<double> out;
    for (const auto* s : tgc_) out.push_back(s->value());
    return out;
}

}  // namespace sonolink::gui
