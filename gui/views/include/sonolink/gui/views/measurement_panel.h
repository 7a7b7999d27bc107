// MeasurementPanel: the calipers beside the image: the tool (distance, ellipse area, text note;
// one at a time, none to pan), the measurements listed with their values in mm, and Clear.
// It sets the view's tool and follows its measurements.
// Thread contract: GUI thread only.
#pragma once

#include <QWidget>

class QButtonGroup;
class QListWidget;

namespace sonolink::gui {

class BModeView;

class MeasurementPanel : public QWidget {
    Q_OBJECT
public:
    explicit MeasurementPanel(BModeView& view, QWidget* parent = nullptr);

    [[nodiscard]] QStringList lines() const;  // as listed: "D1  9.86 mm", ...
    void setToolsEnabled(bool enabled);       // off while live: measure what holds still

private:
    void refresh();

    BModeView& view_;
    QButtonGroup* tools_;
    QListWidget* list_;
};

}  // namespace sonolink::gui
