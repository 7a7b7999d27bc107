#include "sonolink/dicom/pacs_client.h"

#include <dcmtk/dcmdata/dcfilefo.h>
#include <dcmtk/dcmdata/dcuid.h>
#include <dcmtk/dcmnet/scu.h>
#include <dcmtk/oflog/oflog.h>
#include <fmt/format.h>

#include <mutex>

namespace sonolink::dicom {
namespace {

std::string describe(const PacsNode& node) { return fmt::format("PACS {} at {}:{}", node.aeTitle, node.host, node.port); }

// An association failure: rejected is permanent for this configuration, the rest may pass.
Error associationError(const PacsNode& node, const OFCondition& c) {
    const std::string text = c.text();
    const bool rejected = text.find("Rejected") != std::string::npos;
    return Error(rejected ? ErrorCode::FailedPrecondition : ErrorCode::Unavailable,
                 fmt::format("{}: cannot associate: {}", describe(node), text));
}

// DCMTK's own log says "Requesting Association" and the like on the console: keep its warnings
// and errors only (ours carry the node and the reason).
void quietDcmtk() {
    static std::once_flag once;
    std::call_once(once, [] { OFLog::configure(OFLogger::WARN_LOG_LEVEL); });
}

class Association {
public:
    Association(const PacsNode& node, const AssociationSettings& s) : node_(node) {
        quietDcmtk();
        scu_.setAETitle(s.callingAeTitle.c_str());
        scu_.setPeerAETitle(node.aeTitle.c_str());
        scu_.setPeerHostName(node.host.c_str());
        scu_.setPeerPort(static_cast<Uint16>(node.port));
        scu_.setConnectionTimeout(s.connectTimeoutS);
        scu_.setACSETimeout(static_cast<Uint32>(s.acseTimeoutS));
        scu_.setDIMSETimeout(static_cast<Uint32>(s.dimseTimeoutS));
        scu_.setDIMSEBlockingMode(DIMSE_NONBLOCKING);  // else the DIMSE timeout is ignored
    }
    ~Association() {
        if (scu_.isConnected()) {
            if (aborting_) scu_.abortAssociation();
            else scu_.releaseAssociation();
        }
    }
    Association(const Association&) = delete;
    Association& operator=(const Association&) = delete;

    Status open(const char* sopClass, const std::string& transferSyntax) {
        OFList<OFString> syntaxes;
        syntaxes.push_back(transferSyntax.c_str());
        if (transferSyntax != UID_LittleEndianImplicitTransferSyntax) syntaxes.push_back(UID_LittleEndianImplicitTransferSyntax);
        if (auto c = scu_.addPresentationContext(sopClass, syntaxes); c.bad()) return fail(ErrorCode::Internal, c.text());
        if (auto c = scu_.initNetwork(); c.bad()) return fail(ErrorCode::Internal, fmt::format("cannot start the network: {}", c.text()));
        if (auto c = scu_.negotiateAssociation(); c.bad()) return fail(associationError(node_, c));
        return {};
    }
    DcmSCU& scu() { return scu_; }
    void abortOnClose() { aborting_ = true; }

private:
    PacsNode node_;
    DcmSCU scu_;
    bool aborting_ = false;
};

}  // namespace

Status echo(const PacsNode& node, const AssociationSettings& settings) {
    Association a(node, settings);
    if (auto ok = a.open(UID_VerificationSOPClass, UID_LittleEndianExplicitTransferSyntax); !ok) return ok;
    if (auto c = a.scu().sendECHORequest(0); c.bad()) {
        a.abortOnClose();
        return fail(ErrorCode::Unavailable, fmt::format("{}: C-ECHO failed: {}", describe(node), c.text()));
    }
    return {};
}

Result<StoreResult> store(const PacsNode& node, const std::string& file, const AssociationSettings& settings) {
    DcmFileFormat object;
    if (auto c = object.loadFile(file.c_str()); c.bad()) return fail(ErrorCode::InvalidArgument, fmt::format("cannot read {}: {}", file, c.text()));
    OFString sopClass, syntax;
    object.getMetaInfo()->findAndGetOFString(DCM_MediaStorageSOPClassUID, sopClass);
    object.getMetaInfo()->findAndGetOFString(DCM_TransferSyntaxUID, syntax);
    if (sopClass.empty()) return fail(ErrorCode::InvalidArgument, fmt::format("{} names no SOP class in its meta header", file));
    Association a(node, settings);
    if (auto ok = a.open(sopClass.c_str(), syntax.c_str()); !ok) return fail(std::move(ok.error()));
    const auto context = a.scu().findAnyPresentationContextID(sopClass, syntax);
    if (context == 0) {
        return fail(ErrorCode::FailedPrecondition, fmt::format("{} accepts no presentation context for {} ({})", describe(node), sopClass.c_str(), syntax.c_str()));
    }
    Uint16 status = 0xFFFF;
    if (auto c = a.scu().sendSTORERequest(context, file.c_str(), nullptr, status); c.bad()) {
        a.abortOnClose();  // a release would wait a whole ACSE timeout on a stuck peer
        return fail(ErrorCode::Unavailable, fmt::format("{}: C-STORE of {} failed: {}", describe(node), file, c.text()));
    }
    const auto high = status >> 12;
    if (status == 0x0000 || status == 0xB000 || status == 0xB006 || status == 0xB007) return StoreResult{status, status != 0};
    if ((status & 0xFF00) == 0xA700) return fail(ErrorCode::Unavailable, fmt::format("{} is out of resources (status 0x{:04X}); try again later", describe(node), status));
    return fail(ErrorCode::InvalidArgument, fmt::format("{} refused {} (status 0x{:04X}{})", describe(node), file, status,
                                                        high == 0xA || high == 0xC ? ": the object or its SOP class" : ""));
}

}  // namespace sonolink::dicom
