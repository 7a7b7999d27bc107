// Error: the one error value every SonoLink module returns at its boundary (see result.h).
// Canonical codes follow abseil's set, with its retry meaning: Unavailable -> retry the call;
// FailedPrecondition -> fix state first. Code 0 is Ok and never a real error.
// Plain value type: copyable, safe to hand between threads; no method blocks or allocates
// beyond its own strings.
#pragma once

#include <cstdint>
#include <source_location>
#include <string>
#include <string_view>
#include <vector>

namespace sonolink {

enum class ErrorCode : std::uint8_t {
    Ok = 0,
    Cancelled,
    InvalidArgument,
    DeadlineExceeded,
    NotFound,
    FailedPrecondition,
    ResourceExhausted,
    Unavailable,
    DataLoss,
    Unimplemented,
    Internal,
    PermissionDenied,  // the caller could not prove who they are, or may not do this
};

[[nodiscard]] std::string_view toString(ErrorCode code) noexcept;

class Error {
public:
    Error(ErrorCode code, std::string message, std::source_location where = std::source_location::current());

    [[nodiscard]] ErrorCode code() const noexcept { return code_; }
    [[nodiscard]] const std::string& message() const noexcept { return message_; }
    [[nodiscard]] const std::source_location& where() const noexcept { return where_; }
    // What the callers were doing when it failed, innermost first ("while opening X").
    [[nodiscard]] const std::vector<std::string>& context() const noexcept { return context_; }
    // Independent findings behind one error (e.g. every bad value of a config file).
    [[nodiscard]] const std::vector<std::string>& details() const noexcept { return details_; }

    Error& addContext(std::string what) &;
    Error&& addContext(std::string what) &&;
    Error& addDetail(std::string detail) &;
    Error&& addDetail(std::string detail) &&;

    // "InvalidArgument: message (while a; while b)" followed by one line per detail.
    [[nodiscard]] std::string describe() const;

private:
    ErrorCode code_;
    std::string message_;
    std::source_location where_;
    std::vector<std::string> context_;
    std::vector<std::string> details_;
};

}  // namespace sonolink
