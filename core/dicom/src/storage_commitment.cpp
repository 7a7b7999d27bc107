#include "sonolink/dicom/storage_commitment.h"

#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcuid.h>
#include <dcmtk/dcmnet/scp.h>
#include <fmt/format.h>

#include "sonolink/util/log.h"

#include <cstring>

#include "association.h"

namespace sonolink::dicom {

Status requestStorageCommitment(const PacsNode& node, const AssociationSettings& settings, const std::string& transactionUid,
                                const std::vector<ObjectReference>& objects) {
    if (objects.empty()) return fail(ErrorCode::InvalidArgument, "a storage commitment request needs at least one object");
    Association a(node, settings);
    if (auto ok = a.open({{UID_StorageCommitmentPushModelSOPClass, uncompressedSyntaxes()}}); !ok) return ok;
    const auto context = a.contextFor(UID_StorageCommitmentPushModelSOPClass, UID_LittleEndianExplicitTransferSyntax);
    if (context == 0) return fail(ErrorCode::FailedPrecondition, fmt::format("{} does not offer Storage Commitment", describe(node)));
    DcmDataset request;
    request.putAndInsertString(DCM_TransactionUID, transactionUid.c_str());
    for (const auto& object : objects) {
        DcmItem* item = nullptr;
        request.findOrCreateSequenceItem(DCM_ReferencedSOPSequence, item, -2);
        item->putAndInsertString(DCM_ReferencedSOPClassUID, object.sopClassUid.c_str());
        item->putAndInsertString(DCM_ReferencedSOPInstanceUID, object.sopInstanceUid.c_str());
    }
    Uint16 status = 0xFFFF;
    a.beginExchange(objects.size() * 128);
    if (auto c = a.scu().sendACTIONRequest(context, UID_StorageCommitmentPushModelSOPInstance, 1, &request, status); c.bad()) {
        a.abortOnClose();
        return fail(a.exchangeError("storage commitment request", c));
    }
    if (status != 0x0000) {
        return fail(ErrorCode::FailedPrecondition, fmt::format("{} refused the storage commitment request (status 0x{:04X})", describe(node), status));
    }
    return {};
}

std::string describeFailureReason(unsigned reason) {
    const char* words = "unknown reason";
    switch (reason) {
        case 0x0110: words = "processing failure"; break;
        case 0x0112: words = "no such object instance"; break;
        case 0x0213: words = "resource limitation"; break;
        case 0x0122: words = "referenced SOP class not supported"; break;
        case 0x0119: words = "class / instance conflict"; break;
        case 0x0131: words = "duplicate transaction UID"; break;
        default: break;
    }
    return fmt::format("failure reason 0x{:04X} ({})", reason, words);
}

namespace {

CommitmentReport parseReport(DcmDataset& data, const std::string& from) {
    CommitmentReport report;
    report.fromAeTitle = from;
    OFString value;
    if (data.findAndGetOFString(DCM_TransactionUID, value).good()) report.transactionUid = value.c_str();
    DcmItem* item = nullptr;
    for (long i = 0; data.findAndGetSequenceItem(DCM_ReferencedSOPSequence, item, i).good(); ++i) {
        if (item->findAndGetOFString(DCM_ReferencedSOPInstanceUID, value).good()) report.committed.emplace_back(value.c_str());
    }
    for (long i = 0; data.findAndGetSequenceItem(DCM_FailedSOPSequence, item, i).good(); ++i) {
        Uint16 reason = 0;
        item->findAndGetUint16(DCM_FailureReason, reason);
        if (item->findAndGetOFString(DCM_ReferencedSOPInstanceUID, value).good()) report.failed.emplace_back(value.c_str(), describeFailureReason(reason));
    }
    return report;
}

}  // namespace

class CommitmentListener::Scp : public DcmSCP {
public:
    explicit Scp(OnReport onReport) : onReport_(std::move(onReport)) {}
    std::atomic<bool> stop{false};

protected:
    OFBool stopAfterConnectionTimeout() override { return stop.load(); }
    OFBool stopAfterCurrentAssociation() override { return stop.load(); }

    OFCondition handleIncomingCommand(T_DIMSE_Message* message, const DcmPresentationContextInfo& info) override {
        if (message->CommandField != DIMSE_N_EVENT_REPORT_RQ) return DcmSCP::handleIncomingCommand(message, info);
        // Our own answer: the stock one leaves out the Affected SOP Class/Instance UIDs, which
        // Orthanc (and PS3.7 for a conformant reply) expects.
        const auto& request = message->msg.NEventReportRQ;
        T_ASC_PresentationContextID context = info.presentationContextID;
        DcmDataset* data = nullptr;
        Uint16 status = STATUS_Success;
        if (request.DataSetType != DIMSE_DATASET_NULL) {
            if (auto c = receiveDIMSEDataset(&context, &data); c.bad()) return c;
        }
        if (data && std::strcmp(request.AffectedSOPClassUID, UID_StorageCommitmentPushModelSOPClass) == 0) {
            onReport_(parseReport(*data, getPeerAETitle().c_str()));
        } else {
            status = STATUS_N_NoSuchSOPClass;
        }
        delete data;
        T_DIMSE_Message response{};
        response.CommandField = DIMSE_N_EVENT_REPORT_RSP;
        auto& r = response.msg.NEventReportRSP;
        r.MessageIDBeingRespondedTo = request.MessageID;
        r.DimseStatus = status;
        r.DataSetType = DIMSE_DATASET_NULL;
        r.EventTypeID = request.EventTypeID;
        r.opts = O_NEVENTREPORT_AFFECTEDSOPCLASSUID | O_NEVENTREPORT_AFFECTEDSOPINSTANCEUID | O_NEVENTREPORT_EVENTTYPEID;
        OFStandard::strlcpy(r.AffectedSOPClassUID, request.AffectedSOPClassUID, sizeof(r.AffectedSOPClassUID));
        OFStandard::strlcpy(r.AffectedSOPInstanceUID, request.AffectedSOPInstanceUID, sizeof(r.AffectedSOPInstanceUID));
        return sendDIMSEMessage(context, &response, nullptr);
    }

private:
    OnReport onReport_;
};

Result<std::unique_ptr<CommitmentListener>> CommitmentListener::start(int port, const std::string& aeTitle, OnReport onReport) {
    setUpDcmtk();
    std::unique_ptr<CommitmentListener> listener(new CommitmentListener());
    listener->scp_ = std::make_unique<Scp>(std::move(onReport));
    auto& scp = *listener->scp_;
    scp.setPort(static_cast<Uint16>(port));
    scp.setAETitle(aeTitle.c_str());
    scp.setRespondWithCalledAETitle(OFTrue);
    scp.setConnectionBlockingMode(DUL_NOBLOCK);  // wakes every second to see whether to stop
    scp.setConnectionTimeout(1);
    scp.setDIMSEBlockingMode(DIMSE_NONBLOCKING);
    scp.setDIMSETimeout(30);
    OFList<OFString> syntaxes;
    for (const auto& s : uncompressedSyntaxes()) syntaxes.push_back(s.c_str());
    for (const char* sopClass : {UID_StorageCommitmentPushModelSOPClass, UID_VerificationSOPClass}) {
        if (auto c = scp.addPresentationContext(sopClass, syntaxes); c.bad()) return fail(ErrorCode::Internal, c.text());
    }
    if (auto c = scp.openListenPort(); c.bad()) {
        return fail(ErrorCode::FailedPrecondition, fmt::format("cannot listen for storage commitment reports on port {}: {}", port, c.text()));
    }
    listener->thread_ = std::thread([&scp] {
        try {
            scp.acceptAssociations();
        } catch (const std::exception& e) {  // no report can arrive any more: said, not a crash
            log::error(log::category("dicom"), "storage commitment listener stopped: {}", e.what());
        }
    });
    return listener;
}

CommitmentListener::~CommitmentListener() {
    if (scp_) scp_->stop = true;
    if (thread_.joinable()) thread_.join();
}

}  // namespace sonolink::dicom
