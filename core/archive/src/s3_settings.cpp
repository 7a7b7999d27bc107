#include "sonolink/archive/s3_settings.h"

#include <cctype>
#include <iterator>

#include <fmt/format.h>

#include "encoding.h"
#include "sonolink/util/durable_file.h"

namespace sonolink::archive {
namespace {

std::string bucketProblem(std::string_view bucket) {
    if (bucket.size() < 3 || bucket.size() > 63) return "must be 3 to 63 characters";
    for (char c : bucket) {
        if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == '-')) {
            return "may hold only a-z, 0-9, '.' and '-'";
        }
    }
    if (!std::isalnum(static_cast<unsigned char>(bucket.front())) || !std::isalnum(static_cast<unsigned char>(bucket.back()))) {
        return "must begin and end with a letter or digit";
    }
    return {};
}

}  // namespace

bool isS3Url(std::string_view text) noexcept { return text.starts_with("s3://"); }

Result<S3Location> parseS3Url(std::string_view url) {
    if (!isS3Url(url)) return fail(ErrorCode::InvalidArgument, fmt::format("'{}' is not an s3://bucket/key URL", url));
    std::string_view rest = url.substr(5);
    const auto slash = rest.find('/');
    S3Location location{std::string(rest.substr(0, slash)), slash == std::string_view::npos ? "" : std::string(rest.substr(slash + 1))};
    if (auto problem = bucketProblem(location.bucket); !problem.empty()) {
        return fail(ErrorCode::InvalidArgument, fmt::format("'{}': bucket name '{}' {}", url, location.bucket, problem));
    }
    if (location.key.size() > 1024) return fail(ErrorCode::InvalidArgument, fmt::format("'{}': a key is at most 1024 bytes", url));
    return location;
}

Result<std::array<std::uint8_t, 32>> readCustomerKeyFile(const std::string& path) {
    auto read = readRegularFile(path, 4096, "the SSE-C key file");
    if (!read) return fail(std::move(read.error()));
    std::string text = std::move(*read);
    std::array<std::uint8_t, 32> key{};
    if (text.size() == key.size()) {
        std::copy(text.begin(), text.end(), key.begin());
        return key;
    }
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
    std::vector<std::uint8_t> bytes;
    if (text.size() == 64 && decodeHex(text, bytes) && bytes.size() == 32) {
        std::copy(bytes.begin(), bytes.end(), key.begin());
        return key;
    }
    if (decodeBase64(text, bytes) && bytes.size() == 32) {
        std::copy(bytes.begin(), bytes.end(), key.begin());
        return key;
    }
    return fail(ErrorCode::InvalidArgument, fmt::format("the SSE-C key file '{}' must hold a 256-bit key: 32 bytes, 64 hex digits or "
                                                        "its base64 (it holds {} bytes)",
                                                        path, text.size()));
}

}  // namespace sonolink::archive
