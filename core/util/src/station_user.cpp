#include "sonolink/util/station_user.h"

#include <pwd.h>
#include <unistd.h>

#include <vector>

namespace sonolink {

std::string stationUser() {
    const auto uid = ::geteuid();
    std::vector<char> buffer(16384);
    passwd account{};
    passwd* found = nullptr;
    if (::getpwuid_r(uid, &account, buffer.data(), buffer.size(), &found) == 0 && found != nullptr) return found->pw_name;
    return "uid " + std::to_string(uid);
}

}  // namespace sonolink
