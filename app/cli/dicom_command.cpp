// sonolink-cli dicom echo | send: reach a PACS node from the command line (C-ECHO; C-STORE of
// DICOM files), with --json; each failure names the node and whether a retry can help.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "exit_codes.h"
#include "sonolink/app/dicom_setup.h"
#include "sonolink/config/config_loader.h"
#include "sonolink/dicom/audit_trail.h"
#include "sonolink/dicom/pacs_client.h"

namespace sonolink::cli {
namespace {

struct DicomOptions {
    dicom::PacsNode node{"", "127.0.0.1", 104};
    dicom::AssociationSettings association;
    std::string configFile;
    std::string nodeName;
    config::DicomSettings settings;  // from --config, else the defaults (the audit trail's file)
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

// --node NAME --config F: the node, TLS identity and our AE title as configured.
Status resolveNode(DicomOptions& o) {
    if (!o.configFile.empty()) {
        auto loaded = config::loadConfigFile(o.configFile);
        if (!loaded) return fail(std::move(loaded.error()));
        o.settings = loaded->dicom;
    }
    if (o.nodeName.empty()) {
        if (o.node.aeTitle.empty()) return fail(ErrorCode::InvalidArgument, "name the PACS with --aet (and --host, --port) or --node with --config");
        return {};
    }
    auto destination = app::destinationNamed(o.settings, o.nodeName);
    if (!destination) return fail(std::move(destination.error()));
    o.node = destination->node;
    o.association = app::associationFrom(o.settings);
    return {};
}

int reportResolveFailure(const char* command, const DicomOptions& o, const Error& e) {
    (void)reportError(fmt::format("dicom {}", command), e);
    return o.nodeName.empty() ? kExitUsage : kExitFailed;
}

int runEcho(DicomOptions& o) {
    if (auto ok = resolveNode(o); !ok) {
        return reportResolveFailure("echo", o, ok.error());
    }
    auto result = dicom::echo(o.node, o.association);
    if (o.json) {
        std::cout << nlohmann::json{{"ok", static_cast<bool>(result)}, {"error", result ? "" : result.error().message()}}.dump(2) << '\n';
    } else if (result) {
        std::cout << fmt::format("C-ECHO to {} at {}:{}{}: ok\n", o.node.aeTitle, o.node.host, o.node.port, o.node.tls ? " (TLS)" : "");
    } else {
        std::cerr << "sonolink-cli dicom echo: " << result.error().message() << '\n';
    }
    return result ? kExitOk : exitCodeFor(result.error());
}

int runSend(DicomOptions& o) {
    if (auto ok = resolveNode(o); !ok) {
        return reportResolveFailure("send", o, ok.error());
    }
    nlohmann::json report = nlohmann::json::array();
    int exitCode = kExitOk;
    auto record = [&](const std::string& file, const Result<dicom::StoreResult>& result) {
        report.push_back({{"file", file}, {"ok", static_cast<bool>(result)}, {"status", result ? result->status : 0},
                          {"error", result ? "" : result.error().message()}});
        if (!result) {
            if (!o.json) std::cerr << "sonolink-cli dicom send: " << result.error().message() << '\n';
            exitCode = exitCodeFor(result.error());
        } else if (!o.json) {
            std::cout << fmt::format("{}: stored (status 0x{:04X}{})\n", file, result->status, result->warning ? ", a warning" : "");
        }
    };
    std::vector<dicom::ObjectInfo> objects;
    for (const auto& file : o.files) {
        auto info = dicom::inspectObject(file);
        if (info) objects.push_back(*info);
        else record(file, fail(std::move(info.error())));
    }
    // One association for them all, like storescu; what it did not reach is reported as not sent.
    std::vector<bool> done(objects.size(), false);
    std::vector<dicom::TransferAttempt> attempts;
    const auto sent = dicom::storeAll(o.node, objects, o.association, [&](std::size_t i, const Result<dicom::StoreResult>& r) {
        done[i] = true;
        record(objects[i].file, r);
        attempts.push_back({objects[i], r ? std::nullopt : std::optional(r.error()), !r || r.error().code() != ErrorCode::InvalidArgument});
    });
    if (!sent) {
        for (const auto& object : objects) attempts.push_back({object, sent.error(), true});
    }
    dicom::AuditTrail audit(app::auditFrom(o.settings));
    if (auto ok = audit.record(dicom::transferEvents(o.association.callingAeTitle, o.node, attempts)); !ok) {
        std::cerr << "sonolink-cli dicom send: " << ok.error().message() << '\n';
    }
    for (std::size_t i = 0; i < objects.size(); ++i) {
        if (done[i]) continue;
        record(objects[i].file, sent ? Result<dicom::StoreResult>(fail(ErrorCode::Unavailable, "not sent: the association ended before its turn"))
                                     : Result<dicom::StoreResult>(fail(sent.error())));
    }
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
}

}  // namespace sonolink::cli
