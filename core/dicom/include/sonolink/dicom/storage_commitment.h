// Storage Commitment Push Model (PS3.4 J): requestStorageCommitment() asks a PACS (N-ACTION) to
// commit a set of stored objects under a transaction UID; CommitmentListener is the
// workstation's own small SCP that receives the PACS's answer (N-EVENT-REPORT on an association
// the PACS opens, the only way every PACS supports) and answers C-ECHO.
// Thread contract: requestStorageCommitment() blocks (run it off the GUI thread). The listener
// runs on its own thread and calls onReport there; stop it by destroying it.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "sonolink/dicom/pacs_node.h"
#include "sonolink/util/result.h"

namespace sonolink::dicom {

struct ObjectReference {
    std::string sopClassUid;
    std::string sopInstanceUid;
};

[[nodiscard]] Status requestStorageCommitment(const PacsNode& node, const AssociationSettings& settings, const std::string& transactionUid,
                                              const std::vector<ObjectReference>& objects);

struct CommitmentReport {
    std::string transactionUid;
    std::string fromAeTitle;
    std::vector<std::string> committed;                       // SOP Instance UIDs
    std::vector<std::pair<std::string, std::string>> failed;  // UID, the failure reason in words
};

// "0x0112 (no such object instance)" and the like, for a Failure Reason (0008,1197).
std::string describeFailureReason(unsigned reason);

class CommitmentListener {
public:
    using OnReport = std::function<void(const CommitmentReport&)>;
    // Binds port now (FailedPrecondition naming the port if it cannot), then listens on a thread.
    [[nodiscard]] static Result<std::unique_ptr<CommitmentListener>> start(int port, const std::string& aeTitle, OnReport onReport);
    ~CommitmentListener();
    CommitmentListener(const CommitmentListener&) = delete;
    CommitmentListener& operator=(const CommitmentListener&) = delete;

private:
    class Scp;
    CommitmentListener() = default;
    std::unique_ptr<Scp> scp_;
    std::thread thread_;
};

}  // namespace sonolink::dicom
