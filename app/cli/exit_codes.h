// Exit codes of sonolink-cli, documented in docs/cli.md. Stable: scripts depend on them.
#pragma once

namespace sonolink::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailed = 1;     // the command ran and found a problem (e.g. invalid config)
inline constexpr int kExitUsage = 2;      // bad command line
inline constexpr int kExitUnavailable = 3;// the link, the front end or a device is unavailable or was lost

}  // namespace sonolink::cli
