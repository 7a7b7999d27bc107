#include "sonolink/dicom/store_queue.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <map>
#include <ranges>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sonolink/persist/folder_lock.h"
#include "sonolink/util/durable_file.h"
#include "sonolink/util/thread_annotations.h"
#include "queue_database.h"
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

std::optional<std::uint64_t> parseId(std::string_view text) {
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.remove_suffix(1);
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
    return value;
}

std::string databasePath(const std::string& directory) { return directory + "/queue.db"; }

constexpr const char* kRecoverHint = "`sonolink-cli dicom queue recover --config F` queues the copies again, each for its own node";

// Beside each copy, written before it: the node it is bound for (and whether that node commits
// storage), so that a queue whose database is lost sends every copy to its own PACS again.
std::string nodeFileOf(const std::string& copy) { return (fs::path(copy).parent_path() / fs::path(copy).stem()).string() + ".node"; }

// A copy the queue is done with, and the node file beside it (`removed` is the copy's name now:
// itself, or itself renamed .forgotten). What cannot be removed the next open cleans up.
void discardCopy(const std::string& copy, const std::string& removed) {
    std::error_code ignored;
    fs::remove(removed, ignored);
    fs::remove(nodeFileOf(copy), ignored);
}
void discardCopy(const std::string& copy) { discardCopy(copy, copy); }

Status writeNodeFile(const std::string& copy, const std::string& node, bool commitmentRequired) {
    return writeFileDurably(nodeFileOf(copy), nlohmann::json{{"node", node}, {"commitment_required", commitmentRequired}}.dump() + "\n");
}

struct CopyDestination {
    std::string node;
    bool commitmentRequired = false;
};

std::optional<CopyDestination> readNodeFile(const std::string& copy) {
    auto text = readRegularFile(nodeFileOf(copy), 4096, "node file");
    if (!text) return std::nullopt;
    auto j = nlohmann::json::parse(*text, nullptr, false);
    if (!j.is_object() || !j.contains("node") || !j["node"].is_string() || j["node"].get<std::string>().empty()) return std::nullopt;
    return CopyDestination{j["node"].get<std::string>(), j.value("commitment_required", false)};
}

// The queue's copies on disk: objects/<id>.dcm, and those a forget renamed to .forgotten.
struct Copies {
    std::set<std::string> ids;
    std::set<std::string> forgetting;
};

Result<Copies> listCopies(const std::string& directory) {
    Copies copies;
    std::error_code ec;
    for (fs::directory_iterator it(directory + "/objects", ec), end; !ec && it != end; it.increment(ec)) {
        const auto name = it->path().filename().string();
        const auto stem = name.substr(0, name.find('.'));
        if (name.ends_with(".dcm")) copies.ids.insert(stem);
        else if (name.ends_with(".dcm.forgotten")) copies.forgetting.insert(stem);
    }
    if (ec) return fail(ErrorCode::DataLoss, fmt::format("cannot list {}/objects: {}", directory, ec.message()));
    return copies;
}

std::string listed(const std::vector<std::string>& ids) {
    std::string out;
    for (std::size_t k = 0; k < ids.size() && k < 5; ++k) out += (k ? ", " : "") + ids[k];
    return ids.size() > 5 ? out + ", ..." : out;
}

// The database read and checked against the copies, without changing anything. What a single
// crash can leave is accepted: one copy without a record (an enqueue cut short, returned as
// orphan). Anything more means the database lost records: DataLoss naming the copies and the
// recover command, never an empty queue.
struct Accounts {
    QueueDatabase::Items items;
    Copies copies;
    std::optional<std::string> orphan;
};

Result<Accounts> readAccounts(const std::string& directory) {
    auto copies = listCopies(directory);
    if (!copies) return fail(std::move(copies.error()));
    const auto database = databasePath(directory);
    const auto count = copies->ids.size();
    auto contents = QueueDatabase::read(database);
    if (!contents) {
        return fail(ErrorCode::DataLoss, fmt::format("{}; its {} copies are kept in {}/objects; nothing was changed; {}",
                                                     contents.error().message(), count, directory, kRecoverHint));
    }
    if (!contents->found && count > 0) {
        return fail(ErrorCode::DataLoss, fmt::format("the DICOM queue at {} has {} copies but no database ({}): nothing was changed; {}",
                                                     directory, count, database, kRecoverHint));
    }
    Accounts accounts{std::move(contents->items), std::move(*copies), std::nullopt};
    std::vector<std::string> orphans;
    for (const auto& id : accounts.copies.ids) {
        if (!accounts.items.contains(id) && !accounts.copies.forgetting.contains(id)) orphans.push_back(id);
    }
    // Ids compare as numbers ("1000000" comes after "999999"; the map orders them as text).
    std::uint64_t newest = 0;
    for (const auto& id : accounts.items | std::views::keys) newest = std::max(newest, parseId(id).value_or(0));
    const bool cutShortEnqueue = orphans.size() == 1 && (accounts.items.empty() || parseId(orphans[0]).value_or(0) > newest);
    if (cutShortEnqueue) {
        accounts.orphan = orphans[0];
    } else if (!orphans.empty()) {
        return fail(ErrorCode::DataLoss, fmt::format("the DICOM queue's database {} records {} items, but {} copies of {} are not in it "
                                                     "(items {}): it lost records; nothing was changed; {}",
                                                     database, accounts.items.size(), orphans.size(), count, listed(orphans), kRecoverHint));
    }
    return accounts;
}

// Only the owner may enter the queue's directories (the database and copies name patients).
void makePrivate(const std::string& directory) {
    std::error_code ignored;
    fs::permissions(directory, fs::perms::owner_all, fs::perm_options::replace, ignored);
    fs::permissions(directory + "/objects", fs::perms::owner_all, fs::perm_options::replace, ignored);
}

// The queue's folders, made private, and its lock (the kernel drops it when its owner dies).
Result<persist::FolderLock> lockQueue(const std::string& directory) {
    std::error_code ec;
    fs::create_directories(directory + "/objects", ec);
    if (ec) return fail(ErrorCode::FailedPrecondition, fmt::format("cannot create the DICOM queue at {}: {}", directory, ec.message()));
    makePrivate(directory);
    return persist::FolderLock::acquire(directory, "the DICOM queue");
}

}  // namespace

Result<std::vector<QueueItem>> readQueue(const std::string& directory) {
    if (!fs::is_directory(directory + "/objects")) return fail(ErrorCode::NotFound, fmt::format("no DICOM queue at {}", directory));
    auto accounts = readAccounts(directory);
    if (!accounts) return fail(std::move(accounts.error()));
    std::vector<QueueItem> out;
    for (auto& [id, item] : accounts->items) {
        if (!accounts->copies.forgetting.contains(id)) out.push_back(std::move(item));
    }
    return out;
}

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
    template <typename Change>
    Status updateAll(const std::vector<std::string>& ids, Change change, Sync sync = Sync::Durable) REQUIRES(mutex) {
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
    template <typename Change>
    Status update(const std::string& id, Change change, Sync sync = Sync::Durable) REQUIRES(mutex) {
        return updateAll(std::vector{id}, change, sync);
    }
    Status load() REQUIRES(mutex);
};

Status StoreQueue::State::load() {
    std::error_code ignored;
    for (fs::directory_iterator it(directory + "/objects", ignored), end; !ignored && it != end; it.increment(ignored)) {
        if (it->path().extension() == ".tmp") fs::remove(it->path(), ignored);  // an interrupted copy; its source is where it was
    }
    auto accounts = readAccounts(directory);
    if (!accounts) return fail(std::move(accounts.error()));
    items = std::move(accounts->items);
    if (auto text = readWholeFile(nextIdPath()); text) {
        const auto parsed = parseId(*text);
        if (!parsed) return fail(ErrorCode::DataLoss, fmt::format("{}: not an item id: '{}'", nextIdPath(), *text));
        nextId = *parsed;
    } else if (text.error().code() != ErrorCode::NotFound) {
        return fail(std::move(text.error()));
    }
    // A forget a crash interrupted: its items' copies were renamed; finished once the database
    // is open (records first, then the copies).
    for (const auto& id : accounts->copies.forgetting) items.erase(id);
    if (accounts->orphan) {  // the enqueue a crash cut short (its caller never heard back): kept aside
        const auto& id = *accounts->orphan;
        fs::create_directories(directory + "/orphans", ignored);
        const auto aside = directory + "/orphans/" + id + ".dcm";
        fs::rename(objectPath(id), aside, ignored);
        fs::rename(nodeFileOf(objectPath(id)), nodeFileOf(aside), ignored);
        nextId = std::max<std::uint64_t>(nextId, parseId(id).value_or(0) + 1);
        log::warn(log::category("dicom"), "DICOM queue: the copy {} has no record (an enqueue cut short): kept aside as {}", id, aside);
    }
    std::vector<QueueItem> lostCopies;
    for (auto& [id, item] : items) {
        nextId = std::max<std::uint64_t>(nextId, parseId(id).value_or(0) + 1);
        const bool hasCopy = accounts->copies.ids.contains(id);
        if (hasCopy) fs::permissions(objectPath(id), fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::replace, ignored);
        if (item.state != ItemState::Committed && item.state != ItemState::Failed && !hasCopy) {
            item.state = ItemState::Failed;
            item.lastError = fmt::format("the queue's copy {} is missing", item.object.file);
            lostCopies.push_back(item);
        }
    }
    const auto path = databasePath(directory);
    auto opened = fs::exists(path, ignored) ? QueueDatabase::open(path) : QueueDatabase::create(path, items);
    if (!opened) return fail(std::move(opened.error()));
    database.emplace(std::move(*opened));
    const std::vector<std::string> forgotten(accounts->copies.forgetting.begin(), accounts->copies.forgetting.end());
    if (!forgotten.empty()) {
        if (auto ok = database->remove(forgotten); !ok) return ok;
        for (const auto& id : forgotten) discardCopy(objectPath(id), objectPath(id) + ".forgotten");
    }
    // Node files whose copy is gone (sent and forgotten, committed): only disk space.
    for (fs::directory_iterator it(directory + "/objects", ignored), end; !ignored && it != end; it.increment(ignored)) {
        const auto stem = it->path().stem().string();
        if (it->path().extension() == ".node" && !fs::exists(objectPath(stem), ignored) && !fs::exists(objectPath(stem) + ".forgotten", ignored)) {
            fs::remove(it->path(), ignored);
        }
    }
    return lostCopies.empty() ? Status{} : database->put(lostCopies, Sync::Durable);
}

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

namespace {

// The database as recover() finds it: its readable records, or none when it cannot be read at
// all, and then the file (with its WAL) kept aside for inspection and named in the report.
Result<QueueDatabase::Contents> readForRecovery(const std::string& database, QueueRecovery& report) {
    auto contents = QueueDatabase::read(database, QueueDatabase::Reading::Lenient);
    if (contents) return contents;
    const auto kept = fmt::format("{}.damaged-{}", database, wallClockMs());
    std::error_code ec;
    fs::rename(database, kept, ec);
    if (ec) return fail(ErrorCode::DataLoss, fmt::format("{}; and it cannot be moved aside: {}", contents.error().message(), ec.message()));
    for (const auto* companion : {"-wal", "-shm"}) fs::rename(database + companion, kept + companion, ec);
    report.notes.push_back(fmt::format("{}: kept as {}", contents.error().message(), kept));
    return QueueDatabase::Contents{};
}

// The copies the records do not account for, and those kept aside before (orphans/).
std::vector<std::string> unaccountedCopies(const std::string& directory, const Copies& copies, const QueueDatabase::Items& items) {
    std::vector<std::string> lost;
    for (const auto& id : copies.ids) {
        if (!items.contains(id) && !copies.forgetting.contains(id)) lost.push_back(directory + "/objects/" + id + ".dcm");
    }
    std::error_code ec;
    for (fs::directory_iterator it(directory + "/orphans", ec), end; !ec && it != end; it.increment(ec)) {
        if (it->path().extension() == ".dcm") lost.push_back(it->path().string());
    }
    return lost;
}

// Moves a copy that cannot go back into the queue to orphans/<name> (one already there only when
// `renameAside`) and counts it; returns where it is kept.
std::string setAside(const std::string& directory, const std::string& path, const std::string& name, bool renameAside, QueueRecovery& report) {
    std::error_code ec;
    const auto aside = directory + "/orphans/" + name;
    if (renameAside || fs::path(path).parent_path() != fs::path(directory) / "orphans") {
        fs::create_directories(directory + "/orphans", ec);
        fs::rename(path, aside, ec);
    }
    ++report.setAside;
    return aside;
}

}  // namespace

Status StoreQueue::State::requeue(const std::string& path, const CopyDestination& fallback, QueueRecovery& report) {
    auto info = inspectObject(path);
    if (!info) {  // renamed, so that the next recovery does not take it for a copy again
        const auto aside = setAside(directory, path, fs::path(path).stem().string() + ".unreadable", true, report);
        report.notes.push_back(fmt::format("{}: kept aside as {}", info.error().message(), aside));
        return {};
    }
    auto destination = readNodeFile(path);
    if (!destination && fallback.node.empty()) {
        const auto aside = setAside(directory, path, fs::path(path).filename().string(), false, report);
        report.notes.push_back(fmt::format("{}: no record of the node it was queued for: kept aside as {} (recover --node NAME queues "
                                           "such copies for NAME)", path, aside));
        return {};
    }
    if (!destination) destination = fallback;
    QueueItem item;
    const bool inObjects = fs::path(path).parent_path() == fs::path(directory) / "objects";
    item.id = inObjects ? fs::path(path).stem().string() : fmt::format("{:06}", nextId++);
    item.node = destination->node;
    item.object = *info;
    item.object.file = objectPath(item.id);
    item.sourceFile = path;
    item.enqueuedAtMs = item.nextAttemptAtMs = wallClockMs();
    item.commitmentRequired = destination->commitmentRequired;
    if (auto ok = writeNodeFile(item.object.file, item.node, item.commitmentRequired); !ok) return ok;
    if (!inObjects) {
        std::error_code ec;
        fs::remove(nodeFileOf(path), ec);
        fs::rename(path, item.object.file, ec);
        if (ec) return fail(ErrorCode::DataLoss, fmt::format("cannot move {} back into the queue: {}", path, ec.message()));
    }
    report.notes.push_back(fmt::format("{} ({}) queued again for {}", item.id, info->sopInstanceUid, item.node));
    items[item.id] = std::move(item);
    ++report.requeued;
    return {};
}

Result<QueueRecovery> StoreQueue::recover(const std::string& directory, const std::string& node, bool commitmentRequired, RetryPolicy policy) {
    auto lock = lockQueue(directory);
    if (!lock) return fail(std::move(lock.error()));
    State state;
    state.folderLock = std::move(*lock);
    state.directory = directory;
    state.policy = policy;
    MutexLock held(state.mutex);  // its own, never shared: the analysis asks, and it costs nothing
    QueueRecovery report;
    const auto database = databasePath(directory);
    auto contents = readForRecovery(database, report);
    if (!contents) return fail(std::move(contents.error()));
    report.badRecords = contents->badRows;
    if (report.badRecords > 0) report.notes.push_back(fmt::format("{} unreadable records skipped", report.badRecords));
    state.items = std::move(contents->items);
    report.kept = state.items.size();
    auto copies = listCopies(directory);
    if (!copies) return fail(std::move(copies.error()));
    for (const auto& id : state.items | std::views::keys) state.nextId = std::max<std::uint64_t>(state.nextId, parseId(id).value_or(0) + 1);
    for (const auto& id : copies->ids) state.nextId = std::max<std::uint64_t>(state.nextId, parseId(id).value_or(0) + 1);
    // The copies the database does not account for, queued again for node with the UIDs they
    // carry; one that is no readable DICOM object stays aside.
    for (const auto& path : unaccountedCopies(directory, *copies, state.items)) {
        if (auto ok = state.requeue(path, CopyDestination{node, commitmentRequired}, report); !ok) return fail(std::move(ok.error()));
    }
    if (auto ok = writeFileDurably(state.nextIdPath(), std::to_string(state.nextId)); !ok) return fail(std::move(ok.error()));
    auto fresh = QueueDatabase::create(database, state.items);
    if (!fresh) return fail(std::move(fresh.error()));
    return report;
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
    return state_->update(id, [&](QueueItem& i) {
        i.state = ItemState::Sent;
        ++i.attempts;
        i.lastStatus = status;
        i.lastError.clear();
        i.sentAtMs = nowMs;
    }, Sync::AtomicOnly);
}

Status StoreQueue::markFailed(const std::string& id, const Error& error, bool retryable, std::int64_t nowMs) {
    MutexLock lock(state_->mutex);
    const double unit = state_->nextUnit();
    return state_->update(id, [&](QueueItem& i) {
        ++i.attempts;
        i.lastError = error.message();
        i.state = retryable ? ItemState::Queued : ItemState::Failed;
        i.nextAttemptAtMs = nowMs + static_cast<std::int64_t>(1000.0 * retryDelayS(state_->policy, i.attempts, unit));
    }, retryable ? Sync::AtomicOnly : Sync::Durable);
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
    return state_->updateAll(ids, [&](QueueItem& i) {
        i.transactionUid = transactionUid;
        i.commitmentRequestedAtMs = nowMs;
    }, Sync::AtomicOnly);  // lost to a power cut: the request is made again
}

Status StoreQueue::markCommitmentRequestFailed(const std::vector<std::string>& ids, std::int64_t nowMs) {
    MutexLock lock(state_->mutex);
    const auto timeoutMs = static_cast<std::int64_t>(1000.0 * state_->policy.commitmentTimeoutS);
    const auto delayMs = static_cast<std::int64_t>(1000.0 * retryDelayS(state_->policy, 1, state_->nextUnit()));
    // Due when now - requestedAt >= timeout, i.e. delayMs from now.
    return state_->updateAll(ids, [&](QueueItem& i) { i.commitmentRequestedAtMs = nowMs - timeoutMs + std::min(delayMs, timeoutMs); },
                             Sync::AtomicOnly);
}

Status StoreQueue::applyCommitment(const std::string& transactionUid, const std::vector<std::string>& committedUids,
                                   const std::vector<std::pair<std::string, std::string>>& failedUids, std::int64_t nowMs) {
    MutexLock lock(state_->mutex);
    std::vector<std::string> ids;
    for (const auto& [id, item] : state_->items) {
        if (item.transactionUid == transactionUid && item.state == ItemState::Sent) ids.push_back(id);
    }
    auto committed = [&](const QueueItem& i) {
        return std::find(committedUids.begin(), committedUids.end(), i.object.sopInstanceUid) != committedUids.end();
    };
    auto refusal = [&](const QueueItem& i) {
        return std::find_if(failedUids.begin(), failedUids.end(), [&](const auto& f) { return f.first == i.object.sopInstanceUid; });
    };
    std::erase_if(ids, [&](const std::string& id) REQUIRES(state_->mutex) {  // not in this report
        const auto& i = state_->items.at(id);
        return !committed(i) && refusal(i) == failedUids.end();
    });
    // The outcome on disk (one durable transaction) before any local copy goes.
    auto ok = state_->updateAll(ids, [&](QueueItem& i) {
        if (committed(i)) {
            i.state = ItemState::Committed;
            i.committedAtMs = nowMs;
        } else {
            i.state = ItemState::Failed;
            i.lastError = fmt::format("the PACS did not commit this object: {}", refusal(i)->second);
        }
    }, Sync::Durable);
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
        i.lastError = fmt::format("node '{}' is no longer configured (dicom.nodes): {}; add the node back and retry, or queue the object "
                                  "for another node", i.node, i.state == ItemState::Sent ? "its storage commitment cannot be asked for" : "not sent");
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
