// SettingsDialog: the station's settings: its DICOM identity (AE title, station name), the PACS
// nodes (add, remove, edit; Test sends a C-ECHO to the selected node, as in use or as edited,
// and shows the answer or why there was none), the TLS files, the probes and the one in use, the
// start-up self-test policy and the language. Every problem is listed and OK refused until none is left; what is kept applies at
// the next start. It asks for an echo by a signal and is given the answer; it never waits.
// Thread contract: GUI thread only.
#pragma once

#include <QDialog>
#include <QStringList>

#include "sonolink/gui/views/station_settings.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QTableWidget;

namespace sonolink::gui {

class ProbeTab;

class SettingsDialog : public QDialog {
    Q_OBJECT
public:
    // nodesInUse: the nodes the running station has (Test asks these as they run); language: "en" or "zh_CN".
    SettingsDialog(const StationSettings& current, const QStringList& nodesInUse, const QString& language, QWidget* parent = nullptr);

    [[nodiscard]] StationSettings values() const;
    [[nodiscard]] QString language() const;
    void showEcho(const QString& node, bool answered, const QString& message);
    void accept() override;  // only when there is no problem

Q_SIGNALS:
    // Test: a C-ECHO to this node; inUseAsIs: the running station uses it exactly so (else it is
    // asked with the values shown, the station's AE title and TLS files included).
    void echoRequested(const sonolink::gui::PacsNodeEntry& node, bool inUseAsIs);

private:
    QWidget* makeDicomPage(const StationSettings& current);
    QWidget* makeTlsPage();
    QWidget* makeStartupPage(const StationSettings& current, const QString& language);
    void addNodeRow(const PacsNodeEntry& node);
    void requestEcho();
    void updateTest();

    QStringList inUse_;
    StationSettings original_;
    QLineEdit* aeTitle_;
    QLineEdit* stationName_;
    QTableWidget* nodes_;
    QLabel* echo_;
    QLineEdit* certificate_;
    QLineEdit* privateKey_;
    QLineEdit* trusted_;
    QCheckBox* atConnect_;
    ProbeTab* probes_;
    QComboBox* mode_;
    QComboBox* language_;
    QLabel* problems_;
    QWidget* test_;
};

}  // namespace sonolink::gui
