// sonolink-cli dicom export: DICOM objects made ready to leave the station (dicom::exportObjects:
// a directory, optionally de-identified and losslessly compressed, audited 110106) and
// optionally queued for a PACS node; besides existing objects, the self-test QA report (a PDF)
// as Encapsulated PDF and an RF snippet of a recording as Raw Data, made first.
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "dicom_export.h"
#include "exit_codes.h"
#include "sonolink/app/dicom_setup.h"
#include "sonolink/config/config_loader.h"
#include "sonolink/dicom/document_writers.h"
#include "sonolink/dicom/media_export.h"
#include "sonolink/dicom/store_queue.h"
#include "sonolink/record/uff_channel_data.h"
#include "sonolink/util/durable_file.h"

namespace sonolink::cli {
namespace {

namespace fs = std::filesystem;

// Version 1 of the layout of our Raw Data RF block (Creator-Version UID).
constexpr const char* kRfFormatVersionUid = "2.25.90436953878170857499619057595841230239";

struct ExportOptions {
    std::vector<std::string> files;
    std::string outputDir;
    bool deidentify = false;
    dicom::DeidentifyOptions deid;
    dicom::Compression compression = dicom::Compression::None;
    bool recompress = false;  // --compression given
    std::string pdf;
    std::string title = "Self-test report";
    std::string raw;
    int rawFrames = 1;
    DicomExportOptions exam;  // patient, worklist, UID root for --pdf / --raw
    std::string configFile;
    std::string queueTo;
    bool json = false;
};

Result<std::vector<std::uint8_t>> readBytes(const std::string& path) {
    auto text = readRegularFile(path, std::size_t(1) << 30, "the document");
    if (!text) return fail(std::move(text.error()));
    return std::vector<std::uint8_t>(text->begin(), text->end());
}

// The first frames of a recording's int16 RF as little-endian bytes, and what they are.
Result<dicom::RawDataPayload> rfSnippet(const std::string& path, int frames) {
    auto data = record::readUffChannelData(path, "/channel_data", {0, frames, 0});
    if (!data) return fail(std::move(data.error()));
    if (data->data16.empty()) return fail(ErrorCode::InvalidArgument, fmt::format("{}: Raw Data export takes int16 RF recordings", path));
    const int n = std::min(frames, data->frames);
    const std::size_t count = static_cast<std::size_t>(n) * static_cast<std::size_t>(data->geometry.waves) * static_cast<std::size_t>(data->geometry.channels) *
                              static_cast<std::size_t>(data->geometry.samples);
    dicom::RawDataPayload payload;
    payload.bytes.reserve(count * 2);
    for (std::size_t i = 0; i < count; ++i) {
        const auto v = static_cast<std::uint16_t>(data->data16[i]);
        payload.bytes.push_back(static_cast<std::uint8_t>(v & 0xFF));
        payload.bytes.push_back(static_cast<std::uint8_t>(v >> 8));
    }
    payload.description =
        fmt::format("int16 LE; {} frames x {} waves x {} channels x {} samples; fs={:g} MHz; c={:g} m/s; UFF channel_data layout", n, data->geometry.waves,
                    data->geometry.channels, data->geometry.samples, data->geometry.samplingRateHz / 1e6, data->geometry.soundSpeedMps);
    payload.formatVersionUid = kRfFormatVersionUid;
    return payload;
}

// The objects made before the export, in makeDir: the QA report as Encapsulated PDF (--pdf) and
// a recording's first frames as Raw Data (--raw), each in the exam's context.
Result<std::vector<std::string>> makeExportDocuments(const ExportOptions& o, const fs::path& makeDir) {
    std::vector<std::string> made;
    if (!o.pdf.empty() || !o.raw.empty()) {
        if (auto ok = makePrivateDirectories(makeDir.string()); !ok) return fail(std::move(ok.error()));
    }
    if (!o.pdf.empty()) {
        auto bytes = readBytes(o.pdf);
        auto context = makeInstanceContext(o.exam);
        if (!bytes) return fail(std::move(bytes.error()));
        if (!context) return fail(std::move(context.error()));
        context->series.number = 99;  // the report's own series (Modality DOC)
        const auto path = (makeDir / "report.dcm").string();
        if (auto ok = dicom::writeEncapsulatedPdf(path, *context, *bytes, o.title); !ok) return fail(std::move(ok.error()));
        made.push_back(path);
    }
    if (!o.raw.empty()) {
        auto payload = rfSnippet(o.raw, o.rawFrames);
        auto context = makeInstanceContext(o.exam);
        if (!payload) return fail(std::move(payload.error()));
        if (!context) return fail(std::move(context.error()));
        context->series.number = 98;
        const auto path = (makeDir / "rf.dcm").string();
        if (auto ok = dicom::writeRawData(path, *context, *payload); !ok) return fail(std::move(ok.error()));
        made.push_back(path);
    }
    return made;
}

// --queue-to: the exported objects queued for that configured node, each said as it is.
Status queueExportedObjects(const ExportOptions& o, const config::DicomSettings& settings, const std::vector<std::string>& exported) {
    auto destination = app::destinationNamed(settings, o.queueTo);
    if (!destination) return fail(std::move(destination.error()));
    auto queue = dicom::StoreQueue::open(settings.queueDirectory, app::retryPolicyFrom(settings));
    if (!queue) return fail(std::move(queue.error()));
    for (const auto& file : exported) {
        auto item = (*queue)->enqueue(file, o.queueTo, destination->storageCommitment);
        if (!item) return fail(std::move(item.error()));
        if (!o.json) std::cout << fmt::format("{}: queued for {} as item {}\n", file, o.queueTo, item->id);
    }
    return {};
}

int runExport(ExportOptions& o) {
    auto failWith = [](const Error& e) { return reportError("dicom export", e); };
    config::DicomSettings settings;
    if (!o.configFile.empty()) {
        auto loaded = config::loadConfigFile(o.configFile);
        if (!loaded) return failWith(loaded.error());
        settings = loaded->dicom;
        if (o.exam.uidRoot.empty()) o.exam.uidRoot = settings.uidRoot;
        o.exam.equipment = app::equipmentFrom(settings);
    }
    if (o.files.empty() && o.pdf.empty() && o.raw.empty()) return failWith(Error(ErrorCode::InvalidArgument, "nothing to export: name files, --pdf or --raw"));
    std::error_code ec;
    const auto makeDir = fs::path(o.outputDir) / ".made";
    auto made = makeExportDocuments(o, makeDir);  // new objects, written before the export
    if (!made) return failWith(made.error());

    dicom::AuditTrail audit(app::auditFrom(settings));
    std::vector<std::string> inputs = o.files;
    inputs.insert(inputs.end(), made->begin(), made->end());
    const dicom::MediaExport request{o.outputDir, o.deidentify ? std::optional(o.deid) : std::nullopt,
                                     o.recompress ? std::optional(o.compression) : std::nullopt, settings.stationAeTitle};
    auto done = dicom::exportObjects(request, inputs, audit);
    fs::remove_all(makeDir, ec);
    if (!done) return failWith(done.error());
    nlohmann::json report = nlohmann::json::array();
    std::vector<std::string> exported;
    int exitCode = kExitOk;
    for (const auto& [input, output] : done->objects) {
        report.push_back(
            {{"input", input}, {"ok", static_cast<bool>(output)}, {"output", output ? *output : ""}, {"error", output ? "" : output.error().message()}});
        if (!output) {
            std::cerr << "sonolink-cli dicom export: " << output.error().message() << '\n';
            exitCode = kExitFailed;
        } else {
            exported.push_back(*output);
            if (!o.json) std::cout << fmt::format("{} -> {}\n", input, *output);
        }
    }
    if (done->auditFailure) std::cerr << "sonolink-cli dicom export: " << done->auditFailure->message() << '\n';

    if (!o.queueTo.empty() && !exported.empty()) {
        if (auto queued = queueExportedObjects(o, settings, exported); !queued) return failWith(queued.error());
    }
    if (o.json) std::cout << report.dump(2) << '\n';
    return exitCode;
}

}  // namespace

void addDicomExportCommand(CLI::App& dicomCmd, int& exitCode) {
    auto o = std::make_shared<ExportOptions>();
    auto* cmd = dicomCmd.add_subcommand("export", "Make DICOM objects ready to leave the station: a directory, optionally a PACS queue");
    cmd->add_option("FILES", o->files, "DICOM objects to export")->check(CLI::ExistingFile);
    cmd->add_option("--output-dir", o->outputDir, "Where the exported objects go (<SOP Instance UID>.dcm)")->required();
    cmd->add_flag("--deidentify", o->deidentify, "De-identify (PS3.15 Basic profile); needs --deid-key");
    cmd->add_option("--deid-key", o->deid.uidKey, "The secret from which new UIDs derive (the same key keeps a study one study)")->envname("SONOLINK_DEID_KEY");
    cmd->add_option("--pseudonym", o->deid.pseudonym, "With --deidentify: the patient's new name")->capture_default_str();
    cmd->add_option("--pseudonym-id", o->deid.pseudonymId, "With --deidentify: the patient's new ID (default: the pseudonym)");
    cmd->add_option("--compression", o->compression, "Re-encode: none, rle or jpeg-ls (lossless)")
        ->transform(CLI::CheckedTransformer(std::map<std::string, dicom::Compression>{
            {"none", dicom::Compression::None}, {"rle", dicom::Compression::Rle}, {"jpeg-ls", dicom::Compression::JpegLs}}))
        ->each([o](const std::string&) { o->recompress = true; });
    cmd->add_option("--pdf", o->pdf, "A PDF (the self-test QA report) to export as Encapsulated PDF")->check(CLI::ExistingFile);
    cmd->add_option("--title", o->title, "With --pdf: the document's title")->capture_default_str();
    cmd->add_option("--raw", o->raw, "A recording (UFF) whose first frames to export as Raw Data")->check(CLI::ExistingFile);
    cmd->add_option("--raw-frames", o->rawFrames, "With --raw: how many frames")->check(CLI::Range(1, 100000))->capture_default_str();
    cmd->add_option("--patient-name", o->exam.patientName, "With --pdf / --raw: the patient's name");
    cmd->add_option("--patient-id", o->exam.patientId, "With --pdf / --raw: the patient ID");
    cmd->add_option("--worklist", o->exam.worklistFile, "With --pdf / --raw: the exam from `dicom worklist --json` output")->check(CLI::ExistingFile);
    cmd->add_option("--worklist-index", o->exam.worklistIndex, "With --worklist: which item");
    cmd->add_option("--config", o->configFile, "Configuration file: UID root, audit trail, PACS nodes and queue")->check(CLI::ExistingFile);
    cmd->add_option("--queue-to", o->queueTo, "Also queue the exported objects for this configured node (needs --config)");
    cmd->add_flag("--json", o->json, "Print JSON");
    cmd->callback([o, &exitCode] {
        if (o->deidentify && o->deid.uidKey.empty()) {
            std::cerr << "sonolink-cli dicom export: --deidentify needs --deid-key (or SONOLINK_DEID_KEY)\n";
            exitCode = kExitUsage;
            return;
        }
        exitCode = runExport(*o);
    });
}

}  // namespace sonolink::cli
