// S3Client's insides, shared by its source files: the settings, a pool of kept-alive
// connections, and run(), which sends a request and tries it again, with back-off and jitter,
// while its failure can heal.
// Thread contract: every member is safe to use from any thread at once.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "curl_connection.h"
#include "sonolink/archive/s3_client.h"

namespace sonolink::archive {

using Attempt = std::function<tl::expected<HttpAnswer, S3Failure>(CurlConnection&)>;

struct S3Client::Impl {
    S3Settings settings;
    S3Credentials credentials;
    std::mutex poolMutex;
    std::vector<std::unique_ptr<CurlConnection>> idle;

    // Sends attempt() until it succeeds, fails for good, runs out of attempts or is cancelled.
    // `what` names the request in the error ("PUT s3://b/k part 3"); retries counts the extra
    // attempts made.
    Result<HttpAnswer> run(std::string_view what, const Attempt& attempt, const std::atomic<bool>* cancel = nullptr, int* retries = nullptr);

    // "/bucket/encoded/key?query" (query already canonical: sorted, encoded, "name=value").
    [[nodiscard]] std::string target(const S3Location& object, std::string_view query = {}) const;
    // The SSE-C headers when a customer key is set (on PUT, UploadPart, initiate, GET, HEAD).
    [[nodiscard]] std::vector<std::string> customerKeyHeaders() const;
    [[nodiscard]] Result<HttpAnswer> call(std::string_view what, HttpCall call, int* retries = nullptr);

private:
    std::unique_ptr<CurlConnection> acquire();
    void release(std::unique_ptr<CurlConnection> connection);
};

[[nodiscard]] ObjectInfo objectFromHeaders(const std::string& key, const HttpAnswer& answer);

}  // namespace sonolink::archive
