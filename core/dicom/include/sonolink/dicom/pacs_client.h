// PACS client: C-ECHO and C-STORE to a configured node over one association each, with timeouts
// that really fire (DIMSE non-blocking mode). Failures say which node, what happened, and
// whether a retry can help (Unavailable: connection, timeout, abort, out of resources) or not
// (FailedPrecondition: rejected association; InvalidArgument: the PACS refused the object).
// Thread contract: blocking calls; run them off the GUI thread. Calls are independent.
#pragma once

#include <cstdint>
#include <string>

#include "sonolink/util/result.h"

namespace sonolink::dicom {

struct PacsNode {
    std::string aeTitle;  // called AE title
    std::string host;
    int port = 104;
};

struct AssociationSettings {
    std::string callingAeTitle = "SONOLINK";
    int connectTimeoutS = 5;
    int acseTimeoutS = 10;   // association request, release and abort
    int dimseTimeoutS = 30;  // waiting for a response
};

[[nodiscard]] Status echo(const PacsNode& node, const AssociationSettings& settings = {});

struct StoreResult {
    std::uint16_t status = 0;  // 0x0000, or a warning (0xB000, 0xB006, 0xB007): stored
    bool warning = false;
};

// Sends one DICOM file (its own SOP class and transfer syntax).
[[nodiscard]] Result<StoreResult> store(const PacsNode& node, const std::string& file, const AssociationSettings& settings = {});

}  // namespace sonolink::dicom
