// The file-level PACS use cases, as `sonolink-cli dicom send | commit` and the engine run them:
// sendFiles() C-STOREs DICOM files to a node over one association (like storescu) and audits the
// transfer (110104 per patient and study); commitFiles() asks the node to commit stored files
// (Storage Commitment, N-ACTION) and waits on this station's own listener for its report.
// Thread contract: both block for as long as the node takes (run them off any GUI thread).
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "sonolink/dicom/audit_trail.h"
#include "sonolink/dicom/pacs_client.h"
#include "sonolink/dicom/storage_commitment.h"
#include "sonolink/util/result.h"

namespace sonolink::dicom {

struct FileSent {
    std::string file;
    Result<StoreResult> result;  // the node's status, or why not (unreadable file, refused, not reached)
};
struct SendReport {
    std::vector<FileSent> files;        // in the order given
    std::optional<Error> auditFailure;  // the transfer happened, but its audit message could not be written
};
[[nodiscard]] SendReport sendFiles(const PacsNode& node, const AssociationSettings& association, const std::vector<std::string>& files, AuditTrail& audit);

struct CommitRequest {
    PacsNode node;
    AssociationSettings association;
    std::string stationAeTitle;  // the report comes to this AE title ...
    int listenPort = 11112;      // ... on this port
    std::string transactionUid;
    std::chrono::milliseconds wait{30'000};
};
// The node's report for the files (NotFound or InvalidArgument for a file that is not DICOM;
// Unavailable if no report came within request.wait, naming the port it was awaited on).
[[nodiscard]] Result<CommitmentReport> commitFiles(const CommitRequest& request, const std::vector<std::string>& files);

}  // namespace sonolink::dicom
