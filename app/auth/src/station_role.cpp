#include "sonolink/auth/station_role.h"

#include <grp.h>
#include <pwd.h>

#include <algorithm>
#include <vector>

#include <fmt/format.h>

namespace sonolink::auth {

Status requireRole(const std::string& user, const std::string& group) {
    std::vector<char> buffer(65536);
    ::group entry{};
    ::group* found = nullptr;
    if (::getgrnam_r(group.c_str(), &entry, buffer.data(), buffer.size(), &found) != 0 || found == nullptr) {
        return fail(ErrorCode::FailedPrecondition, fmt::format("this station has no group '{}' for its engineers: create it and add them "
                                                               "(groupadd {} && usermod -aG {} USER), or name another in selftest.engineer_group",
                                                               group, group, group));
    }
    const gid_t wanted = found->gr_gid;
    std::vector<char> userBuffer(16384);
    ::passwd account{};
    ::passwd* who = nullptr;
    if (::getpwnam_r(user.c_str(), &account, userBuffer.data(), userBuffer.size(), &who) != 0 || who == nullptr) {
        return fail(ErrorCode::FailedPrecondition, fmt::format("this station has no account '{}'", user));
    }
    int count = 64;
    std::vector<gid_t> groups(static_cast<std::size_t>(count));
    if (::getgrouplist(user.c_str(), who->pw_gid, groups.data(), &count) < 0) {
        groups.resize(static_cast<std::size_t>(count));
        if (::getgrouplist(user.c_str(), who->pw_gid, groups.data(), &count) < 0) count = 0;
    }
    groups.resize(static_cast<std::size_t>(std::max(count, 0)));
    if (std::find(groups.begin(), groups.end(), wanted) != groups.end()) return {};
    return fail(ErrorCode::PermissionDenied, fmt::format("{} is not one of the station's engineers (group '{}'): only an engineer may do this; "
                                                         "ask the engineer to log in",
                                                         user, group));
}

}  // namespace sonolink::auth
