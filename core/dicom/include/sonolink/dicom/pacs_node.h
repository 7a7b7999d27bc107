// PacsNode and AssociationSettings: where a DICOM peer is (AE title, host, port), whether it
// speaks DICOM TLS and with which certificates, and the timeouts of one association. Shared by
// the PACS client, storage commitment, worklist and the store-and-forward queue.
// Plain value types: copy freely, no thread affinity.
#pragma once

#include <string>

namespace sonolink::dicom {

// The workstation's TLS identity (PEM files) and the CAs it trusts for its peers.
struct TlsCredentials {
    std::string certificateFile;
    std::string privateKeyFile;
    std::string trustedCertificatesFile;
};

struct PacsNode {
    std::string aeTitle;  // called AE title
    std::string host;
    int port = 104;
    bool tls = false;  // DICOM TLS (mutual: both sides present certificates)
};

struct AssociationSettings {
    std::string callingAeTitle = "SONOLINK";
    int connectTimeoutS = 5;
    int acseTimeoutS = 10;   // association request, release and abort
    int dimseTimeoutS = 30;  // waiting for a response
    TlsCredentials tls;      // used for nodes with tls = true
};

// Asks every DICOM exchange of this process to end now (a signal handler may call it: it only
// sets a flag): each fails with Cancelled within about 100 ms, its association aborted.
void requestStop() noexcept;
[[nodiscard]] bool stopRequested() noexcept;
void clearStopRequest() noexcept;  // a process that carries on after a stop (tests)

}  // namespace sonolink::dicom
