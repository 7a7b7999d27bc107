// PAM with a conversation that answers the password prompt from memory (and refuses any other
// question it cannot answer), then wipes its copy of the password.
#include "sonolink/auth/reauthenticate.h"

#include <pwd.h>
#include <security/pam_appl.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include <fmt/format.h>

namespace sonolink::auth {
namespace {

struct Secret {
    std::string_view password;
};

int answer(int count, const struct pam_message** messages, struct pam_response** responses, void* data) {
    if (count <= 0) return PAM_CONV_ERR;
    auto* replies = static_cast<pam_response*>(std::calloc(static_cast<std::size_t>(count), sizeof(pam_response)));
    if (replies == nullptr) return PAM_BUF_ERR;
    const auto* secret = static_cast<const Secret*>(data);
    for (int i = 0; i < count; ++i) {
        switch (messages[i]->msg_style) {
            case PAM_PROMPT_ECHO_OFF: {  // the password
                auto* copy = static_cast<char*>(std::malloc(secret->password.size() + 1));
                if (copy == nullptr) {
                    std::free(replies);
                    return PAM_BUF_ERR;
                }
                std::memcpy(copy, secret->password.data(), secret->password.size());
                copy[secret->password.size()] = '\0';
                replies[i].resp = copy;  // PAM frees it
                break;
            }
            case PAM_ERROR_MSG:
            case PAM_TEXT_INFO: break;
            default:  // a question (echo on) nobody here can answer
                for (int j = 0; j < i; ++j) std::free(replies[j].resp);
                std::free(replies);
                return PAM_CONV_ERR;
        }
    }
    *responses = replies;
    return PAM_SUCCESS;
}

}  // namespace

Status reauthenticate(const std::string& user, std::string_view password, const char* service) {
    Secret secret{password};
    const pam_conv conversation{answer, &secret};
    pam_handle_t* handle = nullptr;
    if (const int started = pam_start(service, user.c_str(), &conversation, &handle); started != PAM_SUCCESS) {
        return fail(ErrorCode::Unavailable, fmt::format("PAM service '{}' cannot start: {}", service, pam_strerror(handle, started)));
    }
    int result = pam_authenticate(handle, PAM_DISALLOW_NULL_AUTHTOK);
    const char* step = "authentication";
    if (result == PAM_SUCCESS) {
        result = pam_acct_mgmt(handle, PAM_DISALLOW_NULL_AUTHTOK);
        step = "the account check";
    }
    const std::string why = pam_strerror(handle, result);
    pam_end(handle, result);
    if (result == PAM_SUCCESS) return {};
    return fail(ErrorCode::PermissionDenied, fmt::format("PAM ({} service) refused {} of the station user '{}': {}", service, step, user, why));
}

std::string printedName(const std::string& user) {
    std::vector<char> buffer(16384);
    passwd entry{};
    passwd* found = nullptr;
    if (::getpwnam_r(user.c_str(), &entry, buffer.data(), buffer.size(), &found) != 0 || found == nullptr || found->pw_gecos == nullptr) return user;
    std::string gecos(found->pw_gecos);
    gecos = gecos.substr(0, gecos.find(','));
    return gecos.empty() ? user : gecos;
}

}  // namespace sonolink::auth
