// Exit codes of sonolink-cli, documented in docs/cli.md. Stable: scripts depend on them. And
// reportError(): how a command reports a failed step (what failed, the details) and which code
// it exits with.
#pragma once

#include <iostream>
#include <string_view>

#include "sonolink/util/error.h"

namespace sonolink::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailed = 1;       // the command ran and found a problem (e.g. invalid config)
inline constexpr int kExitUsage = 2;        // bad command line
inline constexpr int kExitUnavailable = 3;  // the link, the front end or a device is unavailable or was lost

// 3 when a retry can help (Unavailable), else 1.
inline int exitCodeFor(const Error& e) { return e.code() == ErrorCode::Unavailable ? kExitUnavailable : kExitFailed; }

// "sonolink-cli <command>: <message>" and each detail on stderr; returns exitCodeFor(e).
inline int reportError(std::string_view command, const Error& e) {
    std::cerr << "sonolink-cli " << command << ": " << e.message() << '\n';
    for (const auto& detail : e.details()) std::cerr << "  " << detail << '\n';
    return exitCodeFor(e);
}

}  // namespace sonolink::cli
