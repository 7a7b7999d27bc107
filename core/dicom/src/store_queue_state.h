// StoreQueue's private parts, shared by its files: its State (the items in memory and the
// database), and the files it keeps on disk (store_queue_disk.cpp): the copies, the node file
// beside each, the folders and their lock.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "queue_database.h"
#include "sonolink/dicom/store_queue.h"
#include "sonolink/persist/folder_lock.h"
#include "sonolink/util/thread_annotations.h"

namespace sonolink::dicom {

inline std::int64_t wallClockMs() { return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count(); }

// An item id ("000042", a trailing newline or blank allowed), or none.
std::optional<std::uint64_t> parseId(std::string_view text);

std::string databasePath(const std::string& directory);

// Beside each copy, written before it: the node it is bound for (and whether that node commits
// storage), so that a queue whose database is lost sends every copy to its own PACS again.
std::string nodeFileOf(const std::string& copy);

// A copy the queue is done with, and the node file beside it (`removed` is the copy's name now:
// itself, or itself renamed .forgotten). What cannot be removed the next open cleans up.
void discardCopy(const std::string& copy, const std::string& removed);
void discardCopy(const std::string& copy);

Status writeNodeFile(const std::string& copy, const std::string& node, bool commitmentRequired);

struct CopyDestination {
    std::string node;
    bool commitmentRequired = false;
};

std::optional<CopyDestination> readNodeFile(const std::string& copy);

// The queue's copies on disk: objects/<id>.dcm, and those a forget renamed to .forgotten.
struct Copies {
    std::set<std::string> ids;
    std::set<std::string> forgetting;
};

Result<Copies> listCopies(const std::string& directory);

// The queue's folders, made private, and its lock (the kernel drops it when its owner dies).
Result<persist::FolderLock> lockQueue(const std::string& directory);

struct StoreQueue::State {
    std::optional<persist::FolderLock> folderLock;  // first: let go after the database closes
    std::string directory;
    RetryPolicy policy;
    mutable Mutex mutex;
    std::map<std::string, QueueItem> items GUARDED_BY(mutex);  // by id: enqueue order
    std::uint64_t nextId GUARDED_BY(mutex) = 1;
    std::uint64_t random GUARDED_BY(mutex) = 0x9E3779B97F4A7C15ull;

    std::optional<QueueDatabase> database GUARDED_BY(mutex);
    std::atomic<std::uint64_t> version{0};  // bumped by every change, in memory or on disk
    std::string objectPath(const std::string& id) const { return directory + "/objects/" + id + ".dcm"; }
    std::string nextIdPath() const { return directory + "/next_id"; }
    // recover(): one copy found without a record, queued again for the node it names (or
    // `fallback`, for copies made before the queue kept that beside them), or kept aside.
    Status requeue(const std::string& path, const CopyDestination& fallback, QueueRecovery& report) REQUIRES(mutex);
    double nextUnit() REQUIRES(mutex) {  // xorshift64*: the jitter draw
        random ^= random >> 12;
        random ^= random << 25;
        random ^= random >> 27;
        return static_cast<double>((random * 0x2545F4914F6CDD1Dull) >> 11) / 9007199254740992.0;
    }
    Result<QueueItem*> find(const std::string& id) REQUIRES(mutex) {
        auto it = items.find(id);
        if (it == items.end()) return fail(ErrorCode::NotFound, fmt::format("no item {} in the queue at {}", id, directory));
        return &it->second;
    }
    // Saves the changed items in one transaction; on failure the in-memory copies are restored,
    // so memory and disk agree. Sync::AtomicOnly where losing the change to a power cut only
    // repeats work (a resend with the same UID, an attempt counted again); durable where it would
    // lose or misstate data.
    template <typename Change> Status updateAll(const std::vector<std::string>& ids, Change change, Sync sync = Sync::Durable) REQUIRES(mutex) {
        std::vector<QueueItem*> targets;
        std::vector<QueueItem> changed;
        for (const auto& id : ids) {
            auto item = find(id);
            if (!item) return fail(std::move(item.error()));
            targets.push_back(*item);
            changed.push_back(**item);
            change(changed.back());
        }
        if (auto ok = database->put(changed, sync); !ok) return ok;
        for (std::size_t k = 0; k < targets.size(); ++k) *targets[k] = std::move(changed[k]);
        ++version;
        return {};
    }
    template <typename Change> Status update(const std::string& id, Change change, Sync sync = Sync::Durable) REQUIRES(mutex) {
        return updateAll(std::vector{id}, change, sync);
    }
    Status load() REQUIRES(mutex);
};

}  // namespace sonolink::dicom
