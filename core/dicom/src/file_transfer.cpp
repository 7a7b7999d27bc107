// sendFiles() and commitFiles(): see file_transfer.h.
#include "sonolink/dicom/file_transfer.h"

#include <condition_variable>
#include <mutex>
#include <optional>

#include <fmt/format.h>

namespace sonolink::dicom {

SendReport sendFiles(const PacsNode& node, const AssociationSettings& association, const std::vector<std::string>& files, AuditTrail& audit) {
    SendReport report;
    std::vector<ObjectInfo> objects;
    std::vector<std::size_t> slotOf;  // objects[i] is files[slotOf[i]]
    for (const auto& file : files) {
        auto info = inspectObject(file);
        report.files.push_back({file, info ? Result<StoreResult>(fail(ErrorCode::Unavailable, "not sent: the association ended before its turn"))
                                           : Result<StoreResult>(fail(std::move(info.error())))});
        if (!info) continue;
        slotOf.push_back(report.files.size() - 1);
        objects.push_back(std::move(*info));
    }
    // One association for them all; what it did not reach stays "not sent".
    std::vector<TransferAttempt> attempts;
    const auto sent = storeAll(node, objects, association, [&](std::size_t i, const Result<StoreResult>& r) {
        report.files[slotOf[i]].result = r;
        attempts.push_back({objects[i], r ? std::nullopt : std::optional(r.error()), !r || r.error().code() != ErrorCode::InvalidArgument});
    });
    if (!sent) {
        for (std::size_t i = 0; i < objects.size(); ++i) {
            report.files[slotOf[i]].result = fail(Error(sent.error()));
            attempts.push_back({objects[i], sent.error(), true});
        }
    }
    if (auto ok = audit.record(transferEvents(association.callingAeTitle, node, attempts)); !ok) report.auditFailure = ok.error();
    return report;
}

Result<CommitmentReport> commitFiles(const CommitRequest& request, const std::vector<std::string>& files) {
    std::vector<ObjectReference> objects;
    for (const auto& file : files) {
        auto info = inspectObject(file);
        if (!info) return fail(std::move(info.error()));
        objects.push_back({info->sopClassUid, info->sopInstanceUid});
    }
    std::mutex mutex;
    std::condition_variable arrived;
    std::optional<CommitmentReport> report;
    auto listener = CommitmentListener::start(request.listenPort, request.stationAeTitle, [&](const CommitmentReport& r) {
        std::lock_guard lock(mutex);
        if (r.transactionUid != request.transactionUid) return;
        report = r;
        arrived.notify_all();
    });
    if (!listener) return fail(std::move(listener.error()));
    if (auto ok = requestStorageCommitment(request.node, request.association, request.transactionUid, objects); !ok) return fail(std::move(ok.error()));
    std::unique_lock lock(mutex);
    if (!arrived.wait_for(lock, request.wait, [&] { return report.has_value(); })) {
        return fail(ErrorCode::Unavailable,
                    fmt::format("no storage commitment report from {} within {:g} s (is this station's AE title {}, host "
                                "and port {} known to it?)",
                                request.node.aeTitle, std::chrono::duration<double>(request.wait).count(), request.stationAeTitle, request.listenPort));
    }
    return std::move(*report);
}

}  // namespace sonolink::dicom
