// ImagingPanel: the sonographer's picture controls beside the image: gain and dynamic range
// (dB), depth (mm), persistence (frame averaging, 0 off to 0.95), and eight TGC sliders, one per
// depth band from near (top) to far (bottom), -40 to +40 dB like a console's slide pots; a
// preset (named picture settings) chosen from a list or the current ones saved as one. Each
// change is a signal; the panel knows nothing of the engine.
// Thread contract: GUI thread only.
#pragma once

#include <QWidget>

#include <QStringList>

#include <vector>

#include "sonolink/gui/views/imaging_values.h"

class QComboBox;
class QSlider;
class QSpinBox;
class QLabel;

namespace sonolink::gui {

class ImagingPanel : public QWidget {
    Q_OBJECT
public:
    explicit ImagingPanel(const ImagingValues& start, QWidget* parent = nullptr);

    [[nodiscard]] std::vector<double> tgcDb() const;
    [[nodiscard]] ImagingValues values() const;
    // Every control set at once (a preset): said once, by valuesApplied, not control by control.
    void apply(const ImagingValues& values);
    void setPresets(const QStringList& names);
    [[nodiscard]] QSlider* tgcSlider(int index) const { return tgc_.at(static_cast<std::size_t>(index)); }

Q_SIGNALS:
    void gainChanged(double db);
    void dynamicRangeChanged(double db);
    void depthEndChanged(double mm);
    void persistenceChanged(double weight);
    void tgcChanged(const std::vector<double>& db);                  // every control point, near to far
    void valuesApplied(const sonolink::gui::ImagingValues& values);  // apply(): all of them, one change
    void presetChosen(const QString& name);
    void savePresetRequested();

private:
    QWidget* makePictureBox(const ImagingValues& start);
    QWidget* makeTgcBox(const ImagingValues& start);

    double depthStartMm_;
    QComboBox* presets_;
    QSlider* gain_;
    QSlider* range_;
    QSpinBox* depth_;
    QSlider* persistence_;
    QLabel* persistenceValue_;
    std::vector<QSlider*> tgc_;
    bool applying_ = false;  // apply() under way: the controls' own signals wait for its one
};

}  // namespace sonolink::gui
