// Result<T>: tl::expected<T, Error>, returned by every fallible function at a module boundary.
// Make failures with fail(code, message); the call site is captured for the log.
// Exceptions never cross a module, a thread entry point or a C callback: they become Errors.
// Thread contract: plain values, no shared state.
#pragma once

#include <source_location>
#include <string>

#include <tl/expected.hpp>

#include "sonolink/util/error.h"

namespace sonolink {

template <typename T> using Result = tl::expected<T, Error>;

using Status = Result<void>;

[[nodiscard]] inline tl::unexpected<Error> fail(ErrorCode code, std::string message, std::source_location where = std::source_location::current()) {
    return tl::unexpected<Error>(Error(code, std::move(message), where));
}

[[nodiscard]] inline tl::unexpected<Error> fail(Error error) { return tl::unexpected<Error>(std::move(error)); }

}  // namespace sonolink
