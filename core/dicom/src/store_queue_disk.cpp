// StoreQueue's files on disk: the folders and their lock, the copies and the node file beside
// each, and the database read and checked against the copies (readQueue, and open's load).
#include <algorithm>
#include <charconv>
#include <filesystem>
#include <ranges>

#include <nlohmann/json.hpp>

#include "sonolink/util/durable_file.h"
#include "sonolink/util/log.h"
#include "store_queue_state.h"

namespace sonolink::dicom {
namespace fs = std::filesystem;

std::optional<std::uint64_t> parseId(std::string_view text) {
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.remove_suffix(1);
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
    return value;
}

std::string databasePath(const std::string& directory) { return directory + "/queue.db"; }

std::string nodeFileOf(const std::string& copy) { return (fs::path(copy).parent_path() / fs::path(copy).stem()).string() + ".node"; }

void discardCopy(const std::string& copy, const std::string& removed) {
    std::error_code ignored;
    fs::remove(removed, ignored);
    fs::remove(nodeFileOf(copy), ignored);
}
void discardCopy(const std::string& copy) { discardCopy(copy, copy); }

Status writeNodeFile(const std::string& copy, const std::string& node, bool commitmentRequired) {
    return writeFileDurably(nodeFileOf(copy), nlohmann::json{{"node", node}, {"commitment_required", commitmentRequired}}.dump() + "\n");
}

std::optional<CopyDestination> readNodeFile(const std::string& copy) {
    auto text = readRegularFile(nodeFileOf(copy), 4096, "node file");
    if (!text) return std::nullopt;
    auto j = nlohmann::json::parse(*text, nullptr, false);
    if (!j.is_object() || !j.contains("node") || !j["node"].is_string() || j["node"].get<std::string>().empty()) return std::nullopt;
    return CopyDestination{j["node"].get<std::string>(), j.value("commitment_required", false)};
}

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

namespace {

constexpr const char* kRecoverHint = "`sonolink-cli dicom queue recover --config F` queues the copies again, each for its own node";

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
        return fail(ErrorCode::DataLoss, fmt::format("{}; its {} copies are kept in {}/objects; nothing was changed; {}", contents.error().message(), count,
                                                     directory, kRecoverHint));
    }
    if (!contents->found && count > 0) {
        return fail(ErrorCode::DataLoss,
                    fmt::format("the DICOM queue at {} has {} copies but no database ({}): nothing was changed; {}", directory, count, database, kRecoverHint));
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

}  // namespace

Result<persist::FolderLock> lockQueue(const std::string& directory) {
    std::error_code ec;
    fs::create_directories(directory + "/objects", ec);
    if (ec) return fail(ErrorCode::FailedPrecondition, fmt::format("cannot create the DICOM queue at {}: {}", directory, ec.message()));
    makePrivate(directory);
    return persist::FolderLock::acquire(directory, "the DICOM queue");
}

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

}  // namespace sonolink::dicom
