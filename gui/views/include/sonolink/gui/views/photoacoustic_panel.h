// PhotoacousticPanel: the controls for dual mode's laser shots beside the picture: the view
// (ultrasound, photoacoustic, overlay, side by side), the colour map (hot, iron), the shots' gain
// and dynamic range, the threshold and the overlay's opacity, and pulse-energy normalisation.
// Disabled, saying why, while the station fires no laser. Each change is one signal with every
// value; the panel knows nothing of the engine. Thread contract: GUI thread only.
#pragma once

#include <QWidget>

#include "sonolink/gui/views/shot_display.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QSlider;

namespace sonolink::gui {

class PhotoacousticPanel : public QWidget {
    Q_OBJECT
public:
    explicit PhotoacousticPanel(const ShotDisplay& start, QWidget* parent = nullptr);

    [[nodiscard]] ShotDisplay values() const;
    // Whether a laser fires (dual mode): the controls work only then; off, the reason is shown.
    void setLaserAvailable(bool available);

Q_SIGNALS:
    void changed(const sonolink::gui::ShotDisplay& values);

private:
    void emitChanged();

    QComboBox* view_;
    QComboBox* map_;
    QSlider* gain_;
    QSlider* range_;
    QSlider* threshold_;
    QSlider* opacity_;
    QCheckBox* normalise_;
    QLabel* unavailable_;
    QWidget* controls_;
};

}  // namespace sonolink::gui
