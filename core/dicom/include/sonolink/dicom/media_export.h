// exportObjects(): DICOM objects made ready to leave the station, as `sonolink-cli dicom export`
// runs it: each copied into a directory (media, a share) as <SOP Instance UID>.dcm, optionally
// de-identified (PS3.15 Basic profile) and re-encoded losslessly, and the export audited (110106
// per patient and study, a failure named in its message). A name is only ever a valid UID (an
// object whose UID is not one is refused), files are 0600 in a 0700 folder, written whole under
// a temporary name and never over a file of other content.
// Thread contract: one call at a time per directory and process (it stages files there).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sonolink/dicom/audit_trail.h"
#include "sonolink/dicom/deidentify.h"
#include "sonolink/dicom/us_image_writer.h"
#include "sonolink/util/result.h"

namespace sonolink::dicom {

struct MediaExport {
    std::string directory;  // created if missing
    std::optional<DeidentifyOptions> deidentify;
    std::optional<Compression> compression;  // re-encode; none: copied as they are
    std::string stationAeTitle;              // who exported, for the audit trail
};

struct ObjectExported {
    std::string input;
    Result<std::string> output;  // the file written, or why not
};
struct MediaExportReport {
    std::vector<ObjectExported> objects;  // in the order given
    std::optional<Error> auditFailure;
};

// FailedPrecondition if the directory cannot be made (nothing exported); else each object's outcome.
[[nodiscard]] Result<MediaExportReport> exportObjects(const MediaExport& request, const std::vector<std::string>& files, AuditTrail& audit);

}  // namespace sonolink::dicom
