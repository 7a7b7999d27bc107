#include "sonolink/archive/s3_client.h"

#include <chrono>
#include <random>
#include <set>
#include <thread>

#include <fmt/format.h>

#include "client_impl.h"
#include "encoding.h"
#include "s3_xml.h"

namespace sonolink::archive {
namespace {

using Clock = std::chrono::steady_clock;

std::uint64_t randomBits() {
    thread_local std::mt19937_64 engine{std::random_device{}()};
    return engine();
}

// Sleeps up to `delay`, in short slices so that a cancel is seen soon.
bool sleepUnlessCancelled(std::chrono::milliseconds delay, const std::atomic<bool>* cancel) {
    const auto until = Clock::now() + delay;
    while (Clock::now() < until) {
        if (cancel && cancel->load()) return false;
        std::this_thread::sleep_for(std::min<Clock::duration>(std::chrono::milliseconds(50), until - Clock::now()));
    }
    return !(cancel && cancel->load());
}

Status checkSettings(const S3Settings& s) {
    if (!s.endpoint.starts_with("http://") && !s.endpoint.starts_with("https://")) {
        return fail(ErrorCode::InvalidArgument, fmt::format("archive endpoint '{}' must start with http:// or https://", s.endpoint));
    }
    if (s.endpoint.ends_with("/")) return fail(ErrorCode::InvalidArgument, fmt::format("archive endpoint '{}' must not end with '/'", s.endpoint));
    if (s.region.empty()) return fail(ErrorCode::InvalidArgument, "archive region must not be empty");
    if (s.partSizeBytes < (std::size_t(5) << 20) || s.partSizeBytes > (std::size_t(5) << 30)) {
        return fail(ErrorCode::InvalidArgument, fmt::format("archive part size {} must be 5 MiB to 5 GiB (S3's limits)", s.partSizeBytes));
    }
    if (s.parallelRequests < 1 || s.parallelRequests > 64) return fail(ErrorCode::InvalidArgument, "archive parallel requests must be 1 to 64");
    if (s.retry.maxAttempts < 1) return fail(ErrorCode::InvalidArgument, "archive retry attempts must be at least 1");
    return {};
}

}  // namespace

std::unique_ptr<CurlConnection> S3Client::Impl::acquire() {
    {
        std::lock_guard lock(poolMutex);
        if (!idle.empty()) {
            auto c = std::move(idle.back());
            idle.pop_back();
            return c;
        }
    }
    return std::make_unique<CurlConnection>(settings, credentials);
}

void S3Client::Impl::release(std::unique_ptr<CurlConnection> connection) {
    std::lock_guard lock(poolMutex);
    idle.push_back(std::move(connection));
}

Result<HttpAnswer> S3Client::Impl::run(std::string_view what, const Attempt& attempt, const std::atomic<bool>* cancel, int* retries) {
    const auto start = Clock::now();
    for (int n = 1;; ++n) {
        auto connection = acquire();
        auto answer = attempt(*connection);
        release(std::move(connection));
        if (answer) return std::move(*answer);
        const auto spent = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
        if (!isRetryable(answer.error()) || n >= settings.retry.maxAttempts) {
            auto error = toError(answer.error(), what, n, spent);
            // Temporary credentials refused: radosgw says only AccessDenied (or, to a HEAD,
            // nothing) for an expired session token, so the likeliest cause is said here.
            if (classify(answer.error()) != FailureKind::Credentials || credentials.sessionToken.empty()) return fail(std::move(error));
            return fail(error.code(), fmt::format("{}; these are temporary credentials (a session token, from {}): they may have expired, get new ones",
                                                  error.message(), credentials.source));
        }
        if (!sleepUnlessCancelled(backoffDelay(settings.retry, n, randomBits()), cancel)) {
            return fail(ErrorCode::Cancelled, fmt::format("{}: cancelled while waiting to try again", what));
        }
        if (retries) ++*retries;
    }
}

Result<HttpAnswer> S3Client::Impl::call(std::string_view what, HttpCall c, int* retries) {
    return run(
        what, [&](CurlConnection& connection) { return connection.perform(c); }, c.cancel, retries);
}

std::string S3Client::Impl::target(const S3Location& object, std::string_view query) const {
    std::string t = "/" + object.bucket;
    if (!object.key.empty()) t += "/" + uriEncode(object.key, true);
    if (!query.empty()) t += "?" + std::string(query);
    return t;
}

std::vector<std::string> S3Client::Impl::customerKeyHeaders() const {
    if (!settings.sseCustomerKey) return {};
    const auto& key = *settings.sseCustomerKey;
    return {"x-amz-server-side-encryption-customer-algorithm: AES256", "x-amz-server-side-encryption-customer-key: " + encodeBase64(key),
            "x-amz-server-side-encryption-customer-key-MD5: " + encodeBase64(md5(key))};
}

ObjectInfo objectFromHeaders(const std::string& key, const HttpAnswer& answer) {
    ObjectInfo info;
    info.key = key;
    if (auto it = answer.headers.find("content-length"); it != answer.headers.end()) info.sizeBytes = std::stoull(it->second);
    if (auto it = answer.headers.find("etag"); it != answer.headers.end()) info.etag = unquoted(it->second);
    if (auto it = answer.headers.find("last-modified"); it != answer.headers.end()) info.lastModified = it->second;
    for (const auto& [name, value] : answer.headers) {
        if (name.starts_with("x-amz-meta-")) info.metadata[name.substr(11)] = value;
    }
    return info;
}

S3Client::S3Client(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
S3Client::~S3Client() = default;

Result<std::unique_ptr<S3Client>> S3Client::create(S3Settings settings, S3Credentials credentials) {
    if (auto ok = checkSettings(settings); !ok) return fail(std::move(ok.error()));
    if (credentials.accessKeyId.empty() || credentials.secretAccessKey.empty()) {
        return fail(ErrorCode::InvalidArgument, "S3 credentials need both an access key id and a secret key");
    }
    initialiseCurl();
    auto impl = std::make_unique<Impl>();
    impl->settings = std::move(settings);
    impl->credentials = std::move(credentials);
    return std::unique_ptr<S3Client>(new S3Client(std::move(impl)));
}

const S3Settings& S3Client::settings() const noexcept { return impl_->settings; }

Status S3Client::createBucket(const std::string& bucket) {
    HttpCall c;
    c.method = "PUT";
    c.target = "/" + bucket;
    auto answer = impl_->run(fmt::format("create bucket {}", bucket), [&](CurlConnection& connection) -> tl::expected<HttpAnswer, S3Failure> {
        auto a = connection.perform(c);
        if (!a && a.error().s3Code == "BucketAlreadyOwnedByYou") return HttpAnswer{200, {}, {}};
        return a;
    });
    if (!answer) return fail(std::move(answer.error()));
    return {};
}

Result<ObjectInfo> S3Client::head(const S3Location& object) {
    HttpCall c;
    c.method = "HEAD";
    c.target = impl_->target(object);
    c.headers = impl_->customerKeyHeaders();
    auto answer = impl_->call("HEAD " + object.url(), std::move(c));
    if (!answer) return fail(std::move(answer.error()));
    return objectFromHeaders(object.key, *answer);
}

Result<std::vector<ObjectInfo>> S3Client::list(const S3Location& prefix) {
    // A server whose continuation token never advances (or never ends) must not loop us for
    // ever: a token seen before, or more pages than any listing of ours needs, is an error.
    constexpr std::size_t kMaxPages = 100'000;  // 100 million keys at S3's 1,000 a page
    std::vector<ObjectInfo> all;
    std::set<std::string> tokensSeen;
    std::string token;
    std::size_t pages = 0;
    do {
        if (++pages > kMaxPages) {
            return fail(ErrorCode::DataLoss, fmt::format("listing {}: more than {} pages ({} keys) and the server still says there are more: "
                                                         "it is not a listing that ends; stopped",
                                                         prefix.url(), kMaxPages, all.size()));
        }
        std::string query = token.empty() ? "" : "continuation-token=" + uriEncode(token, false) + "&";
        query += "list-type=2&prefix=" + uriEncode(prefix.key, false);
        HttpCall c;
        c.target = "/" + prefix.bucket + "?" + query;
        auto answer = impl_->call("LIST " + prefix.url(), std::move(c));
        if (!answer) return fail(std::move(answer.error()));
        auto page = parseListObjectsV2(answer->body);
        if (!page) return fail(std::move(page.error()).addContext("while listing " + prefix.url()));
        for (auto& o : page->objects) all.push_back(std::move(o));
        token = page->truncated ? page->nextContinuationToken : "";
        if (!token.empty() && !tokensSeen.insert(token).second) {
            return fail(ErrorCode::DataLoss, fmt::format("listing {}: the server gave the continuation token '{}' a second time (page {}): its "
                                                         "listing does not advance (a misbehaving server); stopped after {} keys",
                                                         prefix.url(), token.size() > 80 ? token.substr(0, 80) + "..." : token, pages, all.size()));
        }
    } while (!token.empty());
    return all;
}

Status S3Client::remove(const S3Location& object) {
    HttpCall c;
    c.method = "DELETE";
    c.target = impl_->target(object);
    auto answer = impl_->call("DELETE " + object.url(), std::move(c));
    if (!answer) return fail(std::move(answer.error()));
    return {};
}

}  // namespace sonolink::archive
