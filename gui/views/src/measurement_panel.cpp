#include "sonolink/gui/views/measurement_panel.h"

#include <QButtonGroup>
#include <QGridLayout>
#include <QGroupBox>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

#include "sonolink/gui/views/bmode_view.h"

namespace sonolink::gui {

MeasurementPanel::MeasurementPanel(BModeView& view, QWidget* parent) : QWidget(parent), view_(view), tools_(new QButtonGroup(this)), list_(new QListWidget) {
    setObjectName("measurementPanel");
    auto* box = new QGroupBox(tr("Measurements"));
    auto* grid = new QGridLayout(box);
    const struct {
        const char* objectName;
        QString title;
        MeasurementKind kind;
    } buttons[] = {{"distanceToolButton", tr("Distance"), MeasurementKind::Distance},
                   {"ellipseToolButton", tr("Ellipse"), MeasurementKind::Ellipse},
                   {"textToolButton", tr("Text"), MeasurementKind::Text}};
    tools_->setExclusive(false);  // a second click on the tool in use puts it down
    int column = 0;
    for (const auto& b : buttons) {
        auto* button = new QPushButton(b.title);
        button->setObjectName(b.objectName);
        button->setCheckable(true);
        tools_->addButton(button, static_cast<int>(b.kind));
        grid->addWidget(button, 0, column++);
    }
    connect(tools_, &QButtonGroup::idToggled, this, [this](int id, bool on) {
        if (!on) {
            if (view_.tool() && static_cast<int>(*view_.tool()) == id) view_.setTool(std::nullopt);
            return;
        }
        for (auto* other : tools_->buttons()) {
            if (tools_->id(other) != id) other->setChecked(false);
        }
        view_.setTool(static_cast<MeasurementKind>(id));
    });
    list_->setObjectName("measurementList");
    list_->setMaximumHeight(120);
    grid->addWidget(list_, 1, 0, 1, 3);
    auto* clear = new QPushButton(tr("Clear"));
    clear->setObjectName("clearMeasurementsButton");
    grid->addWidget(clear, 2, 2);
    connect(clear, &QPushButton::clicked, &view_, &BModeView::clearMeasurements);
    connect(&view_, &BModeView::measurementsChanged, this, &MeasurementPanel::refresh);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(box);
    setToolsEnabled(false);
}

QStringList MeasurementPanel::lines() const {
    QStringList out;
    for (int i = 0; i < list_->count(); ++i) out << list_->item(i)->text();
    return out;
}

void MeasurementPanel::setToolsEnabled(bool enabled) {
    for (auto* b : tools_->buttons()) {
        b->setEnabled(enabled);
        if (!enabled) b->setChecked(false);
    }
    if (!enabled) view_.setTool(std::nullopt);
}

void MeasurementPanel::refresh() {
    list_->clear();
    for (const auto& m : view_.measurements()) list_->addItem(describe(m));
}

}  // namespace sonolink::gui
