#include "sonolink/dicom/store_forwarder.h"

#include <algorithm>
#include <chrono>
#include <set>

#include <fmt/format.h>

#include "sonolink/util/log.h"

namespace sonolink::dicom {

std::int64_t nowMs() { return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count(); }

namespace {

log::Category& logCategory() {
    static auto& category = log::category("dicom");
    return category;
}

// Whether the next attempt can go differently: a PACS that is down, busy, stalled or aborting
// (Unavailable), or one that turned the association away (FailedPrecondition: often a
// configuration being fixed). A PACS that refused the object itself or takes no such object
// (InvalidArgument) will refuse it again; a damaged local copy (DataLoss) stays damaged.
bool worthRetrying(const Error& error) { return error.code() != ErrorCode::InvalidArgument && error.code() != ErrorCode::DataLoss; }

void logQueueError(const Status& status) {
    if (!status) log::error(logCategory(), "DICOM queue: {}", status.error().message());
}

}  // namespace

std::string_view toString(ForwardEvent::Kind kind) {
    using Kind = ForwardEvent::Kind;
    switch (kind) {
        case Kind::Stored: return "stored";
        case Kind::AttemptFailed: return "attempt_failed";
        case Kind::AssociationFailed: return "association_failed";
        case Kind::CommitmentRequested: return "commitment_requested";
        case Kind::CommitmentRequestFailed: return "commitment_request_failed";
        case Kind::CommitmentReported: return "commitment_reported";
        case Kind::NodeGone: return "node_gone";
    }
    return "unknown";
}

StoreForwarder::StoreForwarder(StoreQueue& queue, ForwarderSettings settings, UidGenerator uids, AuditTrail* audit)
    : queue_(queue), settings_(std::move(settings)), uids_(std::move(uids)), audit_(audit) {}

StoreForwarder::~StoreForwarder() { stop(); }

void StoreForwarder::sendDue(const Destination& destination, std::int64_t atMs) {
    auto due = queue_.takeDue(destination.name, atMs, settings_.batchSize);
    if (!due) return logQueueError(fail(std::move(due.error())));
    if (due->empty()) return;
    std::vector<ObjectInfo> objects;
    for (const auto& item : *due) objects.push_back(item.object);
    std::vector<bool> reported(due->size(), false);
    std::vector<std::optional<Error>> failures(due->size());
    const auto opened = storeAll(destination.node, objects, settings_.association, [&](std::size_t i, const Result<StoreResult>& r) {
        reported[i] = true;
        if (!r) failures[i] = r.error();
        const auto& item = (*due)[i];
        if (r) {
            logQueueError(queue_.markStored(item.id, r->status, now()));
            if (r->warning) log::warn(logCategory(), "{} stored item {} with warning status 0x{:04X}", destination.name, item.id, r->status);
            tell({ForwardEvent::Kind::Stored, destination.name, item.id, std::nullopt, false, r->status, {}, 1, 0});
        } else {
            log::warn(logCategory(), "item {} to {}: {}", item.id, destination.name, r.error().message());
            const bool stopped = r.error().code() == ErrorCode::Cancelled;
            if (stopped) logQueueError(queue_.markNotAttempted(item.id));  // stopped: as it was
            else logQueueError(queue_.markFailed(item.id, r.error(), worthRetrying(r.error()), now()));
            tell({ForwardEvent::Kind::AttemptFailed, destination.name, item.id, r.error(), stopped || worthRetrying(r.error()), 0, {}, 1, 0});
        }
    });
    std::vector<std::optional<Error>> outcomes(due->size());
    for (std::size_t i = 0; i < due->size(); ++i) {
        if (reported[i]) continue;
        const auto& item = (*due)[i];
        if (!opened) {
            outcomes[i] = opened.error();
            if (opened.error().code() == ErrorCode::Cancelled) logQueueError(queue_.markNotAttempted(item.id));
            else logQueueError(queue_.markFailed(item.id, opened.error(), worthRetrying(opened.error()), now()));
        } else {
            logQueueError(queue_.markNotAttempted(item.id));  // the association broke before its turn
        }
    }
    if (!opened) {
        log::warn(logCategory(), "{}: {}", destination.name, opened.error().message());
        const auto waiting = static_cast<std::size_t>(std::count(reported.begin(), reported.end(), false));
        const bool retry = opened.error().code() == ErrorCode::Cancelled || worthRetrying(opened.error());
        tell({ForwardEvent::Kind::AssociationFailed, destination.name, {}, opened.error(), retry, 0, {}, waiting, 0});
    }
    auditBatch(destination, *due, reported, outcomes, failures);
}

void StoreForwarder::auditBatch(const Destination& destination, const std::vector<QueueItem>& items, const std::vector<bool>& reported,
                                const std::vector<std::optional<Error>>& unreported, const std::vector<std::optional<Error>>& failures) {
    if (!audit_) return;
    std::vector<TransferAttempt> attempts;
    for (std::size_t i = 0; i < items.size(); ++i) {
        const auto& error = reported[i] ? failures[i] : unreported[i];
        if (!reported[i] && !error) continue;  // not attempted
        attempts.push_back({items[i].object, error, !error || worthRetrying(*error)});
    }
    if (auto ok = audit_->record(transferEvents(settings_.association.callingAeTitle, destination.node, attempts)); !ok) {
        log::error(logCategory(), "{}", ok.error().message());
    }
}

void StoreForwarder::requestCommitments(const Destination& destination, std::int64_t atMs) {
    if (!destination.storageCommitment) return;
    const auto awaiting = queue_.awaitingCommitmentRequest(destination.name, atMs);
    if (awaiting.empty()) return;
    const std::string transactionUid = uids_.next();
    std::vector<std::string> ids;
    std::vector<ObjectReference> objects;
    for (const auto& item : awaiting) {
        ids.push_back(item.id);
        objects.push_back({item.object.sopClassUid, item.object.sopInstanceUid});
    }
    // Recorded before asking, so that a report that beats our own bookkeeping still matches.
    if (auto ok = queue_.markCommitmentRequested(ids, transactionUid, atMs); !ok) return logQueueError(ok);
    if (auto ok = requestStorageCommitment(destination.node, settings_.association, transactionUid, objects); !ok) {
        log::warn(logCategory(), "{}: {}; asking again later", destination.name, ok.error().message());
        logQueueError(queue_.markCommitmentRequestFailed(ids, now()));
        return tell({ForwardEvent::Kind::CommitmentRequestFailed, destination.name, {}, ok.error(), true, 0, transactionUid, ids.size(), 0});
    }
    tell({ForwardEvent::Kind::CommitmentRequested, destination.name, {}, std::nullopt, false, 0, transactionUid, ids.size(), 0});
}

void StoreForwarder::runOnce() {
    std::set<std::string> configured;
    for (const auto& destination : settings_.destinations) configured.insert(destination.name);
    if (auto ended = queue_.failItemsOfUnknownNodes(configured); !ended) {
        logQueueError(fail(std::move(ended.error())));
    } else if (*ended > 0) {
        log::warn(logCategory(), "DICOM queue: {} items are for nodes no longer configured: failed, with the reason", *ended);
        tell({ForwardEvent::Kind::NodeGone, {}, {}, std::nullopt, false, 0, {}, static_cast<std::size_t>(*ended), 0});
    }
    for (const auto& destination : settings_.destinations) {
        sendDue(destination, now());
        requestCommitments(destination, now());
    }
    if (settings_.retentionS > 0) {
        const auto forgotten = queue_.forgetSettledBefore(now() - static_cast<std::int64_t>(settings_.retentionS * 1000));
        if (!forgotten) return logQueueError(fail(std::move(forgotten.error())));
        if (*forgotten > 0) log::info(logCategory(), "DICOM queue: forgot {} items settled over {:g} days ago", *forgotten, settings_.retentionS / 86400);
    }
}

void StoreForwarder::applyReport(const CommitmentReport& report) {
    for (const auto& [uid, reason] : report.failed) log::warn(logCategory(), "{} did not commit {}: {}", report.fromAeTitle, uid, reason);
    logQueueError(queue_.applyCommitment(report.transactionUid, report.committed, report.failed, now()));
    tell({ForwardEvent::Kind::CommitmentReported,
          report.fromAeTitle,
          {},
          std::nullopt,
          false,
          0,
          report.transactionUid,
          report.committed.size(),
          report.failed.size()});
    wake();
}

std::optional<std::int64_t> StoreForwarder::nextDueMs() const {
    std::optional<std::int64_t> next;
    for (const auto& destination : settings_.destinations) {
        if (auto due = queue_.nextDueMs(destination.name)) next = next ? std::min(*next, *due) : *due;
    }
    return next;
}

void StoreForwarder::start() {
    MutexLock lock(mutex_);
    if (worker_.joinable()) return;
    stopping_ = false;
    worker_ = std::thread([this] {
        for (;;) {
            try {
                runOnce();
            } catch (const std::exception& e) {  // a pass that throws is logged; the queue goes on at the next
                log::error(log::category("dicom"), "DICOM queue: a forwarding pass failed: {}", e.what());
            }
            UniqueLock waitLock(mutex_);
            const auto next = nextDueMs();
            const auto waitMs = std::clamp<std::int64_t>(next ? *next - now() : 60'000, 10, 60'000);
            const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(waitMs);
            while (!stopping_ && !woken_) {
                if (wakeUp_.wait_until(waitLock.native(), until) == std::cv_status::timeout) break;
            }
            woken_ = false;
            if (stopping_) return;
        }
    });
}

void StoreForwarder::stop() {
    {
        MutexLock lock(mutex_);
        stopping_ = true;
    }
    wakeUp_.notify_all();
    if (worker_.joinable()) worker_.join();
}

void StoreForwarder::wake() {
    {
        MutexLock lock(mutex_);
        woken_ = true;
    }
    wakeUp_.notify_all();
}

}  // namespace sonolink::dicom
