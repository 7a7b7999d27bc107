#include "association.h"

#include <dcmtk/dcmdata/dcuid.h>
#include <arpa/inet.h>
#include <dcmtk/dcmtls/tlslayer.h>
#include <fmt/format.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <algorithm>
#include <atomic>
#include <filesystem>

namespace sonolink::dicom {

std::string describe(const PacsNode& node) { return fmt::format("PACS {} at {}:{}{}", node.aeTitle, node.host, node.port, node.tls ? " (TLS)" : ""); }

namespace {
std::atomic<bool> gStop{false};  // lock-free: a signal handler may set it
}  // namespace

void requestStop() noexcept { gStop.store(true); }
bool stopRequested() noexcept { return gStop.load(); }
void clearStopRequest() noexcept { gStop.store(false); }

std::vector<std::string> uncompressedSyntaxes() { return {UID_LittleEndianExplicitTransferSyntax, UID_LittleEndianImplicitTransferSyntax}; }

namespace {

// An association failure: rejected is permanent for this configuration, the rest may pass.
Error associationError(const PacsNode& node, const OFCondition& c) {
    const std::string text = c.text();
    const bool rejected = text.find("Rejected") != std::string::npos;
    std::string hint;
    if (!node.tls && text.find("Peer aborted") != std::string::npos) {
        hint = " (if this port is TLS-only, set tls for this node)";
    } else if (node.tls && (text.find("TLS") != std::string::npos || text.find("SSL") != std::string::npos || text.find("certificate") != std::string::npos)) {
        hint = fmt::format(
            " (check the certificates: ours, the CA we trust for the peer, and that the peer's certificate names {} in its "
            "subjectAltName)",
            node.host);
    }
    return Error(rejected ? ErrorCode::FailedPrecondition : ErrorCode::Unavailable, fmt::format("{}: cannot associate: {}{}", describe(node), text, hint));
}

}  // namespace

Association::Association(const PacsNode& node, const AssociationSettings& settings) : node_(node), settings_(settings) {
    setUpDcmtk();
    scu_.setAETitle(settings.callingAeTitle.c_str());
    scu_.setPeerAETitle(node.aeTitle.c_str());
    scu_.setPeerHostName(node.host.c_str());
    scu_.setPeerPort(static_cast<Uint16>(node.port));
    scu_.setConnectionTimeout(settings.connectTimeoutS);
    scu_.setACSETimeout(static_cast<Uint32>(settings.acseTimeoutS));
    scu_.setDIMSETimeout(static_cast<Uint32>(settings.dimseTimeoutS));
    scu_.setDIMSEBlockingMode(DIMSE_NONBLOCKING);  // else the DIMSE timeout is ignored
    scu_.setDatasetConversionMode(OFTrue);         // a compressed file may go out uncompressed
}

Association::~Association() {
    deadline_.arm(std::chrono::seconds(std::max(settings_.acseTimeoutS, 1)));
    if (stopRequested()) aborting_ = true;
    if (scu_.isConnected()) {
        if (aborting_) scu_.abortAssociation();
        else scu_.releaseAssociation();
    }
}

Status Association::setUpTls() {
    const auto& c = settings_.tls;
    for (const auto& [what, file] :
         {std::pair{"certificate", c.certificateFile}, {"private key", c.privateKeyFile}, {"trusted certificates", c.trustedCertificatesFile}}) {
        if (file.empty()) return fail(ErrorCode::FailedPrecondition, fmt::format("{}: TLS needs our {} file, and none is configured", describe(node_), what));
        if (!std::filesystem::exists(file))
            return fail(ErrorCode::FailedPrecondition, fmt::format("{}: TLS {} file {} does not exist", describe(node_), what, file));
    }
    tls_ = std::make_unique<DcmTLSTransportLayer>(NET_REQUESTOR, nullptr, OFTrue);
    auto check = [&](const OFCondition& cond, std::string_view step) -> Status {
        if (cond.bad()) return fail(ErrorCode::FailedPrecondition, fmt::format("{}: TLS set-up, {}: {}", describe(node_), step, cond.text()));
        return {};
    };
    if (auto s = check(tls_->setTLSProfile(TSP_Profile_BCP195_ND), "security profile"); !s) return s;
    if (auto s = check(tls_->activateCipherSuites(), "cipher suites"); !s) return s;
    if (auto s = check(tls_->setPrivateKeyFile(c.privateKeyFile.c_str(), DCF_Filetype_PEM), "private key " + c.privateKeyFile); !s) return s;
    if (auto s = check(tls_->setCertificateFile(c.certificateFile.c_str(), DCF_Filetype_PEM), "certificate " + c.certificateFile); !s) return s;
    if (!tls_->checkPrivateKeyMatchesCertificate()) {
        return fail(ErrorCode::FailedPrecondition,
                    fmt::format("{}: private key {} does not match certificate {}", describe(node_), c.privateKeyFile, c.certificateFile));
    }
    if (auto s =
            check(tls_->addTrustedCertificateFile(c.trustedCertificatesFile.c_str(), DCF_Filetype_PEM), "trusted certificates " + c.trustedCertificatesFile);
        !s)
        return s;
    tls_->setCertificateVerification(DCV_requireCertificate);
    // The peer's certificate must name the host we connect to (DCMTK checks only that a trusted
    // CA signed it: any other host's certificate from the same CA would pass). An address is
    // matched against the certificate's IP entries, a name against its DNS names.
    X509_VERIFY_PARAM* param = SSL_CTX_get0_param(tls_->getNativeHandle());
    in6_addr address{};
    const bool isAddress = ::inet_pton(AF_INET, node_.host.c_str(), &address) == 1 || ::inet_pton(AF_INET6, node_.host.c_str(), &address) == 1;
    const int named = isAddress ? X509_VERIFY_PARAM_set1_ip_asc(param, node_.host.c_str()) : X509_VERIFY_PARAM_set1_host(param, node_.host.c_str(), 0);
    if (named != 1)
        return fail(ErrorCode::FailedPrecondition, fmt::format("{}: TLS set-up: cannot check the peer's name against '{}'", describe(node_), node_.host));
    X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
    return {};
}

Status Association::open(const std::vector<PresentationContext>& contexts) {
    for (const auto& context : contexts) {
        for (const auto& syntax : context.transferSyntaxes) {  // one syntax per context: the peer picks per context
            OFList<OFString> one;
            one.push_back(syntax.c_str());
            if (auto c = scu_.addPresentationContext(context.abstractSyntax.c_str(), one); c.bad()) return fail(ErrorCode::Internal, c.text());
        }
    }
    if (stopRequested()) return fail(ErrorCode::Cancelled, fmt::format("{}: not associating: stopped on request", describe(node_)));
    if (auto c = scu_.initNetwork(); c.bad()) return fail(ErrorCode::Internal, fmt::format("cannot start the network: {}", c.text()));
    if (node_.tls) {
        if (auto s = setUpTls(); !s) return s;
    }
    // Every connection through our transport: the deadline holds for TCP and TLS alike.
    transport_ = std::make_unique<DeadlineTransport>(deadline_, tls_.get());
    if (auto c = scu_.useTls(transport_.get()); c.bad()) {
        return fail(ErrorCode::Internal, fmt::format("{}: cannot attach the transport: {}", describe(node_), c.text()));
    }
    deadline_.arm(std::chrono::seconds(std::max(settings_.connectTimeoutS, 1) + std::max(settings_.acseTimeoutS, 1)));
    if (auto c = scu_.negotiateAssociation(); c.bad()) {
        if (stopRequested() || deadline_.passed()) return fail(exchangeError("associating", c));
        return fail(associationError(node_, c));
    }
    return {};
}

void Association::beginExchange(std::size_t bytes) {
    deadline_.arm(std::chrono::seconds(std::max(settings_.dimseTimeoutS, 1)) + std::chrono::milliseconds(bytes / 1000));
}

Error Association::exchangeError(const std::string& what, const OFCondition& c) const {
    if (stopRequested()) return Error(ErrorCode::Cancelled, fmt::format("{}: {}: stopped on request", describe(node_), what));
    if (deadline_.passed()) {
        return Error(ErrorCode::Unavailable, fmt::format("{}: {}: no complete answer in time (the deadline of this step passed; the peer is "
                                                         "slow or stalled): {}",
                                                         describe(node_), what, c.text()));
    }
    return Error(ErrorCode::Unavailable, fmt::format("{}: {} failed: {}", describe(node_), what, c.text()));
}

T_ASC_PresentationContextID Association::contextFor(const std::string& abstractSyntax, const std::string& transferSyntax) {
    if (auto id = scu_.findPresentationContextID(abstractSyntax.c_str(), transferSyntax.c_str()); id != 0) return id;
    return scu_.findAnyPresentationContextID(abstractSyntax.c_str(), transferSyntax.c_str());
}

}  // namespace sonolink::dicom
