// Station roles: whether a station user holds the engineer's role, which the self-test policy,
// overrides, signatures of QA reports and the settings that affect safety ask for. The role is a
// Unix group of the station's own accounts (selftest.engineer_group; the package's default
// "sonolink-engineers"), its members as the system's group database lists them.
// Thread contract: thread-safe (reentrant lookups); it may block on NSS (LDAP, SSSD).
#pragma once

#include <string>

#include "sonolink/util/result.h"

namespace sonolink::auth {

inline constexpr const char* kDefaultEngineerGroup = "sonolink-engineers";

// Ok when user belongs to group (as primary or supplementary group). PermissionDenied naming
// the user and the group when not; FailedPrecondition when the station has no such group or no
// such user (with how to create it).
[[nodiscard]] Status requireRole(const std::string& user, const std::string& group);

}  // namespace sonolink::auth
