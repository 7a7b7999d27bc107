// The journal of one multipart upload: which file (path, size, modification time, CRC-32C) goes
// to which object under which upload id, and every part the server has confirmed. It is
// rewritten whole (temporary file, fsync, rename) after each part, so a crash at any point
// leaves the last good journal, and the same upload resumes where it stopped.
// Thread contract: one writer per journal (the upload holding it); load() from any thread.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "sonolink/util/result.h"

namespace sonolink::archive {

struct JournalPart {
    int number = 0;
    std::string etag;
    std::uint64_t sizeBytes = 0;
};

struct MultipartJournal {
    std::string file;  // absolute path of the local file
    std::uint64_t sizeBytes = 0;
    std::int64_t modifiedNs = 0;
    std::uint32_t crc32c = 0;
    std::string bucket;
    std::string key;
    std::string uploadId;
    std::uint64_t partSizeBytes = 0;
    std::vector<JournalPart> parts;  // confirmed, any order

    // Same file (path, size, time, CRC) to the same object in the same parts?
    [[nodiscard]] bool describesSameUpload(const MultipartJournal& other) const noexcept;
};

// Where the journal of file -> s3://bucket/key lives in `directory`.
[[nodiscard]] std::filesystem::path journalPath(const std::filesystem::path& directory, const std::string& file, const std::string& bucket,
                                                const std::string& key);
// None when there is no journal; a damaged one is an Error naming the file (it is not trusted).
[[nodiscard]] Result<std::optional<MultipartJournal>> loadJournal(const std::filesystem::path& path);
[[nodiscard]] Status saveJournal(const std::filesystem::path& path, const MultipartJournal& journal);

}  // namespace sonolink::archive
