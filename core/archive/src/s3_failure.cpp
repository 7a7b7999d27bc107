#include "sonolink/archive/s3_failure.h"

#include <algorithm>

#include <fmt/format.h>

namespace sonolink::archive {
namespace {

// libcurl's codes we classify (curl.h; kept here so this file needs no curl header).
enum CurlCode : int {
    kCouldntResolveHost = 6,
    kCouldntConnect = 7,
    kPartialFile = 18,
    kOperationTimedOut = 28,
    kAbortedByCallback = 42,
    kSslConnectError = 35,
    kGotNothing = 52,
    kSendError = 55,
    kRecvError = 56,
    kPeerFailedVerification = 60,
    kSslCacertBadfile = 77,
    kHttp2Stream = 92,
};

bool isOneOf(std::string_view code, std::initializer_list<std::string_view> codes) { return std::find(codes.begin(), codes.end(), code) != codes.end(); }

}  // namespace

std::string_view toString(FailureKind kind) noexcept {
    switch (kind) {
        case FailureKind::Transient: return "transient";
        case FailureKind::Credentials: return "credentials";
        case FailureKind::Clock: return "clock";
        case FailureKind::NotFound: return "not found";
        case FailureKind::Tls: return "TLS";
        case FailureKind::Integrity: return "integrity";
        case FailureKind::Request: return "request";
    }
    return "unknown";
}

FailureKind classify(const S3Failure& f) noexcept {
    if (f.transportCode != 0) {
        switch (f.transportCode) {
            case kSslConnectError:
            case kPeerFailedVerification:
            case kSslCacertBadfile: return FailureKind::Tls;
            case kAbortedByCallback: return FailureKind::Request;
            default: return FailureKind::Transient;  // refused, reset, timed out, nothing received
        }
    }
    if (isOneOf(f.s3Code, {"RequestTimeTooSkewed"})) return FailureKind::Clock;
    if (isOneOf(f.s3Code, {"InvalidAccessKeyId", "SignatureDoesNotMatch", "AccessDenied", "ExpiredToken", "InvalidToken", "TokenRefreshRequired"})) {
        return FailureKind::Credentials;
    }
    if (isOneOf(f.s3Code, {"XAmzContentSHA256Mismatch", "BadDigest", "InvalidDigest"}) || (!f.note.empty() && f.httpStatus < 300)) {
        return FailureKind::Integrity;
    }
    if (isOneOf(f.s3Code, {"SlowDown", "Throttling", "ThrottlingException", "RequestTimeout", "InternalError", "ServiceUnavailable", "RequestLimitExceeded",
                           "TooManyRequests", "IncompleteBody"})) {
        return FailureKind::Transient;
    }
    if (f.httpStatus >= 500 || f.httpStatus == 429 || f.httpStatus == 408) return FailureKind::Transient;
    if (f.httpStatus == 401 || f.httpStatus == 403) return FailureKind::Credentials;
    if (f.httpStatus == 404) return FailureKind::NotFound;
    return FailureKind::Request;
}

bool isRetryable(const S3Failure& f) noexcept { return classify(f) == FailureKind::Transient; }

Error toError(const S3Failure& f, std::string_view request, int attempts, std::chrono::milliseconds spent) {
    std::string what;
    if (f.transportCode != 0) {
        what = fmt::format("{} (curl {})", f.transportText.empty() ? "transport error" : f.transportText, f.transportCode);
    } else {
        what = fmt::format("HTTP {}{}{}", f.httpStatus, f.s3Code.empty() ? "" : " " + f.s3Code, f.s3Message.empty() ? "" : ": " + f.s3Message);
    }
    if (!f.note.empty()) what = f.transportCode == 0 && f.httpStatus < 300 ? f.note : what + "; " + f.note;
    const FailureKind kind = classify(f);
    std::string advice;
    ErrorCode code = ErrorCode::InvalidArgument;
    switch (kind) {
        case FailureKind::Transient: code = ErrorCode::Unavailable; break;
        case FailureKind::Credentials:
            code = ErrorCode::PermissionDenied;
            advice = "the access key, its secret or its rights must be fixed: not retried";
            break;
        case FailureKind::Clock:
            code = ErrorCode::FailedPrecondition;
            advice = "the station's clock differs from the server's by more than S3 allows (15 min): set the clock, not retried";
            break;
        case FailureKind::NotFound: code = ErrorCode::NotFound; break;
        case FailureKind::Tls:
            code = ErrorCode::FailedPrecondition;
            advice = "the server's certificate is not trusted (archive.ca_file) or TLS failed: not retried";
            break;
        case FailureKind::Integrity:
            code = ErrorCode::DataLoss;
            advice = "the data did not arrive as sent: not retried";
            break;
        case FailureKind::Request:
            code = f.transportCode == kAbortedByCallback ? ErrorCode::Cancelled : ErrorCode::InvalidArgument;
            if (code == ErrorCode::Cancelled) what = "cancelled";
            break;
    }
    std::string message = fmt::format("{}: {}", request, what);
    if (!advice.empty()) message += fmt::format(" ({})", advice);
    if (attempts > 1) message += fmt::format(" after {} attempts over {:.1f} s", attempts, static_cast<double>(spent.count()) / 1000.0);
    return Error(code, std::move(message));
}

std::chrono::milliseconds backoffDelay(const RetrySettings& retry, int attempt, std::uint64_t randomBits) noexcept {
    const int doublings = std::clamp(attempt - 1, 0, 30);
    const auto ceiling = std::min<std::int64_t>(retry.maxDelay.count(), retry.baseDelay.count() << doublings);
    if (ceiling <= 0) return std::chrono::milliseconds(0);
    const double unit = static_cast<double>(randomBits >> 11) / static_cast<double>(std::uint64_t(1) << 53);  // [0, 1)
    return std::chrono::milliseconds(static_cast<std::int64_t>(unit * static_cast<double>(ceiling + 1)));
}

}  // namespace sonolink::archive
