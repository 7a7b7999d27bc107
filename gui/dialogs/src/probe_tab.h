// ProbeTab: the settings dialog's probe page: the probes the station can be used with (name,
// elements, pitch, centre frequency; add, remove, edit in the table) and the one in use from the
// next start ("As configured": the configuration file's). Private to gui/dialogs.
// Thread contract: GUI thread only.
#pragma once

#include <QWidget>

#include "sonolink/gui/views/station_settings.h"

class QComboBox;
class QTableWidget;

namespace sonolink::gui {

class ProbeTab : public QWidget {
    Q_OBJECT
public:
    ProbeTab(const QList<ProbeEntry>& probes, const QString& inUse, QWidget* parent = nullptr);

    // As shown; a cell that is not a number reads as -1 (problemsOf names it).
    [[nodiscard]] QList<ProbeEntry> probes() const;
    [[nodiscard]] QString inUse() const;

private:
    void addRow(const ProbeEntry& probe);
    void refreshInUse();  // the list follows the table's names, the choice kept where it can be

    QTableWidget* table_;
    QComboBox* inUse_;
};

}  // namespace sonolink::gui
