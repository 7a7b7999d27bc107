// ArchiveAudit: who moved which data where. Every upload, download and deletion in the archive
// is one JSON line (UTC time, station user, action, object, local file, bytes, CRC-32C, outcome,
// error) appended to a file (0600, fsync'd per line) for the site's privacy officer. Keys and file
// names may name patients: keep the file private.
// Thread contract: record() is thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "sonolink/util/result.h"

namespace sonolink::archive {

struct ArchiveEvent {
    std::string action;  // "upload", "download", "delete", "delete local copy"
    std::string url;     // s3://bucket/key
    std::string file;    // the local file, if any
    std::uint64_t bytes = 0;
    std::string crc32c;
    bool ok = true;
    std::string error;
};

class ArchiveAudit {
public:
    [[nodiscard]] static Result<std::unique_ptr<ArchiveAudit>> open(const std::string& path);
    ~ArchiveAudit();
    ArchiveAudit(const ArchiveAudit&) = delete;
    ArchiveAudit& operator=(const ArchiveAudit&) = delete;
    [[nodiscard]] Status record(const ArchiveEvent& event);

private:
    ArchiveAudit(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}
    std::string path_;
    int fd_;
    std::mutex mutex_;
};

}  // namespace sonolink::archive
