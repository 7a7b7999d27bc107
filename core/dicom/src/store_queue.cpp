#include "sonolink/dicom/store_queue.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <filesystem>
#include <map>
#include <mutex>

#include <fmt/format.h>

#include "durable_file.h"
#include "queue_journal.h"
#include "sonolink/util/log.h"

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

std::int64_t wallClockMs() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

bool pending(const QueueItem& i) { return i.state == ItemState::Queued || i.state == ItemState::Sending; }

}  // namespace

std::string journalPath(const std::string& directory) { return directory + "/journal.jsonl"; }

Result<std::vector<QueueItem>> readQueue(const std::string& directory) {
    if (!fs::is_directory(directory + "/objects")) return fail(ErrorCode::NotFound, fmt::format("no DICOM queue at {}", directory));
    auto items = QueueJournal::read(journalPath(directory));
    if (!items) return fail(std::move(items.error()));
    std::vector<QueueItem> out;
    for (auto& [id, item] : *items) out.push_back(std::move(item));
    return out;
}

struct StoreQueue::State {
    std::string directory;
    RetryPolicy policy;
    int lockFd = -1;
    mutable std::mutex mutex;
    std::map<std::string, QueueItem> items;  // by id: enqueue order
    std::uint64_t nextId = 1;
    std::uint64_t random = 0x9E3779B97F4A7C15ull;

    std::optional<QueueJournal> journal;
    std::atomic<std::uint64_t> version{0};  // bumped by every change, in memory or on disk
    std::string objectPath(const std::string& id) const { return directory + "/objects/" + id + ".dcm"; }
    std::string nextIdPath() const { return directory + "/next_id"; }
    // Appends item's line (item must be in items already: a compaction writes items). A failed
    // compaction is no failed save: the line is in the journal, and the next append tries again.
    Status save(const QueueItem& item, Sync sync = Sync::Durable) {
        if (auto ok = journal->append(item, sync); !ok) return ok;
        ++version;
        if (journal->appended() > 1000 + 4 * items.size()) {
            if (auto compacted = journal->compact(items); !compacted) {
                log::warn(log::category("dicom"), "DICOM queue: cannot compact the journal: {}", compacted.error().message());
            }
        }
        return {};
    }
    double nextUnit() {  // xorshift64*: the jitter draw
        random ^= random >> 12;
        random ^= random << 25;
        random ^= random >> 27;
        return static_cast<double>((random * 0x2545F4914F6CDD1Dull) >> 11) / 9007199254740992.0;
    }
    Result<QueueItem*> find(const std::string& id) {
        auto it = items.find(id);
        if (it == items.end()) return fail(ErrorCode::NotFound, fmt::format("no item {} in the queue at {}", id, directory));
        return &it->second;
    }
    // Saves the changed item; on failure the in-memory copy is restored, so memory and disk agree.
    // Sync::AtomicOnly where losing the change to a power cut only repeats work (a resend with
    // the same UID, an attempt counted again); durable where it would lose or misstate data.
    template <typename Change>
    Status update(const std::string& id, Change change, Sync sync = Sync::Durable) {
        auto item = find(id);
        if (!item) return fail(std::move(item.error()));
        const QueueItem before = **item;
        change(**item);
        if (auto ok = save(**item, sync); !ok) {
            **item = before;
            return ok;
        }
        return {};
    }
    Status load();
};

Status StoreQueue::State::load() {
    std::map<std::string, bool> objectFiles;
    for (const auto& entry : fs::directory_iterator(directory + "/objects")) {
        const auto name = entry.path().filename().string();
        if (name.ends_with(".tmp")) fs::remove(entry.path());  // an interrupted copy
        else objectFiles[entry.path().stem().string()] = true;
    }
    auto read = QueueJournal::read(journalPath(directory));
    if (!read) return fail(std::move(read.error()));
    items = std::move(*read);
    if (auto text = readWholeFile(nextIdPath()); text) {
        try {
            nextId = std::stoull(*text);
        } catch (const std::exception&) {
            return fail(ErrorCode::DataLoss, fmt::format("{}: not an item id: '{}'", nextIdPath(), *text));
        }
    } else if (text.error().code() != ErrorCode::NotFound) {
        return fail(std::move(text.error()));
    }
    for (auto& [id, item] : items) {
        nextId = std::max<std::uint64_t>(nextId, std::stoull(id) + 1);
        if (item.state != ItemState::Committed && item.state != ItemState::Failed && !objectFiles.contains(id)) {
            item.state = ItemState::Failed;
            item.lastError = fmt::format("the queue's copy {} is missing", item.object.file);
        }
        objectFiles.erase(id);
    }
    for (const auto& [orphan, unused] : objectFiles) fs::remove(objectPath(orphan));  // enqueue cut short
    auto fresh = QueueJournal::create(journalPath(directory), items);  // one line per item, no torn tail
    if (!fresh) return fail(std::move(fresh.error()));
    journal.emplace(std::move(*fresh));
    return {};
}

Result<std::unique_ptr<StoreQueue>> StoreQueue::open(const std::string& directory, RetryPolicy policy) {
    auto state = std::make_unique<State>();
    state->directory = directory;
    state->policy = policy;
    std::error_code ec;
    fs::create_directories(directory + "/objects", ec);
    if (ec) return fail(ErrorCode::FailedPrecondition, fmt::format("cannot create the DICOM queue at {}: {}", directory, ec.message()));
    const std::string lockPath = directory + "/lock";
    state->lockFd = ::open(lockPath.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (state->lockFd < 0) return fail(ErrorCode::FailedPrecondition, fmt::format("cannot open {}: {}", lockPath, std::strerror(errno)));
    if (::flock(state->lockFd, LOCK_EX | LOCK_NB) != 0) {
        ::close(state->lockFd);
        return fail(ErrorCode::FailedPrecondition, fmt::format("the DICOM queue at {} is in use by another process", directory));
    }
    state->random ^= static_cast<std::uint64_t>(wallClockMs()) * 0x9E3779B97F4A7C15ull ^ static_cast<std::uint64_t>(::getpid());
    try {
        if (auto ok = state->load(); !ok) {
            ::close(state->lockFd);
            return fail(std::move(ok.error()));
        }
    } catch (const std::exception& e) {
        ::close(state->lockFd);
        return fail(ErrorCode::DataLoss, fmt::format("cannot read the DICOM queue at {}: {}", directory, e.what()));
    }
    return std::unique_ptr<StoreQueue>(new StoreQueue(std::move(state)));
}

StoreQueue::StoreQueue(std::unique_ptr<State> state) : state_(std::move(state)) {}

StoreQueue::~StoreQueue() {
    if (state_ && state_->lockFd >= 0) ::close(state_->lockFd);
}

const std::string& StoreQueue::directory() const { return state_->directory; }

Result<QueueItem> StoreQueue::enqueue(const std::string& file, const std::string& node, bool commitmentRequired) {
    auto info = inspectObject(file);
    if (!info) return fail(std::move(info.error()));
    auto pendingTwin = [&]() -> std::optional<QueueItem> {
        for (const auto& [id, item] : state_->items) {
            if (item.node == node && item.object.sopInstanceUid == info->sopInstanceUid && pending(item)) return item;
        }
        return std::nullopt;
    };
    QueueItem item;
    {
        std::lock_guard lock(state_->mutex);
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
    // A large cine takes a while to copy and sync; readers of items() do not wait for it.
    if (auto ok = copyFileDurably(file, item.object.file); !ok) return fail(std::move(ok.error()));
    std::lock_guard lock(state_->mutex);
    std::error_code ignored;  // a copy that cannot be removed is an orphan the next open cleans up
    if (auto twin = pendingTwin()) {  // the same object was queued meanwhile
        fs::remove(item.object.file, ignored);
        return *twin;
    }
    // In the map before its line is appended: an append that compacts the journal writes it too.
    state_->items[item.id] = item;
    if (auto ok = state_->save(item); !ok) {
        state_->items.erase(item.id);
        fs::remove(item.object.file, ignored);
        return fail(std::move(ok.error()));
    }
    return item;
}

std::vector<QueueItem> StoreQueue::items() const {
    std::lock_guard lock(state_->mutex);
    std::vector<QueueItem> out;
    out.reserve(state_->items.size());
    for (const auto& [id, item] : state_->items) out.push_back(item);
    return out;
}

std::optional<QueueItem> StoreQueue::item(const std::string& id) const {
    std::lock_guard lock(state_->mutex);
    auto it = state_->items.find(id);
    if (it == state_->items.end()) return std::nullopt;
    return it->second;
}

Result<std::vector<QueueItem>> StoreQueue::takeDue(const std::string& node, std::int64_t nowMs, std::size_t limit) {
    std::lock_guard lock(state_->mutex);
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
    std::lock_guard lock(state_->mutex);
    return state_->update(id, [&](QueueItem& i) {
        i.state = ItemState::Sent;
        ++i.attempts;
        i.lastStatus = status;
        i.lastError.clear();
        i.sentAtMs = nowMs;
    }, Sync::AtomicOnly);
}

Status StoreQueue::markFailed(const std::string& id, const Error& error, bool retryable, std::int64_t nowMs) {
    std::lock_guard lock(state_->mutex);
    const double unit = state_->nextUnit();
    return state_->update(id, [&](QueueItem& i) {
        ++i.attempts;
        i.lastError = error.message();
        i.state = retryable ? ItemState::Queued : ItemState::Failed;
        i.nextAttemptAtMs = nowMs + static_cast<std::int64_t>(1000.0 * retryDelayS(state_->policy, i.attempts, unit));
    }, retryable ? Sync::AtomicOnly : Sync::Durable);
}

Status StoreQueue::markNotAttempted(const std::string& id) {
    std::lock_guard lock(state_->mutex);
    auto item = state_->find(id);
    if (!item) return fail(std::move(item.error()));
    (*item)->state = ItemState::Queued;  // as it is on disk
    ++state_->version;
    return {};
}

std::vector<QueueItem> StoreQueue::awaitingCommitmentRequest(const std::string& node, std::int64_t nowMs) const {
    std::lock_guard lock(state_->mutex);
    const auto timeoutMs = static_cast<std::int64_t>(1000.0 * state_->policy.commitmentTimeoutS);
    std::vector<QueueItem> out;
    for (const auto& [id, item] : state_->items) {
        if (item.node != node || item.state != ItemState::Sent || !item.commitmentRequired) continue;
        if (item.transactionUid.empty() || nowMs - item.commitmentRequestedAtMs >= timeoutMs) out.push_back(item);
    }
    return out;
}

Status StoreQueue::markCommitmentRequested(const std::vector<std::string>& ids, const std::string& transactionUid, std::int64_t nowMs) {
    std::lock_guard lock(state_->mutex);
    for (const auto& id : ids) {
        auto ok = state_->update(id, [&](QueueItem& i) {
            i.transactionUid = transactionUid;
            i.commitmentRequestedAtMs = nowMs;
        }, Sync::AtomicOnly);  // lost to a power cut: the request is made again
        if (!ok) return ok;
    }
    return {};
}

Status StoreQueue::markCommitmentRequestFailed(const std::vector<std::string>& ids, std::int64_t nowMs) {
    std::lock_guard lock(state_->mutex);
    const auto timeoutMs = static_cast<std::int64_t>(1000.0 * state_->policy.commitmentTimeoutS);
    const auto delayMs = static_cast<std::int64_t>(1000.0 * retryDelayS(state_->policy, 1, state_->nextUnit()));
    for (const auto& id : ids) {
        // Due when now - requestedAt >= timeout, i.e. delayMs from now.
        auto ok = state_->update(id, [&](QueueItem& i) { i.commitmentRequestedAtMs = nowMs - timeoutMs + std::min(delayMs, timeoutMs); },
                                 Sync::AtomicOnly);
        if (!ok) return ok;
    }
    return {};
}

Status StoreQueue::applyCommitment(const std::string& transactionUid, const std::vector<std::string>& committedUids,
                                   const std::vector<std::pair<std::string, std::string>>& failedUids, std::int64_t nowMs) {
    std::lock_guard lock(state_->mutex);
    std::vector<std::string> committedCopies;
    for (auto& [id, item] : state_->items) {
        if (item.transactionUid != transactionUid || item.state != ItemState::Sent) continue;
        const auto& uid = item.object.sopInstanceUid;
        const auto failed = std::find_if(failedUids.begin(), failedUids.end(), [&](const auto& f) { return f.first == uid; });
        const bool committed = std::find(committedUids.begin(), committedUids.end(), uid) != committedUids.end();
        if (!committed && failed == failedUids.end()) continue;  // not in this report
        auto ok = state_->update(id, [&](QueueItem& i) {
            if (committed) {
                i.state = ItemState::Committed;
                i.committedAtMs = nowMs;
            } else {
                i.state = ItemState::Failed;
                i.lastError = fmt::format("the PACS did not commit this object: {}", failed->second);
            }
        }, Sync::AtomicOnly);
        if (!ok) return ok;
        if (committed) committedCopies.push_back(item.object.file);
    }
    // The outcome on disk before any local copy goes.
    if (auto ok = state_->journal->sync(); !ok) return ok;
    for (const auto& file : committedCopies) {
        std::error_code ignored;  // the journal says committed; a leftover copy is only disk space
        fs::remove(file, ignored);
    }
    return {};
}

Status StoreQueue::withdraw(const std::string& id) {
    std::lock_guard lock(state_->mutex);
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
    std::lock_guard lock(state_->mutex);
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
    std::lock_guard lock(state_->mutex);
    std::vector<std::string> ids;
    for (const auto& [id, i] : state_->items) {
        const bool committed = i.state == ItemState::Committed && i.committedAtMs < cutoffMs;
        const bool sentForGood = i.state == ItemState::Sent && !i.commitmentRequired && i.sentAtMs < cutoffMs;
        if (committed || sentForGood) ids.push_back(id);
    }
    if (ids.empty()) return std::size_t{0};
    // The ids go on from the highest ever given, also when the highest are forgotten.
    if (auto ok = writeFileDurably(state_->nextIdPath(), std::to_string(state_->nextId)); !ok) return fail(std::move(ok.error()));
    auto remaining = state_->items;
    for (const auto& id : ids) remaining.erase(id);
    if (auto ok = state_->journal->compact(remaining); !ok) return fail(std::move(ok.error()));
    for (const auto& id : ids) {
        std::error_code ignored;  // a committed item's copy is already gone
        fs::remove(state_->objectPath(id), ignored);
    }
    state_->items = std::move(remaining);
    ++state_->version;
    return ids.size();
}

std::optional<std::int64_t> StoreQueue::nextDueMs(const std::string& node) const {
    std::lock_guard lock(state_->mutex);
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
    std::lock_guard lock(state_->mutex);
    return std::none_of(state_->items.begin(), state_->items.end(), [](const auto& entry) {
        const auto& i = entry.second;
        return pending(i) || (i.state == ItemState::Sent && i.commitmentRequired);
    });
}

}  // namespace sonolink::dicom
