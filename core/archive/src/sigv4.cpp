#include "sigv4.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>

#include <openssl/hmac.h>

#include <fmt/format.h>

#include "encoding.h"

namespace sonolink::archive {
namespace {

std::array<std::uint8_t, 32> hmac(std::span<const std::uint8_t> key, std::string_view data) {
    std::array<std::uint8_t, 32> out{};
    unsigned int size = 0;
    HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(data.data()), data.size(), out.data(), &size);
    return out;
}

}  // namespace

bool curlSignerMisorders(const std::vector<std::string>& headers) {
    std::vector<std::string> names;
    for (const auto& h : headers) names.push_back(lowerCase(h.substr(0, h.find(':'))));
    for (const auto& a : names) {
        for (const auto& b : names) {
            if (b.size() > a.size() && b.starts_with(a) && b[a.size()] < ':') return true;  // '-' sorts before ':'
        }
    }
    return false;
}

std::string sigV4Authorization(const SigV4Request& r, const S3Credentials& credentials, const std::string& region, const std::string& amzDate) {
    std::map<std::string, std::string> headers;  // sorted by name, as SigV4 wants
    for (const auto& [name, value] : r.headers) headers[lowerCase(name)] = trimmed(value);
    std::string canonicalHeaders, signedHeaders;
    for (const auto& [name, value] : headers) {
        canonicalHeaders += name + ":" + value + "\n";
        signedHeaders += (signedHeaders.empty() ? "" : ";") + name;
    }
    const std::string canonicalRequest =
        fmt::format("{}\n{}\n{}\n{}\n{}\n{}", r.method, r.canonicalUri, r.canonicalQuery, canonicalHeaders, signedHeaders, r.payloadSha256);
    const std::string date = amzDate.substr(0, 8);
    const std::string scope = fmt::format("{}/{}/s3/aws4_request", date, region);
    const std::string toSign =
        fmt::format("AWS4-HMAC-SHA256\n{}\n{}\n{}", amzDate, scope, sha256Hex(std::as_bytes(std::span(canonicalRequest.data(), canonicalRequest.size()))));
    const std::string secret = "AWS4" + credentials.secretAccessKey;
    auto key = hmac(std::span(reinterpret_cast<const std::uint8_t*>(secret.data()), secret.size()), date);
    key = hmac(key, region);
    key = hmac(key, "s3");
    key = hmac(key, "aws4_request");
    const auto signature = hmac(key, toSign);
    return fmt::format("AWS4-HMAC-SHA256 Credential={}/{}, SignedHeaders={}, Signature={}", credentials.accessKeyId, scope, signedHeaders,
                       encodeHex(signature));
}

}  // namespace sonolink::archive
