#include "sonolink/archive/s3_credentials.h"

#include <cstdlib>
#include <iterator>
#include <sstream>

#include <fmt/format.h>

#include "encoding.h"
#include "sonolink/util/durable_file.h"

namespace sonolink::archive {
namespace {

std::string environment(const char* name) {
    const char* value = std::getenv(name);
    return value ? value : "";
}

Result<S3Credentials> complete(S3Credentials c, std::string_view where) {
    if (c.accessKeyId.empty() != c.secretAccessKey.empty()) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{} gives {} without {}", where, c.accessKeyId.empty() ? "a secret key" : "an access key id",
                                                            c.accessKeyId.empty() ? "its access key id" : "its secret key"));
    }
    return c;
}

}  // namespace

std::string S3Credentials::describe() const { return fmt::format("key {}… from {}", accessKeyId.substr(0, 4), source); }

Result<S3Credentials> parseCredentialsFile(const std::string& text, const std::string& profile, const std::string& fileName) {
    std::istringstream in(text);
    std::string line, section;
    bool found = false;
    S3Credentials c;
    int lineNumber = 0;
    while (std::getline(in, line)) {
        ++lineNumber;
        const std::string t = trimmed(line);
        if (t.empty() || t[0] == '#' || t[0] == ';') continue;
        if (t.front() == '[') {
            if (t.back() != ']') return fail(ErrorCode::InvalidArgument, fmt::format("{}:{}: a section line must end with ']'", fileName, lineNumber));
            section = trimmed(std::string_view(t).substr(1, t.size() - 2));
            if (section.starts_with("profile ")) section = trimmed(std::string_view(section).substr(8));
            found = found || section == profile;
            continue;
        }
        if (section != profile) continue;
        const auto eq = t.find('=');
        if (eq == std::string::npos) return fail(ErrorCode::InvalidArgument, fmt::format("{}:{}: expected 'name = value'", fileName, lineNumber));
        const std::string name = trimmed(std::string_view(t).substr(0, eq));
        const std::string value = trimmed(std::string_view(t).substr(eq + 1));
        if (name == "aws_access_key_id") c.accessKeyId = value;
        else if (name == "aws_secret_access_key") c.secretAccessKey = value;
        else if (name == "aws_session_token") c.sessionToken = value;
    }
    const std::string where = fmt::format("{} [{}]", fileName, profile);
    if (!found || (c.accessKeyId.empty() && c.secretAccessKey.empty())) {
        return fail(ErrorCode::NotFound, fmt::format("{}: no such profile with keys", where));
    }
    c.source = where;
    return complete(std::move(c), where);
}

Result<S3Credentials> resolveCredentials(const CredentialSources& sources) {
    std::vector<std::string> looked;
    if (!sources.accessKeyId.empty() || !sources.secretAccessKey.empty()) {
        return complete({sources.accessKeyId, sources.secretAccessKey, "", "configuration"}, "the configuration");
    }
    looked.push_back("the configuration (archive.access_key_id)");
    S3Credentials env{environment("AWS_ACCESS_KEY_ID"), environment("AWS_SECRET_ACCESS_KEY"), environment("AWS_SESSION_TOKEN"), "environment"};
    if (!env.accessKeyId.empty() || !env.secretAccessKey.empty()) return complete(std::move(env), "the environment (AWS_ACCESS_KEY_ID)");
    looked.push_back("the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)");

    std::string file = sources.credentialsFile;
    if (file.empty()) file = environment("AWS_SHARED_CREDENTIALS_FILE");
    if (file.empty() && !environment("HOME").empty()) file = environment("HOME") + "/.aws/credentials";
    std::string profile = sources.profile.empty() ? environment("AWS_PROFILE") : sources.profile;
    if (profile.empty()) profile = "default";
    if (!file.empty()) {
        auto read = readRegularFile(file, std::size_t(1) << 20, "the credentials file");
        if (read) {
            auto parsed = parseCredentialsFile(*read, profile, file);
            if (parsed || parsed.error().code() != ErrorCode::NotFound) return parsed;
            looked.push_back(parsed.error().message());
        } else if (!sources.credentialsFile.empty() || read.error().code() != ErrorCode::NotFound) {
            return fail(ErrorCode::InvalidArgument, fmt::format("{} (archive.credentials_file)", read.error().message()));
        } else {
            looked.push_back(fmt::format("{} (none)", file));
        }
    }
    Error error(ErrorCode::NotFound, "no S3 credentials found");
    for (auto& place : looked) error.addDetail("looked in " + place);
    return fail(std::move(error));
}

}  // namespace sonolink::archive
