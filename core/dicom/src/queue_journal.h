// QueueJournal: the store-and-forward queue's records as one append-only file of JSON lines, the
// last line of an item being its state. Appending creates no file (cheap per state change);
// Sync::Durable appends are fsync'd. Reading ignores a torn last line (a crash mid-append) and
// names the file and line of any other bad line. compact() rewrites the file atomically with one
// line per item. Private to sonolink_dicom. Thread contract: one thread at a time (the queue's
// mutex); read() may run in another process while the owner appends.
#pragma once

#include <map>
#include <string>

#include "durable_file.h"
#include "sonolink/dicom/store_queue.h"

namespace sonolink::dicom {

class QueueJournal {
public:
    using Items = std::map<std::string, QueueItem>;  // by id
    struct Contents {
        Items items;
        bool found = false;          // the file is there (a missing journal is no empty one)
        std::size_t badLines = 0;    // lenient reads: records skipped as unreadable
    };
    enum class Reading { Strict, Lenient };

    // Strict: the first bad line (but a torn last one) is an error naming file and line.
    // Lenient (recovery): bad lines are skipped and counted.
    [[nodiscard]] static Result<Contents> read(const std::string& path, Reading reading = Reading::Strict);
    // Writes items as a fresh journal (temp, fsync, rename) and opens it for appending.
    [[nodiscard]] static Result<QueueJournal> create(const std::string& path, const Items& items);

    QueueJournal(QueueJournal&& other) noexcept;
    QueueJournal& operator=(QueueJournal&& other) noexcept;
    ~QueueJournal();

    [[nodiscard]] Status append(const QueueItem& item, Sync sync);
    [[nodiscard]] Status sync();
    [[nodiscard]] Status compact(const Items& items);
    // Appended lines since the file was last written whole.
    [[nodiscard]] std::size_t appended() const noexcept { return appended_; }

private:
    QueueJournal(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}
    std::string path_;
    int fd_ = -1;
    std::size_t appended_ = 0;
};

}  // namespace sonolink::dicom
