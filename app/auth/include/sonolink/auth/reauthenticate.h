// Re-authentication of a station user through PAM (Linux-PAM's pam_authenticate and
// pam_acct_mgmt), as 21 CFR Part 11 asks before an electronic signature or an override: the
// user proves again who they are, with the password the PAM service checks. The service is
// "sonolink" (/etc/pam.d/sonolink; where absent, PAM's "other"). Nothing is cached.
// Thread contract: thread-safe (each call its own PAM handle); it blocks while PAM checks.
#pragma once

#include <string>
#include <string_view>

#include "sonolink/util/result.h"

namespace sonolink::auth {

inline constexpr const char* kPamService = "sonolink";

// Ok when PAM accepts `password` for `user` and the account is valid. PermissionDenied when it
// does not (the message says which check refused, never the password); Unavailable when PAM
// cannot be asked.
[[nodiscard]] Status reauthenticate(const std::string& user, std::string_view password, const char* service = kPamService);

// The user's full name from the account's GECOS field (up to its first comma), else the name.
[[nodiscard]] std::string printedName(const std::string& user);

}  // namespace sonolink::auth
