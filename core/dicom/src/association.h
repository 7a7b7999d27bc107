// Association: one DcmSCU association to a PacsNode, opened with the presentation contexts its
// caller needs, TLS when the node asks for it, DIMSE non-blocking so timeouts fire, every step
// under a deadline no slow or stalled peer can extend (DeadlineTransport: opening within connect
// + ACSE timeouts, each exchange within the DIMSE timeout plus its bytes at 1 MB/s, the release
// within the ACSE timeout), and abort (not release) after a failure. Private to sonolink_dicom.
// Errors name the node and say whether a retry can help (Unavailable) or not
// (FailedPrecondition, InvalidArgument); a stop asked for (requestStop) is Cancelled.
// Thread contract: one thread at a time; blocking calls (keep them off the GUI thread).
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <dcmtk/dcmnet/scu.h>

#include "codecs.h"
#include "deadline_transport.h"
#include "sonolink/dicom/pacs_node.h"
#include "sonolink/util/result.h"

class DcmTLSTransportLayer;

namespace sonolink::dicom {

std::string describe(const PacsNode& node);

struct PresentationContext {
    std::string abstractSyntax;
    std::vector<std::string> transferSyntaxes;  // proposed in order, one context each
};

class Association {
public:
    Association(const PacsNode& node, const AssociationSettings& settings);
    ~Association();
    Association(const Association&) = delete;
    Association& operator=(const Association&) = delete;

    [[nodiscard]] Status open(const std::vector<PresentationContext>& contexts);
    // 0 when the peer accepted no context for this abstract syntax and transfer syntax (nor any
    // that DCMTK can convert to).
    T_ASC_PresentationContextID contextFor(const std::string& abstractSyntax, const std::string& transferSyntax);
    DcmSCU& scu() { return scu_; }
    // Arms the deadline of the next exchange: the DIMSE timeout, plus bytes at 1 MB/s.
    void beginExchange(std::size_t bytes = 0);
    // Why an exchange (what: "C-STORE of F") failed with c: stopped, past its deadline, or c.
    [[nodiscard]] Error exchangeError(const std::string& what, const OFCondition& c) const;
    const PacsNode& node() const { return node_; }
    // The association ends with an abort (after a failed exchange) instead of a release.
    void abortOnClose() { aborting_ = true; }

private:
    class Scu : public DcmSCU {
    public:
        OFCondition useTls(DcmTransportLayer* layer) { return useSecureConnection(layer); }
    };
    Status setUpTls();

    PacsNode node_;
    AssociationSettings settings_;
    Scu scu_;
    Deadline deadline_;
    std::unique_ptr<DcmTLSTransportLayer> tls_;
    std::unique_ptr<DeadlineTransport> transport_;
    bool aborting_ = false;
};

// The uncompressed syntaxes every peer must accept, explicit first.
std::vector<std::string> uncompressedSyntaxes();

}  // namespace sonolink::dicom
