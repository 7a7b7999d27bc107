// SelfTestSession: the start-up self-test in the console. It feeds the wizard from the bridge
// (steps, progress, the settled verdict, an override), keeps every run's QA report in the report
// folder (JSON and PDF, the last passing report its baseline; an override gives a new report,
// the failed one kept as it was), and carries out what the wizard asks: a re-run (scanning
// stopped first) or a cancel through the bridge; a signature or an override by an engineer (the
// role, then PAM re-authenticating the station user off the GUI thread: engineer_authority.h).
// Thread contract: GUI thread only.
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

#include <chrono>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "sonolink/gui/bridge/engine_bridge.h"

namespace sonolink::gui {
class SelfTestWizard;
}

namespace sonolink::app {

struct SelfTestReporting {
    std::filesystem::path directory;  // selftest.report_directory
    std::string mode;                 // "quick", "full"
    std::string station;              // dicom.station_name; empty: the host name
    std::string engineerGroup;        // selftest.engineer_group: an override or a signature asks for its role
};

class SelfTestSession : public QObject {
    Q_OBJECT
public:
    SelfTestSession(gui::EngineBridge& bridge, gui::SelfTestWizard& wizard, SelfTestReporting reporting, QObject* parent = nullptr);

    [[nodiscard]] const nlohmann::json& report() const { return report_; }  // null until a run settles
    [[nodiscard]] const std::filesystem::path& reportFile() const { return reportFile_; }

Q_SIGNALS:
    void reportKept(const QString& file);  // written, or rewritten (signed)
    void actionFinished(bool ok);          // a signature or an override ended, either way

private:
    void onState(const QString& state, const QString& reason);
    void keepReport(const QString& problem);
    void sign(const QString& meaning, const QString& password);
    void giveOverride(const QString& reason, const QString& password);
    void showReport();

    gui::EngineBridge& bridge_;
    gui::SelfTestWizard& wizard_;
    SelfTestReporting reporting_;
    bool running_ = false;
    std::chrono::system_clock::time_point started_;
    nlohmann::json report_;
    std::filesystem::path reportFile_;
    nlohmann::json override_;        // the override given after the last run (null: none)
    bool rerunPending_ = false;      // the wizard asked for a re-run: its rows are marked already
    bool stoppingForRerun_ = false;  // scanning stops first; then these steps run
    QStringList rerunAfterStop_;
    QString lastProblem_;
};

}  // namespace sonolink::app
