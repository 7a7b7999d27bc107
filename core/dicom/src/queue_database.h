// QueueDatabase: the store-and-forward queue's records in an SQLite database (queue.db, WAL
// mode), one row per item. Each change is one transaction: durable (synchronous=FULL, the WAL
// fsync'd) where a loss would lose data, atomic only (NORMAL) where losing it to a power cut
// only repeats work. SQLite gives the atomic commits, the recovery after a crash and the check of
// its own integrity (quick_check at every read) that a hand-made journal re-implements.
// Private to sonolink_dicom. Thread contract: one thread at a time (the queue's mutex); read()
// may run in another process while the owner writes (WAL: readers never block the writer).
#pragma once

#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "sonolink/util/durable_file.h"
#include "sonolink/dicom/store_queue.h"

namespace sonolink::dicom {

class QueueDatabase {
public:
    using Items = std::map<std::string, QueueItem>;  // by id
    struct Contents {
        Items items;
        bool found = false;       // the file is there (a missing database is no empty queue)
        std::size_t badRows = 0;  // lenient reads: records skipped as unreadable
    };
    enum class Reading { Strict, Lenient };

    // Strict: a database that fails its integrity check, is no SonoLink queue or holds a record
    // that does not decode is DataLoss naming the file (and the record). Lenient (recovery):
    // undecodable records are skipped and counted; a database that cannot be read at all is
    // still an error.
    [[nodiscard]] static Result<Contents> read(const std::string& path, Reading reading = Reading::Strict);
    // Writes items as a fresh database (a temporary file, then renamed into place with no stale
    // WAL beside it), 0600, and opens it.
    [[nodiscard]] static Result<QueueDatabase> create(const std::string& path, const Items& items);
    // Opens an existing database that read() accepted, for writing.
    [[nodiscard]] static Result<QueueDatabase> open(const std::string& path);

    QueueDatabase(QueueDatabase&& other) noexcept;
    QueueDatabase& operator=(QueueDatabase&& other) noexcept;
    ~QueueDatabase();

    // Inserts or replaces the items' records, all in one transaction.
    [[nodiscard]] Status put(std::span<const QueueItem> items, Sync sync);
    [[nodiscard]] Status put(const QueueItem& item, Sync sync) { return put(std::span(&item, 1), sync); }
    // Deletes the records of ids, in one durable transaction.
    [[nodiscard]] Status remove(const std::vector<std::string>& ids);

    const std::string& path() const noexcept { return path_; }

private:
    struct Handle;
    QueueDatabase(std::string path, std::unique_ptr<Handle> handle);
    std::string path_;
    std::unique_ptr<Handle> handle_;
};

}  // namespace sonolink::dicom
