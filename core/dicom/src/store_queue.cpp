// StoreQueue's items in memory and their changes, each saved in the database as it is made
// (the files on disk: store_queue_disk.cpp; recovery: store_queue_recovery.cpp).
#include "sonolink/dicom/store_queue.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include <fmt/format.h>

#include "sonolink/util/durable_file.h"
#include "sonolink/util/thread_annotations.h"
#include "store_queue_state.h"

namespace sonolink::dicom {
namespace fs = std::filesystem;

std::string_view toString(ItemState state) {
    switch (state) {
        case ItemState::Queued: return "queued";
        case ItemState::Sending: return "sending";
        case ItemState::Sent: return "sent";
        case ItemState::Committed: return "committed";
        case ItemState::Failed: return "failed";
    }
    return "?";
}

double retryDelayS(const RetryPolicy& policy, int attempts, double unit) {
    const double doubled = policy.initialDelayS * std::pow(2.0, std::max(0, attempts - 1));
    const double capped = std::min(policy.maxDelayS, doubled);
    return capped * (1.0 - policy.jitter * std::clamp(unit, 0.0, 1.0));
}

namespace {

bool pending(const QueueItem& i) { return i.state == ItemState::Queued || i.state == ItemState::Sending; }

}  // namespace

Result<std::unique_ptr<StoreQueue>> StoreQueue::open(const std::string& directory, RetryPolicy policy) {
    auto state = std::make_unique<State>();
    state->directory = directory;
    state->policy = policy;
    auto lock = lockQueue(directory);
    if (!lock) return fail(std::move(lock.error()));
    state->folderLock = std::move(*lock);
    MutexLock held(state->mutex);  // no other thread has it yet: the analysis asks, and it costs nothing
    state->random ^= static_cast<std::uint64_t>(wallClockMs()) * 0x9E3779B97F4A7C15ull ^ static_cast<std::uint64_t>(::getpid());
    try {
        if (auto ok = state->load(); !ok) return fail(std::move(ok.error()));
    } catch (const std::exception& e) {
        return fail(ErrorCode::DataLoss, fmt::format("cannot read the DICOM queue at {}: {}", directory, e.what()));
    }
    return std::unique_ptr<StoreQueue>(new StoreQueue(std::move(state)));
}

StoreQueue::StoreQueue(std::unique_ptr<State> state) : state_(std::move(state)) {}

StoreQueue::~StoreQueue() = default;

const std::string& StoreQueue::directory() const { return state_->directory; }

Result<QueueItem> StoreQueue::enqueue(const std::string& file, const std::string& node, bool commitmentRequired) {
    auto info = inspectObject(file);
    if (!info) return fail(std::move(info.error()));
    auto pendingTwin = [&]() REQUIRES(state_->mutex) -> std::optional<QueueItem> {
        for (const auto& [id, item] : state_->items) {
            if (item.node == node && item.object.sopInstanceUid == info->sopInstanceUid && pending(item)) return item;
        }
        return std::nullopt;
    };
    QueueItem item;
    {
        MutexLock lock(state_->mutex);
        if (auto twin = pendingTwin()) return *twin;
        item.id = fmt::format("{:06}", state_->nextId++);  // reserved: the copy runs without the lock
    }
    item.node = node;
    item.object = *info;
    item.object.file = state_->objectPath(item.id);
    item.sourceFile = file;
    item.enqueuedAtMs = wallClockMs();
    item.nextAttemptAtMs = item.enqueuedAtMs;
    item.commitmentRequired = commitmentRequired;
    // A large cine takes a while to copy and sync; readers of items() do not wait for it. Its
    // node first: a copy never lies there without the record of where it goes.
    if (auto ok = writeNodeFile(item.object.file, node, commitmentRequired); !ok) return fail(std::move(ok.error()));
    if (auto ok = copyFileDurably(file, item.object.file); !ok) return fail(std::move(ok.error()));
    MutexLock lock(state_->mutex);
    if (auto twin = pendingTwin()) {  // the same object was queued meanwhile
        discardCopy(item.object.file);
        return *twin;
    }
    if (auto ok = state_->database->put(item, Sync::Durable); !ok) {
        discardCopy(item.object.file);
        return fail(std::move(ok.error()));
    }
    state_->items[item.id] = item;
    ++state_->version;
    return item;
}

std::vector<QueueItem> StoreQueue::items() const {
    MutexLock lock(state_->mutex);
    std::vector<QueueItem> out;
    out.reserve(state_->items.size());
    for (const auto& [id, item] : state_->items) out.push_back(item);
    return out;
}

std::optional<QueueItem> StoreQueue::item(const std::string& id) const {
    MutexLock lock(state_->mutex);
    auto it = state_->items.find(id);
    if (it == state_->items.end()) return std::nullopt;
    return it->second;
}

Result<std::vector<QueueItem>> StoreQueue::takeDue(const std::string& node, std::int64_t nowMs, std::size_t limit) {
    MutexLock lock(state_->mutex);
    std::vector<QueueItem> due;
    for (auto& [id, item] : state_->items) {
        if (due.size() >= limit) break;
        if (item.node != node || item.state != ItemState::Queued || item.nextAttemptAtMs > nowMs) continue;
        item.state = ItemState::Sending;  // in memory only: on disk it stays queued
        ++state_->version;
        due.push_back(item);
    }
    return due;
}

Status StoreQueue::markStored(const std::string& id, std::uint16_t status, std::int64_t nowMs) {
    MutexLock lock(state_->mutex);
    return state_->update(
        id,
        [&](QueueItem& i) {
            i.state = ItemState::Sent;
            ++i.attempts;
            i.lastStatus = status;
            i.lastError.clear();
            i.sentAtMs = nowMs;
        },
        Sync::AtomicOnly);
}

Status StoreQueue::markFailed(const std::string& id, const Error& error, bool retryable, std::int64_t nowMs) {
    MutexLock lock(state_->mutex);
    const double unit = state_->nextUnit();
    return state_->update(
        id,
        [&](QueueItem& i) {
            ++i.attempts;
            i.lastError = error.message();
            i.state = retryable ? ItemState::Queued : ItemState::Failed;
            i.nextAttemptAtMs = nowMs + static_cast<std::int64_t>(1000.0 * retryDelayS(state_->policy, i.attempts, unit));
        },
        retryable ? Sync::AtomicOnly : Sync::Durable);
}

Status StoreQueue::markNotAttempted(const std::string& id) {
    MutexLock lock(state_->mutex);
    auto item = state_->find(id);
    if (!item) return fail(std::move(item.error()));
    (*item)->state = ItemState::Queued;  // as it is on disk
    ++state_->version;
    return {};
}

std::vector<QueueItem> StoreQueue::awaitingCommitmentRequest(const std::string& node, std::int64_t nowMs) const {
    MutexLock lock(state_->mutex);
    const auto timeoutMs = static_cast<std::int64_t>(1000.0 * state_->policy.commitmentTimeoutS);
    std::vector<QueueItem> out;
    for (const auto& [id, item] : state_->items) {
        if (item.node != node || item.state != ItemState::Sent || !item.commitmentRequired) continue;
        if (item.transactionUid.empty() || nowMs - item.commitmentRequestedAtMs >= timeoutMs) out.push_back(item);
    }
    return out;
}

Status StoreQueue::markCommitmentRequested(const std::vector<std::string>& ids, const std::string& transactionUid, std::int64_t nowMs) {
    MutexLock lock(state_->mutex);
    return state_->updateAll(
        ids,
        [&](QueueItem& i) {
            i.transactionUid = transactionUid;
            i.commitmentRequestedAtMs = nowMs;
        },
        Sync::AtomicOnly);  // lost to a power cut: the request is made again
}

Status StoreQueue::markCommitmentRequestFailed(const std::vector<std::string>& ids, std::int64_t nowMs) {
    MutexLock lock(state_->mutex);
    const auto timeoutMs = static_cast<std::int64_t>(1000.0 * state_->policy.commitmentTimeoutS);
    const auto delayMs = static_cast<std::int64_t>(1000.0 * retryDelayS(state_->policy, 1, state_->nextUnit()));
    // Due when now - requestedAt >= timeout, i.e. delayMs from now.
    return state_->updateAll(
        ids, [&](QueueItem& i) { i.commitmentRequestedAtMs = nowMs - timeoutMs + std::min(delayMs, timeoutMs); }, Sync::AtomicOnly);
}

Status StoreQueue::applyCommitment(const std::string& transactionUid, const std::vector<std::string>& committedUids,
                                   const std::vector<std::pair<std::string, std::string>>& failedUids, std::int64_t nowMs) {
    MutexLock lock(state_->mutex);
    std::vector<std::string> ids;
    for (const auto& [id, item] : state_->items) {
        if (item.transactionUid == transactionUid && item.state == ItemState::Sent) ids.push_back(id);
    }
    auto committed = [&](const QueueItem& i) { return std::find(committedUids.begin(), committedUids.end(), i.object.sopInstanceUid) != committedUids.end(); };
    auto refusal = [&](const QueueItem& i) {
        return std::find_if(failedUids.begin(), failedUids.end(), [&](const auto& f) { return f.first == i.object.sopInstanceUid; });
    };
    std::erase_if(ids, [&](const std::string& id) REQUIRES(state_->mutex) {  // not in this report
        const auto& i = state_->items.at(id);
        return !committed(i) && refusal(i) == failedUids.end();
    });
    // The outcome on disk (one durable transaction) before any local copy goes.
    auto ok = state_->updateAll(
        ids,
        [&](QueueItem& i) {
            if (committed(i)) {
                i.state = ItemState::Committed;
                i.committedAtMs = nowMs;
            } else {
                i.state = ItemState::Failed;
                i.lastError = fmt::format("the PACS did not commit this object: {}", refusal(i)->second);
            }
        },
        Sync::Durable);
    if (!ok) return ok;
    for (const auto& id : ids) {
        const auto& i = state_->items.at(id);
        if (i.state == ItemState::Committed) discardCopy(i.object.file);  // the database says committed: a leftover is only disk space
    }
    return {};
}

Status StoreQueue::withdraw(const std::string& id) {
    MutexLock lock(state_->mutex);
    auto item = state_->find(id);
    if (!item) return fail(std::move(item.error()));
    if ((*item)->state != ItemState::Queued) {
        return fail(ErrorCode::FailedPrecondition, fmt::format("item {} is {}: only a queued item can be withdrawn", id, toString((*item)->state)));
    }
    return state_->update(id, [](QueueItem& i) {
        i.state = ItemState::Failed;
        i.lastError = "withdrawn by the user";
    });
}

Status StoreQueue::retry(const std::string& id) {
    MutexLock lock(state_->mutex);
    auto item = state_->find(id);
    if (!item) return fail(std::move(item.error()));
    if ((*item)->state != ItemState::Failed) {
        return fail(ErrorCode::FailedPrecondition, fmt::format("item {} is {}, not failed", id, toString((*item)->state)));
    }
    return state_->update(id, [](QueueItem& i) {
        i.state = ItemState::Queued;
        i.attempts = 0;
        i.nextAttemptAtMs = 0;
        i.transactionUid.clear();
        i.commitmentRequestedAtMs = 0;
    });
}

Result<std::size_t> StoreQueue::forgetSettledBefore(std::int64_t cutoffMs) {
    MutexLock lock(state_->mutex);
    std::vector<std::string> ids;
    for (const auto& [id, i] : state_->items) {
        const bool committed = i.state == ItemState::Committed && i.committedAtMs < cutoffMs;
        const bool sentForGood = i.state == ItemState::Sent && !i.commitmentRequired && i.sentAtMs < cutoffMs;
        if (committed || sentForGood) ids.push_back(id);
    }
    if (ids.empty()) return std::size_t{0};
    // The ids go on from the highest ever given, also when the highest are forgotten.
    if (auto ok = writeFileDurably(state_->nextIdPath(), std::to_string(state_->nextId)); !ok) return fail(std::move(ok.error()));
    // The copies renamed first: a crash from here on leaves .forgotten copies, and the next open
    // finishes the forget (an unaccounted copy would be taken for a database that lost records).
    std::error_code ignored;  // a committed item's copy is already gone
    for (const auto& id : ids) fs::rename(state_->objectPath(id), state_->objectPath(id) + ".forgotten", ignored);
    if (auto ok = state_->database->remove(ids); !ok) return fail(std::move(ok.error()));
    for (const auto& id : ids) {
        discardCopy(state_->objectPath(id), state_->objectPath(id) + ".forgotten");
        state_->items.erase(id);
    }
    ++state_->version;
    return ids.size();
}

Result<std::size_t> StoreQueue::failItemsOfUnknownNodes(const std::set<std::string>& nodes) {
    MutexLock lock(state_->mutex);
    std::vector<std::string> ids;
    for (const auto& [id, i] : state_->items) {
        const bool waiting = i.state == ItemState::Queued || (i.state == ItemState::Sent && i.commitmentRequired);
        if (waiting && !nodes.contains(i.node)) ids.push_back(id);
    }
    if (ids.empty()) return std::size_t{0};
    auto ok = state_->updateAll(ids, [](QueueItem& i) {
        i.lastError = fmt::format(
            "node '{}' is no longer configured (dicom.nodes): {}; add the node back and retry, or queue the object "
            "for another node",
            i.node, i.state == ItemState::Sent ? "its storage commitment cannot be asked for" : "not sent");
        i.state = ItemState::Failed;
    });
    if (!ok) return fail(std::move(ok.error()));
    return ids.size();
}

std::optional<std::int64_t> StoreQueue::nextDueMs(const std::string& node) const {
    MutexLock lock(state_->mutex);
    const auto timeoutMs = static_cast<std::int64_t>(1000.0 * state_->policy.commitmentTimeoutS);
    std::optional<std::int64_t> next;
    auto consider = [&](std::int64_t t) { next = next ? std::min(*next, t) : t; };
    for (const auto& [id, item] : state_->items) {
        if (item.node != node) continue;
        if (item.state == ItemState::Queued) consider(item.nextAttemptAtMs);
        if (item.state == ItemState::Sent && item.commitmentRequired) {
            consider(item.transactionUid.empty() ? 0 : item.commitmentRequestedAtMs + timeoutMs);
        }
    }
    return next;
}

std::uint64_t StoreQueue::version() const noexcept { return state_->version.load(); }

bool StoreQueue::settled() const {
    MutexLock lock(state_->mutex);
    return std::none_of(state_->items.begin(), state_->items.end(), [](const auto& entry) {
        const auto& i = entry.second;
        return pending(i) || (i.state == ItemState::Sent && i.commitmentRequired);
    });
}

}  // namespace sonolink::dicom
