// sonolink-cli dicom echo | send: reach a PACS node from the command line (C-ECHO, a
// verification job of the engine; C-STORE of DICOM files, dicom::sendFiles), with --json; each
// failure names the node and whether a retry can help.
#include <chrono>
#include <functional>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "exit_codes.h"
#include "sonolink/app/dicom_setup.h"
#include "sonolink/app/engine_setup.h"
#include "sonolink/config/config_loader.h"
#include "sonolink/dicom/file_transfer.h"
#include "sonolink/engine/event_log.h"

namespace sonolink::cli {
namespace {

struct DicomOptions {
    dicom::PacsNode node{"", "127.0.0.1", 104};
    dicom::AssociationSettings association;
    std::string configFile;
    std::string nodeName;
    std::vector<std::string> files;
    bool json = false;
};

void addNodeOptions(CLI::App& cmd, DicomOptions& o) {
    auto* config = cmd.add_option("--config", o.configFile, "Configuration file (JSON) with dicom.nodes")->check(CLI::ExistingFile);
    auto* node = cmd.add_option("--node", o.nodeName, "A configured node's name (with --config): its address, TLS, our AE title")->needs(config);
    cmd.add_option("--aet", o.node.aeTitle, "The PACS's (called) AE title")->excludes(node);
    cmd.add_option("--host", o.node.host, "The PACS's host")->capture_default_str();
    cmd.add_option("--port", o.node.port, "The PACS's port")->check(CLI::Range(1, 65535))->capture_default_str();
    cmd.add_option("--calling-aet", o.association.callingAeTitle, "This workstation's AE title")->capture_default_str();
    cmd.add_option("--timeout", o.association.dimseTimeoutS, "Seconds to wait for each response")->check(CLI::Range(1, 3600))->capture_default_str();
    cmd.add_flag("--json", o.json, "Print JSON");
}

constexpr const char* kCommandLineNode = "command-line";

// The configuration the command runs on: --config's, and the node to reach in it (--node), or
// the defaults with the node given by --aet, --host and --port, and our AE title and timeout.
Result<config::AppConfig> resolveNode(DicomOptions& o) {
    config::AppConfig config;
    if (!o.configFile.empty()) {
        auto loaded = config::loadConfigFile(o.configFile);
        if (!loaded) return fail(std::move(loaded.error()));
        config = std::move(*loaded);
    }
    if (o.nodeName.empty()) {
        if (o.node.aeTitle.empty()) return fail(ErrorCode::InvalidArgument, "name the PACS with --aet (and --host, --port) or --node with --config");
        o.nodeName = kCommandLineNode;
        config.dicom.nodes = {{o.nodeName, o.node.aeTitle, o.node.host, o.node.port, false, false}};
        config.dicom.stationAeTitle = o.association.callingAeTitle;
        config.dicom.dimseTimeoutS = o.association.dimseTimeoutS;
    }
    return config;
}

int reportResolveFailure(const char* command, const DicomOptions& o, const Error& e) {
    (void)reportError(fmt::format("dicom {}", command), e);
    return o.nodeName.empty() ? kExitUsage : kExitFailed;
}

// A verification job of an engine with its PACS side only (no display, no queue), as the GUI runs it.
int runEcho(DicomOptions& o) {
    auto config = resolveNode(o);
    if (!config) return reportResolveFailure("echo", o, config.error());
    app::EngineChoice choice;
    choice.display = false;
    choice.dicomQueue = false;
    auto made = app::makeEngine(*config, choice);
    if (!made) return reportError("dicom echo", made.error());
    engine::EventLog events;
    auto subscription = (*made)->subscribe(std::ref(events));
    const auto job = (*made)->verifyNode(o.nodeName);
    const auto ended =
        events.waitFor<engine::JobUpdate>([job](const auto& u) { return u.id == job && u.status != engine::JobStatus::Running; }, std::chrono::hours(1));
    if (!ended) return reportError("dicom echo", Error(ErrorCode::DeadlineExceeded, "the verification did not end"));
    const bool ok = ended->status == engine::JobStatus::Done;
    if (o.json) {
        std::cout << nlohmann::json{{"ok", ok}, {"error", ok ? "" : ended->message}}.dump(2) << '\n';
    } else if (ok) {
        std::cout << ended->message << '\n';
    } else {
        std::cerr << "sonolink-cli dicom echo: " << ended->message << '\n';
    }
    return ok ? kExitOk : exitCodeFor(Error(ended->code, ended->message));
}

int runSend(DicomOptions& o) {
    auto config = resolveNode(o);
    if (!config) return reportResolveFailure("send", o, config.error());
    auto destination = app::destinationNamed(config->dicom, o.nodeName);
    if (!destination) return reportError("dicom send", destination.error());
    dicom::AuditTrail audit(app::auditFrom(config->dicom));
    const auto sent = dicom::sendFiles(destination->node, app::associationFrom(config->dicom), o.files, audit);
    nlohmann::json report = nlohmann::json::array();
    int exitCode = kExitOk;
    for (const auto& [file, result] : sent.files) {
        report.push_back(
            {{"file", file}, {"ok", static_cast<bool>(result)}, {"status", result ? result->status : 0}, {"error", result ? "" : result.error().message()}});
        if (!result) {
            if (!o.json) std::cerr << "sonolink-cli dicom send: " << result.error().message() << '\n';
            exitCode = exitCodeFor(result.error());
        } else if (!o.json) {
            std::cout << fmt::format("{}: stored (status 0x{:04X}{})\n", file, result->status, result->warning ? ", a warning" : "");
        }
    }
    if (sent.auditFailure) std::cerr << "sonolink-cli dicom send: " << sent.auditFailure->message() << '\n';
    if (o.json) std::cout << report.dump(2) << '\n';
    return exitCode;
}

}  // namespace

void addDicomCommand(CLI::App& app, int& exitCode) {
    auto* dicomCmd = app.add_subcommand("dicom", "DICOM: reach a PACS");
    dicomCmd->require_subcommand(1);
    auto echoOptions = std::make_shared<DicomOptions>();
    auto* echoCmd = dicomCmd->add_subcommand("echo", "C-ECHO a PACS node");
    addNodeOptions(*echoCmd, *echoOptions);
    echoCmd->callback([echoOptions, &exitCode] { exitCode = runEcho(*echoOptions); });
    auto sendOptions = std::make_shared<DicomOptions>();
    auto* sendCmd = dicomCmd->add_subcommand("send", "C-STORE DICOM files to a PACS node");
    sendCmd->add_option("FILES", sendOptions->files, "DICOM files")->required()->check(CLI::ExistingFile);
    addNodeOptions(*sendCmd, *sendOptions);
    sendCmd->callback([sendOptions, &exitCode] { exitCode = runSend(*sendOptions); });
    addDicomQueueCommands(*dicomCmd, exitCode);
    addDicomWorklistCommand(*dicomCmd, exitCode);
    addDicomExportCommand(*dicomCmd, exitCode);
    addDicomFramesCommand(*dicomCmd, exitCode);
}

}  // namespace sonolink::cli
