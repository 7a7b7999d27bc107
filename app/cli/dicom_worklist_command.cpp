// sonolink-cli dicom worklist: the scheduled exams a configured worklist server holds (C-FIND by
// date, modality and this station's AE title), printed or as JSON for `beamform --worklist`: a
// worklist job of the engine, as the GUI runs it (audited there).
#include <chrono>
#include <iostream>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "commands.h"
#include "exit_codes.h"
#include "sonolink/app/dicom_setup.h"
#include "sonolink/app/engine_setup.h"
#include "sonolink/config/config_loader.h"
#include "sonolink/dicom/dicom_time.h"
#include "sonolink/engine/event_log.h"
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

// An engine with its PACS side only (no display, no queue of its own): the worklist is one of its jobs.
int runWorklist(const WorklistOptions& o) {
    auto report = [](const Error& e) { return reportError("dicom worklist", e); };
    auto loaded = config::loadConfigFile(o.configFile);
    if (!loaded) return report(loaded.error());
    if (auto destination = app::destinationNamed(loaded->dicom, o.node); !destination) return report(destination.error());
    app::EngineChoice choice;
    choice.display = false;
    choice.dicomQueue = false;
    auto made = app::makeEngine(*loaded, choice);
    if (!made) return report(made.error());
    auto& engine = **made;
    engine::EventLog events;
    auto subscription = engine.subscribe(std::ref(events));
    engine::WorklistQuery query;
    query.node = o.node;
    query.date = o.date == "today" ? dicom::dicomDateTimeNow().date : o.date == "any" ? "" : o.date;
    query.modality = o.modality == "any" ? "" : o.modality;
    query.stationAeTitle = o.anyStation ? "" : o.station.empty() ? loaded->dicom.stationAeTitle : o.station;
    const auto job = engine.queryWorklist(query);
    const auto ended =
        events.waitFor<engine::JobUpdate>([job](const auto& u) { return u.id == job && u.status != engine::JobStatus::Running; }, std::chrono::minutes(10));
    if (!ended) return report(Error(ErrorCode::DeadlineExceeded, "the worklist query did not end"));
    if (ended->status != engine::JobStatus::Done) return report(Error(ErrorCode::Unavailable, ended->message));
    const auto result = events.waitFor<engine::WorklistResult>([job](const auto& r) { return r.job == job; }, std::chrono::seconds(1));
    const auto exams = result ? result->exams : std::vector<engine::ScheduledExam>{};
    if (o.json) {
        auto out = nlohmann::json::array();
        for (const auto& e : exams) out.push_back(toJson(e));
        std::cout << out.dump(2) << '\n';
        return kExitOk;
    }
    std::cout << fmt::format("{} scheduled exam{}\n", exams.size(), exams.size() == 1 ? "" : "s");
    for (std::size_t k = 0; k < exams.size(); ++k) {
        const auto& s = exams[k];
        std::cout << fmt::format("[{}] {} {}  {}  ID {}  accession {}  {}{}\n", k, s.scheduledStartDate, s.scheduledStartTime, s.exam.patient.name,
                                 s.exam.patient.id, s.exam.accessionNumber, s.exam.requestedProcedureDescription,
                                 s.characterSetAssumed ? "  (no character set in the answer: read as UTF-8)" : "");
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
