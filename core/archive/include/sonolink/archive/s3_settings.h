// How SonoLink reaches an S3-compatible object store (Ceph radosgw, MinIO, a cloud): the endpoint,
// its region, TLS, timeouts, retries, multipart sizes and an optional customer key (SSE-C), and
// where an s3://bucket/key names an object. Credentials are apart (s3_credentials.h).
// Thread contract: plain values; parseS3Url is a pure function.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "sonolink/util/result.h"

namespace sonolink::archive {

// Retries of the errors that can heal (5xx, throttling, connection resets, timeouts): delay
// before attempt n+1 is uniform in [0, min(maxDelay, baseDelay * 2^n)] ("full jitter").
struct RetrySettings {
    int maxAttempts = 6;
    std::chrono::milliseconds baseDelay{200};
    std::chrono::milliseconds maxDelay{20'000};
};

struct S3Settings {
    std::string endpoint;              // http(s)://host[:port], path-style addressing
    std::string region = "us-east-1";  // the signing region (radosgw: its zonegroup's name)
    std::string caFile;                // PEM CAs to trust; empty: the system's
    bool verifyTls = true;             // certificate and host name checks (never off in production)
    std::chrono::seconds connectTimeout{30};
    // A request fails when no byte moved for stallTimeout, or when it outlasts
    // requestTimeoutBase + its bytes / minRateBytesPerS: the limit scales with the request.
    std::chrono::seconds stallTimeout{60};
    std::chrono::seconds requestTimeoutBase{60};
    double minRateBytesPerS = 1 << 20;
    RetrySettings retry;
    std::size_t partSizeBytes = std::size_t(32) << 20;           // multipart above this, parts of this size
    int parallelRequests = 4;                                    // parts (or ranges) in flight at once
    std::optional<std::array<std::uint8_t, 32>> sseCustomerKey;  // SSE-C (AES-256), never logged
};

// s3://bucket/key
struct S3Location {
    std::string bucket;
    std::string key;  // may be empty (a bucket, or a prefix to list)
    [[nodiscard]] std::string url() const { return "s3://" + bucket + (key.empty() ? "" : "/" + key); }
};

// "s3://bucket/key/with/slashes" -> {bucket, key}. Bucket names as S3 allows (3-63 of a-z 0-9 . -).
[[nodiscard]] Result<S3Location> parseS3Url(std::string_view url);
[[nodiscard]] bool isS3Url(std::string_view text) noexcept;

// Reads a 32-byte SSE-C key from a file (raw 32 bytes, or 64 hex digits, or its base64).
[[nodiscard]] Result<std::array<std::uint8_t, 32>> readCustomerKeyFile(const std::string& path);

}  // namespace sonolink::archive
