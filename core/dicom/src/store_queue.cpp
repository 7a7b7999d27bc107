#include "sonolink/dicom/store_queue.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <mutex>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "durable_file.h"

namespace sonolink::dicom {
namespace fs = std::filesystem;
using nlohmann::json;

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

std::optional<ItemState> stateFrom(std::string_view text) {
    for (auto s : {ItemState::Queued, ItemState::Sending, ItemState::Sent, ItemState::Committed, ItemState::Failed}) {
        if (toString(s) == text) return s;
    }
    return std::nullopt;
}

json toJson(const QueueItem& i) {
    return {{"id", i.id}, {"node", i.node}, {"file", i.object.file}, {"sop_class_uid", i.object.sopClassUid},
            {"sop_instance_uid", i.object.sopInstanceUid}, {"transfer_syntax_uid", i.object.transferSyntaxUid},
            {"source_file", i.sourceFile}, {"state", toString(i.state)}, {"attempts", i.attempts},
            {"enqueued_at_ms", i.enqueuedAtMs}, {"next_attempt_at_ms", i.nextAttemptAtMs}, {"sent_at_ms", i.sentAtMs},
            {"committed_at_ms", i.committedAtMs}, {"last_status", i.lastStatus}, {"last_error", i.lastError},
            {"commitment_required", i.commitmentRequired}, {"transaction_uid", i.transactionUid},
            {"commitment_requested_at_ms", i.commitmentRequestedAtMs}};
}

Result<QueueItem> fromJson(const std::string& text, const std::string& where) {
    try {
        const auto j = json::parse(text);
        QueueItem i;
        i.id = j.at("id").get<std::string>();
        i.node = j.at("node").get<std::string>();
        i.object = {j.at("file").get<std::string>(), j.at("sop_class_uid").get<std::string>(),
                    j.at("sop_instance_uid").get<std::string>(), j.at("transfer_syntax_uid").get<std::string>()};
        i.sourceFile = j.at("source_file").get<std::string>();
        const auto state = stateFrom(j.at("state").get<std::string>());
        if (!state) return fail(ErrorCode::DataLoss, fmt::format("{}: unknown state {}", where, j.at("state").dump()));
        i.state = *state;
        i.attempts = j.at("attempts").get<int>();
        i.enqueuedAtMs = j.at("enqueued_at_ms").get<std::int64_t>();
        i.nextAttemptAtMs = j.at("next_attempt_at_ms").get<std::int64_t>();
        i.sentAtMs = j.at("sent_at_ms").get<std::int64_t>();
        i.committedAtMs = j.at("committed_at_ms").get<std::int64_t>();
        i.lastStatus = j.at("last_status").get<std::uint16_t>();
        i.lastError = j.at("last_error").get<std::string>();
        i.commitmentRequired = j.at("commitment_required").get<bool>();
        i.transactionUid = j.at("transaction_uid").get<std::string>();
        i.commitmentRequestedAtMs = j.at("commitment_requested_at_ms").get<std::int64_t>();
        return i;
    } catch (const json::exception& e) {
        return fail(ErrorCode::DataLoss, fmt::format("{}: not a queue record: {}", where, e.what()));
    }
}

std::int64_t wallClockMs() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

bool pending(const QueueItem& i) { return i.state == ItemState::Queued || i.state == ItemState::Sending; }

}  // namespace

Result<std::vector<QueueItem>> readQueue(const std::string& directory) {
    std::error_code ec;
    std::vector<std::string> paths;
    for (fs::directory_iterator it(directory + "/items", ec), end; !ec && it != end; it.increment(ec)) {
        if (it->path().extension() == ".json") paths.push_back(it->path().string());
    }
    if (ec) return fail(ErrorCode::NotFound, fmt::format("no DICOM queue at {}: {}", directory, ec.message()));
    std::sort(paths.begin(), paths.end());
    std::vector<QueueItem> items;
    for (const auto& path : paths) {
        auto text = readWholeFile(path);
        if (!text) continue;  // taken away (retired) since the listing
        auto item = fromJson(*text, path);
        if (!item) return fail(std::move(item.error()));
        items.push_back(std::move(*item));
    }
    return items;
}

struct StoreQueue::State {
    std::string directory;
    RetryPolicy policy;
    int lockFd = -1;
    mutable std::mutex mutex;
    std::map<std::string, QueueItem> items;  // by id: enqueue order
    std::uint64_t nextId = 1;
    std::uint64_t random = 0x9E3779B97F4A7C15ull;

    std::string recordPath(const std::string& id) const { return directory + "/items/" + id + ".json"; }
    std::string objectPath(const std::string& id) const { return directory + "/objects/" + id + ".dcm"; }
    Status save(const QueueItem& item) { return writeFileDurably(recordPath(item.id), toJson(item).dump(1)); }
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
    template <typename Change>
    Status update(const std::string& id, Change change) {
        auto item = find(id);
        if (!item) return fail(std::move(item.error()));
        const QueueItem before = **item;
        change(**item);
        if (auto ok = save(**item); !ok) {
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
    for (const auto& entry : fs::directory_iterator(directory + "/items")) {
        const auto path = entry.path().string();
        if (path.ends_with(".tmp")) {
            fs::remove(entry.path());
            continue;
        }
        auto text = readWholeFile(path);
        if (!text) return fail(std::move(text.error()));
        auto item = fromJson(*text, path);
        if (!item) return fail(std::move(item.error()));
        nextId = std::max<std::uint64_t>(nextId, std::stoull(item->id) + 1);
        if (item->state == ItemState::Sending) item->state = ItemState::Queued;  // interrupted: send again, same UID
        if (item->state != ItemState::Committed && !objectFiles.contains(item->id)) {
            item->state = ItemState::Failed;
            item->lastError = fmt::format("the queue's copy {} is missing", item->object.file);
        }
        objectFiles.erase(item->id);
        if (auto ok = save(*item); !ok) return ok;
        items[item->id] = std::move(*item);
    }
    for (const auto& [orphan, unused] : objectFiles) fs::remove(objectPath(orphan));  // enqueue cut short
    return {};
}

Result<std::unique_ptr<StoreQueue>> StoreQueue::open(const std::string& directory, RetryPolicy policy) {
    auto state = std::make_unique<State>();
    state->directory = directory;
    state->policy = policy;
    std::error_code ec;
    fs::create_directories(directory + "/items", ec);
    if (!ec) fs::create_directories(directory + "/objects", ec);
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
    std::lock_guard lock(state_->mutex);
    for (const auto& [id, item] : state_->items) {
        if (item.node == node && item.object.sopInstanceUid == info->sopInstanceUid && pending(item)) return item;
    }
    QueueItem item;
    item.id = fmt::format("{:06}", state_->nextId);
    item.node = node;
    item.object = *info;
    item.object.file = state_->objectPath(item.id);
    item.sourceFile = file;
    item.enqueuedAtMs = wallClockMs();
    item.nextAttemptAtMs = item.enqueuedAtMs;
    item.commitmentRequired = commitmentRequired;
    if (auto ok = copyFileDurably(file, item.object.file); !ok) return fail(std::move(ok.error()));
    if (auto ok = state_->save(item); !ok) {
        fs::remove(item.object.file);
        return fail(std::move(ok.error()));
    }
    ++state_->nextId;
    state_->items[item.id] = item;
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
        if (auto ok = state_->update(id, [](QueueItem& i) { i.state = ItemState::Sending; }); !ok) return fail(std::move(ok.error()));
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
    });
}

Status StoreQueue::markFailed(const std::string& id, const Error& error, bool retryable, std::int64_t nowMs) {
    std::lock_guard lock(state_->mutex);
    const double unit = state_->nextUnit();
    return state_->update(id, [&](QueueItem& i) {
        ++i.attempts;
        i.lastError = error.message();
        i.state = retryable ? ItemState::Queued : ItemState::Failed;
        i.nextAttemptAtMs = nowMs + static_cast<std::int64_t>(1000.0 * retryDelayS(state_->policy, i.attempts, unit));
    });
}

Status StoreQueue::markNotAttempted(const std::string& id) {
    std::lock_guard lock(state_->mutex);
    return state_->update(id, [](QueueItem& i) { i.state = ItemState::Queued; });
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
        if (auto ok = state_->update(id, [&](QueueItem& i) {
                i.transactionUid = transactionUid;
                i.commitmentRequestedAtMs = nowMs;
            });
            !ok) {
            return ok;
        }
    }
    return {};
}

Status StoreQueue::applyCommitment(const std::string& transactionUid, const std::vector<std::string>& committedUids,
                                   const std::vector<std::pair<std::string, std::string>>& failedUids, std::int64_t nowMs) {
    std::lock_guard lock(state_->mutex);
    for (auto& [id, item] : state_->items) {
        if (item.transactionUid != transactionUid || item.state != ItemState::Sent) continue;
        const auto& uid = item.object.sopInstanceUid;
        if (std::find(committedUids.begin(), committedUids.end(), uid) != committedUids.end()) {
            if (auto ok = state_->update(id, [&](QueueItem& i) {
                    i.state = ItemState::Committed;
                    i.committedAtMs = nowMs;
                });
                !ok) {
                return ok;
            }
            std::error_code ignored;  // the record says committed; a leftover copy is only disk space
            fs::remove(item.object.file, ignored);
            continue;
        }
        auto failed = std::find_if(failedUids.begin(), failedUids.end(), [&](const auto& f) { return f.first == uid; });
        if (failed != failedUids.end()) {
            if (auto ok = state_->update(id, [&](QueueItem& i) {
                    i.state = ItemState::Failed;
                    i.lastError = fmt::format("the PACS did not commit this object: {}", failed->second);
                });
                !ok) {
                return ok;
            }
        }
    }
    return {};
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

bool StoreQueue::settled() const {
    std::lock_guard lock(state_->mutex);
    return std::none_of(state_->items.begin(), state_->items.end(), [](const auto& entry) {
        const auto& i = entry.second;
        return pending(i) || (i.state == ItemState::Sent && i.commitmentRequired);
    });
}

}  // namespace sonolink::dicom
