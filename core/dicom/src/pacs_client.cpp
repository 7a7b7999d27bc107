#include "sonolink/dicom/pacs_client.h"

#include <dcmtk/dcmdata/dcfilefo.h>
#include <dcmtk/dcmdata/dcuid.h>
#include <fmt/format.h>

#include <filesystem>
#include <memory>
#include <set>

#include "sonolink/util/serial_executor.h"

#include "association.h"
#include "codecs.h"

namespace sonolink::dicom {
namespace {

// The C-STORE status as success (with or without a warning) or a classified failure.
Result<StoreResult> classifyStoreStatus(const PacsNode& node, const std::string& file, Uint16 status) {
    if (status == 0x0000 || status == 0xB000 || status == 0xB006 || status == 0xB007) return StoreResult{status, status != 0};
    if ((status & 0xFF00) == 0xA700) {
        return fail(ErrorCode::Unavailable, fmt::format("{} is out of resources (status 0x{:04X}); try again later", describe(node), status));
    }
    const auto high = status >> 12;
    return fail(ErrorCode::InvalidArgument, fmt::format("{} refused {} (status 0x{:04X}{})", describe(node), file, status,
                                                        high == 0xA || high == 0xC ? ": the object or its SOP class" : ""));
}

// One context per (SOP class, syntax): the file's own syntax first, then uncompressed.
std::vector<PresentationContext> contextsFor(const std::vector<ObjectInfo>& objects) {
    std::set<std::pair<std::string, std::string>> seen;
    std::vector<PresentationContext> contexts;
    for (const auto& object : objects) {
        if (!seen.insert({object.sopClassUid, object.transferSyntaxUid}).second) continue;
        PresentationContext context{object.sopClassUid, {object.transferSyntaxUid}};
        for (const auto& plain : uncompressedSyntaxes()) {
            if (plain != object.transferSyntaxUid && seen.insert({object.sopClassUid, plain}).second) context.transferSyntaxes.push_back(plain);
        }
        contexts.push_back(std::move(context));
    }
    return contexts;
}

// One object read whole from its file, as storescu does before sending it: a damaged local
// file is our problem (DataLoss, no retry), never taken for a failing network.
struct LocalObject {
    std::unique_ptr<DcmFileFormat> file = std::make_unique<DcmFileFormat>();
    OFCondition read;
    std::size_t bytes = 0;
};

LocalObject readLocal(const std::string& path) {
    LocalObject local;
    local.read = local.file->loadFile(path.c_str());
    std::error_code ec;
    local.bytes = static_cast<std::size_t>(std::filesystem::file_size(path, ec));
    return local;
}

}  // namespace

Status echo(const PacsNode& node, const AssociationSettings& settings) {
    Association a(node, settings);
    if (auto ok = a.open({{UID_VerificationSOPClass, uncompressedSyntaxes()}}); !ok) return ok;
    a.beginExchange();
    if (auto c = a.scu().sendECHORequest(0); c.bad()) {
        a.abortOnClose();
        return fail(a.exchangeError("C-ECHO", c));
    }
    return {};
}

std::string_view toString(EchoFailure failure) {
    switch (failure) {
        case EchoFailure::NothingListening: return "nothing listening";
        case EchoFailure::Rejected: return "rejected";
        case EchoFailure::Timeout: return "timeout";
        case EchoFailure::Tls: return "TLS";
        case EchoFailure::Aborted: return "aborted";
        case EchoFailure::Other: break;
    }
    return "other";
}

EchoFailure classifyEchoFailure(const Error& error) {
    const auto& text = error.message();
    const auto has = [&text](std::string_view what) { return text.find(what) != std::string::npos; };
    if (has("TLS") || has("SSL") || has("certificate") || has("private key")) return EchoFailure::Tls;
    if (has("Rejected")) return EchoFailure::Rejected;
    if (has("Connection refused") || has("No route to host") || has("Network is unreachable")) return EchoFailure::NothingListening;
    if (error.code() == ErrorCode::DeadlineExceeded || has("in time") || has("timeout") || has("Timeout") || has("timed out")) {
        return EchoFailure::Timeout;
    }
    if (has("aborted")) return EchoFailure::Aborted;  // the peer dropped the association
    return EchoFailure::Other;
}

Result<ObjectInfo> inspectObject(const std::string& file) {
    setUpDcmtk();
    DcmFileFormat object;
    // The header up to the pixel data: the meta header, the patient and the study.
    if (auto c = object.loadFileUntilTag(file.c_str(), EXS_Unknown, EGL_noChange, DCM_MaxReadLength, ERM_autoDetect, DCM_PixelData); c.bad()) {
        return fail(ErrorCode::InvalidArgument, fmt::format("cannot read {}: {}", file, c.text()));
    }
    ObjectInfo info{file, {}, {}, {}, {}, {}, {}};
    auto text = [](DcmItem* item, const DcmTagKey& tag) {
        OFString value;
        return item->findAndGetOFStringArray(tag, value).good() ? std::string(value.c_str()) : std::string();
    };
    auto* meta = object.getMetaInfo();
    info.sopClassUid = text(meta, DCM_MediaStorageSOPClassUID);
    info.sopInstanceUid = text(meta, DCM_MediaStorageSOPInstanceUID);
    info.transferSyntaxUid = text(meta, DCM_TransferSyntaxUID);
    if (info.sopClassUid.empty() || info.sopInstanceUid.empty() || info.transferSyntaxUid.empty()) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("{} is not a DICOM file with a meta header naming its SOP class, instance and transfer syntax", file));
    }
    auto* dataset = object.getDataset();
    dataset->convertToUTF8();  // names as UTF-8 whatever the file's character set
    info.studyInstanceUid = text(dataset, DCM_StudyInstanceUID);
    info.patientId = text(dataset, DCM_PatientID);
    info.patientName = text(dataset, DCM_PatientName);
    return info;
}

// A helper thread reads the next object and records the last one's outcome while the peer
// stores the current one: the peer's work is nearly all of each exchange, so doing them in turn
// would add the sender's own to every object's time.
Status storeAll(const PacsNode& node, const std::vector<ObjectInfo>& objects, const AssociationSettings& settings, const StoreReport& report) {
    if (objects.empty()) return {};
    registerCodecs();
    Association a(node, settings);
    if (auto ok = a.open(contextsFor(objects)); !ok) return ok;
    SerialExecutor helper("dicom-send");  // declared after the association: drained before it closes
    auto reportLater = [&](std::size_t i, Result<StoreResult> r) { helper.submit([&report, i, r = std::move(r)] { report(i, r); }); };
    auto readAhead = [&](std::size_t i) { return helper.submit([&objects, i] { return readLocal(objects[i].file); }); };
    std::future<LocalObject> next = readAhead(0);
    for (std::size_t i = 0; i < objects.size(); ++i) {
        const auto& object = objects[i];
        LocalObject local = next.get();
        if (i + 1 < objects.size()) next = readAhead(i + 1);
        const auto context = a.contextFor(object.sopClassUid, object.transferSyntaxUid);
        if (context == 0) {  // it will not take this object: asking again cannot help
            reportLater(i, fail(ErrorCode::InvalidArgument, fmt::format("{} accepts no presentation context for {} ({}): it does not take "
                                                                        "this kind of object",
                                                                        describe(node), object.sopClassUid, object.transferSyntaxUid)));
            continue;
        }
        if (local.read.bad()) {
            reportLater(i, fail(ErrorCode::DataLoss, fmt::format("the local file {} is damaged: {}", object.file, local.read.text())));
            continue;
        }
        Uint16 status = 0xFFFF;
        a.beginExchange(local.bytes);
        if (auto c = a.scu().sendSTORERequest(context, "", local.file->getDataset(), status); c.bad()) {
            a.abortOnClose();  // a release would wait a whole ACSE timeout on a stuck peer
            reportLater(i, fail(a.exchangeError("C-STORE of " + object.file, c)));
            return {};
        }
        reportLater(i, classifyStoreStatus(node, object.file, status));
    }
    return {};
}

Result<StoreResult> store(const PacsNode& node, const std::string& file, const AssociationSettings& settings) {
    auto info = inspectObject(file);
    if (!info) return fail(std::move(info.error()));
    Result<StoreResult> result = fail(ErrorCode::Internal, "no C-STORE was attempted");
    if (auto ok = storeAll(node, {*info}, settings, [&](std::size_t, const Result<StoreResult>& r) { result = r; }); !ok) return fail(std::move(ok.error()));
    return result;
}

}  // namespace sonolink::dicom
