// StoreQueue's recovery (`dicom queue recover`): a queue whose database was lost or damaged
// rebuilt from its copies, each queued again for the node its node file names.
#include <algorithm>
#include <filesystem>
#include <ranges>

#include "sonolink/util/durable_file.h"
#include "store_queue_state.h"

namespace sonolink::dicom {
namespace fs = std::filesystem;

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
        report.notes.push_back(
            fmt::format("{}: no record of the node it was queued for: kept aside as {} (recover --node NAME queues "
                        "such copies for NAME)",
                        path, aside));
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

}  // namespace sonolink::dicom
