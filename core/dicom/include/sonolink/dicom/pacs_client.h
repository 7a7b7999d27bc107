// PACS client: C-ECHO, and C-STORE of DICOM files to a node, many files over one association,
// with timeouts that really fire (DIMSE non-blocking mode) and DICOM TLS when the node asks for
// it. A compressed file goes out uncompressed when the peer accepts nothing else. Failures say
// which node, what happened, and whether a retry can help (Unavailable: connection, timeout,
// abort, out of resources) or not (FailedPrecondition: rejected association, no context;
// InvalidArgument: the PACS refused the object).
// Thread contract: blocking calls; run them off the GUI thread. Calls are independent.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "sonolink/dicom/pacs_node.h"
#include "sonolink/util/result.h"

namespace sonolink::dicom {

[[nodiscard]] Status echo(const PacsNode& node, const AssociationSettings& settings = {});

// Why a node did not answer (a failed exchange's class, for the self-test, its report and the
// queue's events): nothing listening at the address, the association rejected (AE titles,
// contexts), no answer in time, a TLS failure (handshake, certificates, or TLS asked of a plain
// port), the association aborted by the peer, anything else.
enum class EchoFailure { NothingListening, Rejected, Timeout, Tls, Aborted, Other };
[[nodiscard]] std::string_view toString(EchoFailure failure);
[[nodiscard]] EchoFailure classifyEchoFailure(const Error& error);

// What a DICOM file is (its meta header), and whose (for the audit trail).
struct ObjectInfo {
    std::string file;
    std::string sopClassUid;
    std::string sopInstanceUid;
    std::string transferSyntaxUid;
    std::string studyInstanceUid;
    std::string patientId;
    std::string patientName;
};
[[nodiscard]] Result<ObjectInfo> inspectObject(const std::string& file);

struct StoreResult {
    std::uint16_t status = 0;  // 0x0000, or a warning (0xB000, 0xB006, 0xB007): stored
    bool warning = false;
};

// Sends one DICOM file (its own SOP class and transfer syntax).
[[nodiscard]] Result<StoreResult> store(const PacsNode& node, const std::string& file, const AssociationSettings& settings = {});

// Sends the objects in order over one association; reports each as it completes, in order, on a
// helper thread (one report at a time, all before storeAll returns). A failure that breaks the
// association (abort, timeout) ends the batch: the objects after it are not reported. Returns
// the association's own failure (could not open), else success.
using StoreReport = std::function<void(std::size_t index, const Result<StoreResult>& result)>;
[[nodiscard]] Status storeAll(const PacsNode& node, const std::vector<ObjectInfo>& objects, const AssociationSettings& settings, const StoreReport& report);

}  // namespace sonolink::dicom
