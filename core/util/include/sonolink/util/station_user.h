// The station user: the account this process runs as (its effective uid), by name, or
// "uid N" where the account has none. Who an override, a report or an audit message names.
// Thread contract: thread-safe.
#pragma once

#include <string>

namespace sonolink {

[[nodiscard]] std::string stationUser();

}  // namespace sonolink
