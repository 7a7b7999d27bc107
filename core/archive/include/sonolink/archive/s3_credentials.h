// S3 credentials and where they come from: the configuration, then the environment
// (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN), then a credentials file in the
// format awscli and s3cmd's users know (~/.aws/credentials, [profile] sections). The secret is
// never logged or printed: describe() names the source and the key id's first four characters.
// Thread contract: plain values; resolveCredentials reads the environment and one file.
#pragma once

#include <string>

#include "sonolink/util/result.h"

namespace sonolink::archive {

struct S3Credentials {
    std::string accessKeyId;
    std::string secretAccessKey;
    std::string sessionToken;  // temporary credentials (STS); empty: none
    std::string source;        // "configuration", "environment", "/root/.aws/credentials [default]"
    // "key AKIA… from environment": safe to print.
    [[nodiscard]] std::string describe() const;
};

struct CredentialSources {
    std::string accessKeyId;  // from the configuration; empty: not given there
    std::string secretAccessKey;
    std::string credentialsFile;  // empty: $AWS_SHARED_CREDENTIALS_FILE, else ~/.aws/credentials
    std::string profile;          // empty: $AWS_PROFILE, else "default"
};

// The first complete set, in the order above. None: NotFound naming every place looked at; a
// half set (a key id without its secret) or an unreadable file: InvalidArgument saying where.
[[nodiscard]] Result<S3Credentials> resolveCredentials(const CredentialSources& sources);

// The named profile of a credentials file's text (INI: [profile] then key = value lines).
[[nodiscard]] Result<S3Credentials> parseCredentialsFile(const std::string& text, const std::string& profile, const std::string& fileName);

}  // namespace sonolink::archive
