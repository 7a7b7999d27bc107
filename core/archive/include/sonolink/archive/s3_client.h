// S3Client: the object store's operations on libcurl, every request signed with AWS Signature V4
// (CURLOPT_AWS_SIGV4) and its payload's SHA-256, which the server checks. Uploads above one
// part go multipart, parts in parallel, resumable after a crash from a journal, and every upload
// is read back whole and its CRC-32C compared with the local bytes' before it is done; downloads go by
// ranges in parallel; ranged reads land straight in the caller's (aligned, pinned) memory.
// Healing errors are retried with back-off and jitter, the others named at once (s3_failure.h).
// Thread contract: every method may be called from any thread at once; each request takes a
// connection of its own from the client's pool. Progress callbacks come from transfer threads.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "sonolink/archive/s3_credentials.h"
#include "sonolink/archive/s3_settings.h"
#include "sonolink/util/result.h"

namespace sonolink::archive {

// Object metadata SonoLink stores with what it uploads (x-amz-meta-*): the whole object's CRC-32C
// (8 hex digits), checked again on every download.
inline constexpr const char* kCrc32cMetadata = "sonolink-crc32c";

struct ObjectInfo {
    std::string key;
    std::uint64_t sizeBytes = 0;
    std::string etag;                             // without quotes
    std::string lastModified;                     // as the server says it
    std::map<std::string, std::string> metadata;  // x-amz-meta-* (names lower-case, prefix removed)
};

struct TransferProgress {
    std::uint64_t bytesDone = 0;
    std::uint64_t bytesTotal = 0;
};

struct TransferControl {
    std::function<void(const TransferProgress&)> progress;  // serialised; keep it short
    const std::atomic<bool>* cancel = nullptr;              // set: the transfer ends as Cancelled
};

struct UploadOptions {
    std::filesystem::path journalDirectory;       // multipart journals; empty: not resumable
    std::map<std::string, std::string> metadata;  // more x-amz-meta-* (the CRC-32C is added)
};

struct UploadResult {
    ObjectInfo object;
    std::uint32_t crc32c = 0;  // the local bytes', equal to the stored bytes' as read back
    bool readBack = false;     // the stored object was read back whole and its CRC-32C compared
    int parts = 0;             // 0: one PUT
    int partsResumed = 0;      // parts a journal showed already stored
    int retries = 0;           // requests that were tried again
};

struct DownloadResult {
    ObjectInfo object;
    std::uint32_t crc32c = 0;
    bool crcChecked = false;  // the object carried our CRC-32C and it matched
    int retries = 0;
};

class S3Client {
public:
    // Checks the settings (endpoint URL, region, sizes); makes no request.
    [[nodiscard]] static Result<std::unique_ptr<S3Client>> create(S3Settings settings, S3Credentials credentials);
    ~S3Client();
    S3Client(const S3Client&) = delete;
    S3Client& operator=(const S3Client&) = delete;

    [[nodiscard]] const S3Settings& settings() const noexcept;

    [[nodiscard]] Status createBucket(const std::string& bucket);
    [[nodiscard]] Result<ObjectInfo> head(const S3Location& object);
    // Every object under the location's key as a prefix (all pages).
    [[nodiscard]] Result<std::vector<ObjectInfo>> list(const S3Location& prefix);
    [[nodiscard]] Status remove(const S3Location& object);

    // Exactly into.size() bytes from `offset`, written straight into `into`; a range the object
    // does not hold, or a short answer, is an Error (never a short buffer). A cut connection
    // resumes from the byte it reached.
    [[nodiscard]] Status readRange(const S3Location& object, std::uint64_t offset, std::span<std::byte> into, const std::atomic<bool>* cancel = nullptr);

    // The CRC-32C of the bytes the store holds for object (its first `size` bytes), read back by
    // ranges in parallel: a checksum over what is stored, not one anybody attached to it.
    [[nodiscard]] Result<std::uint32_t> storedCrc32c(const S3Location& object, std::uint64_t size, const std::atomic<bool>* cancel = nullptr);

    [[nodiscard]] Result<UploadResult> putBytes(std::span<const std::byte> bytes, const S3Location& object,
                                                const std::map<std::string, std::string>& metadata = {});
    [[nodiscard]] Result<UploadResult> uploadFile(const std::filesystem::path& file, const S3Location& object, const UploadOptions& options = {},
                                                  const TransferControl& control = {});
    // Into `file` (written beside it under a temporary name, renamed when whole and checked).
    [[nodiscard]] Result<DownloadResult> downloadFile(const S3Location& object, const std::filesystem::path& file, const TransferControl& control = {});

    struct Impl;

private:
    explicit S3Client(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

}  // namespace sonolink::archive
