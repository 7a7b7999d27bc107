// One connection to the object store: a libcurl easy handle (kept alive between requests) that
// sends one signed request at a time. SigV4 signing is libcurl's (CURLOPT_AWS_SIGV4); the
// payload's SHA-256 goes in x-amz-content-sha256, signed, so the server checks every body.
// Thread contract: one thread at a time (the client's pool hands each to one request).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <vector>

#include <tl/expected.hpp>

#include "sonolink/archive/s3_credentials.h"
#include "sonolink/archive/s3_failure.h"
#include "sonolink/archive/s3_settings.h"

namespace sonolink::archive {

struct HttpCall {
    std::string method = "GET";        // GET, HEAD, PUT, POST, DELETE
    std::string target;                // "/bucket/key?name=value", encoded, query sorted
    std::vector<std::string> headers;  // "Name: value", signed with the rest
    std::span<const std::byte> body;   // PUT and POST
    std::string payloadSha256;         // hex; empty: computed here from body
    // Where a 2xx answer's body goes (false: stop, the call fails as cancelled); none: into
    // HttpAnswer::body. Error answers always go to HttpAnswer::body.
    std::function<bool(std::span<const std::byte>)> sink;
    std::uint64_t expectedBytes = 0;  // what moves either way: scales the time limit
    const std::atomic<bool>* cancel = nullptr;
};

struct HttpAnswer {
    long status = 0;
    std::map<std::string, std::string> headers;  // names lower-case
    std::string body;
};

class CurlConnection {
public:
    CurlConnection(const S3Settings& settings, const S3Credentials& credentials);
    ~CurlConnection();
    CurlConnection(const CurlConnection&) = delete;
    CurlConnection& operator=(const CurlConnection&) = delete;

    // The answer when it is 2xx; otherwise what failed (transport, or the server's error).
    [[nodiscard]] tl::expected<HttpAnswer, S3Failure> perform(const HttpCall& call);

private:
    // Adds Host, x-amz-date and Authorization to `sent` (sigv4.h says when and why).
    void signHere(const HttpCall& call, std::vector<std::string>& sent) const;
    // The headers to send for `call`, signed here or (options set on the handle) by libcurl.
    std::vector<std::string> headersToSend(const HttpCall& call, bool hasBody, void* handle) const;
    const S3Settings& settings_;
    const S3Credentials& credentials_;
    void* easy_ = nullptr;  // CURL*
    int socket_ = -1;       // the connection's socket while it is open (SO_RCVLOWAT is set on it)
};

// Once per process, before any connection (thread-safe).
void initialiseCurl();

}  // namespace sonolink::archive
