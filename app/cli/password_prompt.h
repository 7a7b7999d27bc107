// The station user's password for a re-authentication (a signature, an override): read at the
// terminal with echo off, or as the first line of standard input (--password-stdin).
// Thread contract: main thread only (it owns the terminal while it asks).
#pragma once

#include <optional>
#include <string>

namespace sonolink::cli {

// nullopt: no terminal to ask at (and not fromStdin).
[[nodiscard]] std::optional<std::string> readPassword(const std::string& user, const char* purpose, bool fromStdin);

}  // namespace sonolink::cli
