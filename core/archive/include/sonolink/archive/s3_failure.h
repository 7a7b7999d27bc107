// What went wrong with one S3 request, whether trying again can help, and the Error a user
// reads. Heals: 5xx, throttling (429, SlowDown), request timeouts, connection resets and
// refusals. Never retried: 403 (bad signature, unknown or expired key, denied), 404, a skewed
// clock, TLS certificate failures, a wrong checksum (the data or the request must change).
// Thread contract: pure functions.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "sonolink/archive/s3_settings.h"
#include "sonolink/util/error.h"

namespace sonolink::archive {

enum class FailureKind : std::uint8_t {
    Transient,    // try again later
    Credentials,  // 403: key, signature, permission, expired token
    Clock,        // RequestTimeTooSkewed: the station's clock is wrong
    NotFound,     // 404: no such bucket, key or upload
    Tls,          // certificate or TLS handshake
    Integrity,    // a checksum disagrees, or fewer bytes than promised
    Request,      // anything else the server refused (4xx): our request must change
};

struct S3Failure {
    int httpStatus = 0;         // 0: no answer
    int transportCode = 0;      // libcurl's CURLcode, 0: none
    std::string transportText;  // its text ("Connection refused")
    std::string s3Code;         // <Code> of the answer ("SlowDown", "SignatureDoesNotMatch")
    std::string s3Message;      // <Message>
    std::string note;           // our own finding ("got 512 of 1024 bytes")
};

[[nodiscard]] FailureKind classify(const S3Failure& failure) noexcept;
[[nodiscard]] bool isRetryable(const S3Failure& failure) noexcept;
[[nodiscard]] std::string_view toString(FailureKind kind) noexcept;

// "PUT s3://b/k: HTTP 403 SignatureDoesNotMatch: <message> (credentials: not retried)" and,
// after retries, "... after 6 attempts over 12.4 s". Codes: Unavailable (transient),
// PermissionDenied, NotFound, FailedPrecondition (clock, TLS), DataLoss, InvalidArgument.
[[nodiscard]] Error toError(const S3Failure& failure, std::string_view request, int attempts, std::chrono::milliseconds spent);

// The delay before the next attempt after `attempt` failures (1-based), full jitter:
// uniform in [0, min(maxDelay, baseDelay * 2^(attempt-1))], from 64 random bits.
[[nodiscard]] std::chrono::milliseconds backoffDelay(const RetrySettings& retry, int attempt, std::uint64_t randomBits) noexcept;

}  // namespace sonolink::archive
