// exportObjects(): see media_export.h.
#include "sonolink/dicom/media_export.h"

#include <filesystem>

#include <fmt/format.h>

#include "sonolink/dicom/pacs_client.h"
#include "sonolink/dicom/transcode.h"

namespace sonolink::dicom {
namespace {

namespace fs = std::filesystem;

Result<std::string> exportOne(const MediaExport& request, const std::string& input) {
    std::string current = input;
    const auto staging = (fs::path(request.directory) / ".staging.dcm").string();
    if (request.deidentify) {
        if (auto ok = deidentifyFile(current, staging, *request.deidentify); !ok) return fail(std::move(ok.error()));
        current = staging;
    }
    auto info = inspectObject(current);
    if (!info) return fail(std::move(info.error()));
    const auto output = (fs::path(request.directory) / (info->sopInstanceUid + ".dcm")).string();
    if (request.compression) {
        if (auto ok = transcodeFile(current, output, *request.compression); !ok) return fail(std::move(ok.error()));
    } else {
        std::error_code ec;
        fs::copy_file(current, output, fs::copy_options::overwrite_existing, ec);
        if (ec) return fail(ErrorCode::DataLoss, fmt::format("cannot write {}: {}", output, ec.message()));
    }
    std::error_code ignored;
    fs::remove(staging, ignored);
    return output;
}

}  // namespace

Result<MediaExportReport> exportObjects(const MediaExport& request, const std::vector<std::string>& files, AuditTrail& audit) {
    std::error_code ec;
    fs::create_directories(request.directory, ec);
    if (ec) return fail(ErrorCode::FailedPrecondition, fmt::format("cannot create {}: {}", request.directory, ec.message()));
    MediaExportReport report;
    std::vector<ExportAttempt> attempts;
    for (const auto& input : files) {
        auto before = inspectObject(input);  // the patient whose data it was
        auto output = exportOne(request, input);
        if (before) attempts.push_back({*before, output ? std::nullopt : std::optional<Error>(output.error()), request.deidentify.has_value()});
        report.objects.push_back({input, std::move(output)});
    }
    const auto destination = fs::absolute(request.directory, ec).string();
    if (auto ok = audit.record(exportEvents(request.stationAeTitle, destination, attempts)); !ok) report.auditFailure = ok.error();
    return report;
}

}  // namespace sonolink::dicom
