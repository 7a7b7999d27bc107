// exportObjects(): see media_export.h.
#include "sonolink/dicom/media_export.h"

#include <unistd.h>

#include <cerrno>
#include <filesystem>

#include <fmt/format.h>

#include "sonolink/dicom/pacs_client.h"
#include "sonolink/dicom/transcode.h"
#include "sonolink/dicom/value_rules.h"
#include "sonolink/util/durable_file.h"

namespace sonolink::dicom {
namespace {

namespace fs = std::filesystem;

// Identical bytes? (An object exported again into the same folder is no conflict.)
bool sameContent(const std::string& a, const std::string& b) {
    auto left = readWholeFile(a);
    auto right = readWholeFile(b);
    return left && right && *left == *right;
}

// staged (whole, synced) takes the name output, never replacing what is there: a file of that
// name with other bytes (another object claiming the same UID, or anything else) stays as it is.
Status install(const std::string& staged, const std::string& output) {
    if (::link(staged.c_str(), output.c_str()) != 0) {
        const int e = errno;
        const bool same = e == EEXIST && sameContent(staged, output);
        ::unlink(staged.c_str());
        if (same) return {};
        if (e == EEXIST) {
            return fail(ErrorCode::FailedPrecondition, fmt::format("{} exists already with other content: it was not overwritten, and this "
                                                                   "export was not kept",
                                                                   output));
        }
        return fail(ioError("write", output, e));
    }
    ::unlink(staged.c_str());
    return syncDirectoryOf(output);
}

Result<std::string> exportOne(const MediaExport& request, const std::string& input) {
    if (auto ok = requireRegularFile(input, "DICOM file"); !ok) return fail(std::move(ok.error()));
    const auto pid = ::getpid();
    std::string current = input;
    const auto staging = (fs::path(request.directory) / fmt::format(".staging-{}.dcm", pid)).string();
    struct Cleanup {
        std::string path;
        ~Cleanup() { ::unlink(path.c_str()); }
    } cleanup{staging};
    if (request.deidentify) {
        if (auto ok = deidentifyFile(current, staging, *request.deidentify); !ok) return fail(std::move(ok.error()));
        current = staging;
    }
    auto info = inspectObject(current);
    if (!info) return fail(std::move(info.error()));
    // The file's name comes from the data: only a valid UID (digits and dots) may become one.
    if (const auto problem = uidProblem(info->sopInstanceUid); !problem.empty()) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("{}: its SOP Instance UID '{}' {}: not exported (the file would be named after it)", input, info->sopInstanceUid, problem));
    }
    const auto output = (fs::path(request.directory) / (info->sopInstanceUid + ".dcm")).string();
    const auto staged = fmt::format("{}.{}.new", output, pid);
    if (request.compression) {
        if (auto ok = transcodeFile(current, staged, *request.compression); !ok) return fail(std::move(ok.error()));
    } else if (auto ok = copyFileDurably(current, staged); !ok) {
        return fail(std::move(ok.error()));
    }
    if (auto ok = install(staged, output); !ok) return fail(std::move(ok.error()));
    return output;
}

}  // namespace

Result<MediaExportReport> exportObjects(const MediaExport& request, const std::vector<std::string>& files, AuditTrail& audit) {
    if (auto ok = makePrivateDirectories(request.directory); !ok) return fail(std::move(ok.error()));
    std::error_code ec;
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
