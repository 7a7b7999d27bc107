// sonolink-cli dicom worklist: the scheduled exams a configured worklist server holds (C-FIND by
// date, modality and this station's AE title), printed or as JSON for `beamform --worklist`.
#include <iostream>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "commands.h"
#include "exit_codes.h"
#include "sonolink/app/dicom_setup.h"
#include "sonolink/config/config_loader.h"
#include "sonolink/dicom/audit_trail.h"
#include "sonolink/dicom/dicom_time.h"
#include "worklist_json.h"

namespace sonolink::cli {
namespace {

struct WorklistOptions {
    std::string configFile;
    std::string node;
    std::string date = "today";
    std::string modality = "US";
    std::string station;  // empty: ours
    bool anyStation = false;
    bool json = false;
};

// 110112: who asked which server for what, and how it went (no patient: a query names none).
void auditQuery(const config::DicomSettings& settings, const dicom::PacsNode& node, const dicom::WorklistQuery& query,
                const Result<std::vector<dicom::WorklistItem>>& result) {
    dicom::AuditEvent event;
    event.kind = dicom::AuditEventKind::Query;
    event.outcome = result ? dicom::AuditOutcome::Success : dicom::AuditOutcome::MinorFailure;
    event.outcomeDescription = result ? fmt::format("{} item(s)", result->size()) : result.error().message();
    event.localAeTitle = settings.stationAeTitle;
    event.remoteAeTitle = node.aeTitle;
    event.remoteHost = node.host;
    event.query = fmt::format("Modality Worklist: date {}, modality {}, station {}", query.date.empty() ? "any" : query.date,
                              query.modality.empty() ? "any" : query.modality, query.stationAeTitle.empty() ? "any" : query.stationAeTitle);
    dicom::AuditTrail audit(app::auditFrom(settings));
    if (auto ok = audit.record(event); !ok) std::cerr << "sonolink-cli dicom worklist: " << ok.error().message() << '\n';
}

int runWorklist(const WorklistOptions& o) {
    auto report = [](const Error& e) { return reportError("dicom worklist", e); };
    auto loaded = config::loadConfigFile(o.configFile);
    if (!loaded) return report(loaded.error());
    auto destination = app::destinationNamed(loaded->dicom, o.node);
    if (!destination) return report(destination.error());
    dicom::WorklistQuery query;
    query.date = o.date == "today" ? dicom::dicomDateTimeNow().date : o.date == "any" ? "" : o.date;
    query.modality = o.modality == "any" ? "" : o.modality;
    query.stationAeTitle = o.anyStation ? "" : o.station.empty() ? loaded->dicom.stationAeTitle : o.station;
    auto items = dicom::queryWorklist(destination->node, app::associationFrom(loaded->dicom), query);
    auditQuery(loaded->dicom, destination->node, query, items);
    if (!items) return report(items.error());
    if (o.json) {
        auto out = nlohmann::json::array();
        for (const auto& i : *items) out.push_back(toJson(i));
        std::cout << out.dump(2) << '\n';
        return kExitOk;
    }
    std::cout << fmt::format("{} scheduled exam{}\n", items->size(), items->size() == 1 ? "" : "s");
    for (std::size_t k = 0; k < items->size(); ++k) {
        const auto& i = (*items)[k];
        std::cout << fmt::format("[{}] {} {}  {}  ID {}  accession {}  {}{}\n", k, i.scheduledStartDate, i.scheduledStartTime, i.patient.name,
                                 i.patient.id, i.accessionNumber, i.requestedProcedureDescription,
                                 i.characterSetAssumed ? "  (no character set in the answer: read as UTF-8)" : "");
    }
    return kExitOk;
}

}  // namespace

void addDicomWorklistCommand(CLI::App& dicomCmd, int& exitCode) {
    auto o = std::make_shared<WorklistOptions>();
    auto* cmd = dicomCmd.add_subcommand("worklist", "Query a worklist server for scheduled exams (Modality Worklist C-FIND)");
    cmd->add_option("--config", o->configFile, "Configuration file (JSON) with dicom.nodes")->required()->check(CLI::ExistingFile);
    cmd->add_option("--node", o->node, "The worklist server's name in dicom.nodes")->required();
    cmd->add_option("--date", o->date, "today, any, YYYYMMDD or YYYYMMDD-YYYYMMDD")->capture_default_str();
    cmd->add_option("--modality", o->modality, "US, another modality, or any")->capture_default_str();
    auto* station = cmd->add_option("--station", o->station, "Scheduled Station AE Title (default: dicom.station_ae_title)");
    cmd->add_flag("--any-station", o->anyStation, "Exams scheduled on any station")->excludes(station);
    cmd->add_flag("--json", o->json, "Print JSON (input for beamform --worklist)");
    cmd->callback([o, &exitCode] { exitCode = runWorklist(*o); });
}

}  // namespace sonolink::cli
