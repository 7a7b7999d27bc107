#include "curl_connection.h"

#include <algorithm>
#include <ctime>
#include <cctype>
#include <mutex>

#include <sys/socket.h>
#include <unistd.h>

#include <curl/curl.h>
#include <fmt/format.h>

#include "encoding.h"
#include "s3_xml.h"
#include "sigv4.h"

namespace sonolink::archive {
namespace {

constexpr std::size_t kMaxErrorBody = 64 << 10;
// A large body is received when this much has arrived, not as each 64 KiB segment lands: a few
// wake-ups of the receiving thread a frame, not dozens, each of which took the beamformer's core
// from it (SO_RCVLOWAT, which poll() honours for TCP). The price: a peer sending slower than
// this much per stallTimeout (60 s: 4.4 KB/s) is seen as stalled, and the range resumed.
constexpr std::uint64_t kWakeBytes = 256 << 10;

struct Exchange {
    const HttpCall* call = nullptr;
    CURL* easy = nullptr;
    HttpAnswer answer;
    bool sinkRefused = false;
    std::uint64_t bodyBytes = 0;  // of a 2xx answer, delivered to the sink
    const int* socket = nullptr;  // the connection's (CurlConnection::socket_)
    int lowWater = 1;             // the socket's SO_RCVLOWAT now
};

// Sets the socket's receive low-water mark: kWakeBytes while at least that much of the body is to
// come, then 1 (never more than the rest, which would wait for bytes that are not coming).
void wakeForTheRest(Exchange& ex, std::uint64_t remaining) {
    const int want = remaining >= kWakeBytes ? static_cast<int>(kWakeBytes) : 1;
    if (want == ex.lowWater || *ex.socket < 0) return;
    if (setsockopt(*ex.socket, SOL_SOCKET, SO_RCVLOWAT, &want, sizeof want) == 0) ex.lowWater = want;
}

std::size_t onHeader(char* data, std::size_t size, std::size_t count, void* user) {
    auto& ex = *static_cast<Exchange*>(user);
    const std::string_view line(data, size * count);
    if (line.starts_with("HTTP/")) {
        ex.answer.headers.clear();  // a 100 Continue before the real answer
        return size * count;
    }
    const auto colon = line.find(':');
    if (colon != std::string_view::npos) {
        ex.answer.headers[lowerCase(line.substr(0, colon))] = trimmed(line.substr(colon + 1));
    }
    return size * count;
}

std::size_t onBody(char* data, std::size_t size, std::size_t count, void* user) {
    auto& ex = *static_cast<Exchange*>(user);
    const std::size_t n = size * count;
    long status = 0;
    curl_easy_getinfo(ex.easy, CURLINFO_RESPONSE_CODE, &status);
    if (status >= 200 && status < 300 && ex.call->sink) {
        if (!ex.call->sink(std::span<const std::byte>(reinterpret_cast<const std::byte*>(data), n))) {
            ex.sinkRefused = true;
            return 0;  // libcurl stops with CURLE_WRITE_ERROR
        }
        ex.bodyBytes += n;
        wakeForTheRest(ex, ex.call->expectedBytes > ex.bodyBytes ? ex.call->expectedBytes - ex.bodyBytes : 0);
        return n;
    }
    if (ex.answer.body.size() < kMaxErrorBody || (status >= 200 && status < 300)) ex.answer.body.append(data, n);
    return n;
}

int onProgress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
    auto& ex = *static_cast<Exchange*>(user);
    return ex.call->cancel && ex.call->cancel->load(std::memory_order_relaxed) ? 1 : 0;
}

// The socket libcurl made for this connection is remembered, and forgotten when it closes it
// (libcurl's own connection cache keeps one connection a handle: the one a transfer uses).
int onSocketMade(void* user, curl_socket_t socket, curlsocktype) {
    *static_cast<int*>(user) = socket;
    return CURL_SOCKOPT_OK;
}
int onSocketClosed(void* user, curl_socket_t socket) {
    auto& kept = *static_cast<int*>(user);
    if (kept == socket) kept = -1;
    return close(socket);
}

// "http://host:port/..." -> "host:port", as the Host header carries it.
std::string authority(const std::string& endpoint) {
    const auto start = endpoint.find("://") + 3;
    return endpoint.substr(start, endpoint.find('/', start) - start);
}

// The options of the connection itself: the socket hooks, the URL, TLS, and the time limits
// (no byte for stallTimeout: the request has stalled; and a limit that grows with its bytes).
void setCurlConnectionOptions(CURL* easy, const S3Settings& settings, const HttpCall& call, int* socket) {
    curl_easy_setopt(easy, CURLOPT_SOCKOPTFUNCTION, onSocketMade);
    curl_easy_setopt(easy, CURLOPT_SOCKOPTDATA, socket);
    curl_easy_setopt(easy, CURLOPT_CLOSESOCKETFUNCTION, onSocketClosed);
    curl_easy_setopt(easy, CURLOPT_CLOSESOCKETDATA, socket);
    const std::string url = settings.endpoint + call.target;
    curl_easy_setopt(easy, CURLOPT_URL, url.c_str());
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_PATH_AS_IS, 1L);  // a key with "." or ".." segments is sent (and signed) as it is
    curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(easy, CURLOPT_BUFFERSIZE, 512L * 1024);  // large bodies in fewer receive calls (the default is 16 KiB)
    curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(settings.connectTimeout.count() * 1000));
    curl_easy_setopt(easy, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(easy, CURLOPT_LOW_SPEED_TIME, static_cast<long>(settings.stallTimeout.count()));
    const double limitS =
        static_cast<double>(settings.requestTimeoutBase.count()) + static_cast<double>(call.expectedBytes + call.body.size()) / settings.minRateBytesPerS;
    curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, static_cast<long>(limitS * 1000));
    curl_easy_setopt(easy, CURLOPT_SSLVERSION, static_cast<long>(CURL_SSLVERSION_TLSv1_2));
    curl_easy_setopt(easy, CURLOPT_SSL_VERIFYPEER, settings.verifyTls ? 1L : 0L);
    curl_easy_setopt(easy, CURLOPT_SSL_VERIFYHOST, settings.verifyTls ? 2L : 0L);
    if (!settings.caFile.empty()) curl_easy_setopt(easy, CURLOPT_CAINFO, settings.caFile.c_str());
}

// The method, and the body of a PUT or POST.
void setCurlRequestMethod(CURL* easy, const HttpCall& call, bool hasBody) {
    // No "Expect:" to switch off 100-continue: libcurl 7.88 signs that empty header, which it
    // never sends, and every such request fails with SignatureDoesNotMatch. The body goes at
    // once instead (radosgw sends no 100 Continue: libcurl would wait 1 s for it on each PUT).
    curl_easy_setopt(easy, CURLOPT_EXPECT_100_TIMEOUT_MS, 0L);
    if (hasBody) {
        curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(call.body.size()));
        curl_easy_setopt(easy, CURLOPT_POSTFIELDS, call.body.empty() ? "" : reinterpret_cast<const char*>(call.body.data()));
        curl_easy_setopt(easy, CURLOPT_CUSTOMREQUEST, call.method.c_str());
    } else if (call.method == "HEAD") {
        curl_easy_setopt(easy, CURLOPT_NOBODY, 1L);
    } else if (call.method != "GET") {
        curl_easy_setopt(easy, CURLOPT_CUSTOMREQUEST, call.method.c_str());
    }
}

// The answer's headers and body, and the cancel check, go through `ex`.
void setCurlExchangeCallbacks(CURL* easy, Exchange& ex) {
    curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, onHeader);
    curl_easy_setopt(easy, CURLOPT_HEADERDATA, &ex);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, onBody);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, &ex);
    curl_easy_setopt(easy, CURLOPT_XFERINFOFUNCTION, onProgress);
    curl_easy_setopt(easy, CURLOPT_XFERINFODATA, &ex);
    curl_easy_setopt(easy, CURLOPT_NOPROGRESS, ex.call->cancel ? 0L : 1L);
}

// A request that failed in transport (or was stopped by its sink, reported as cancelled).
S3Failure curlTransportFailure(const Exchange& ex, CURLcode rc, const char* errorText) {
    S3Failure f;
    f.httpStatus = static_cast<int>(ex.answer.status);
    f.transportCode = ex.sinkRefused ? CURLE_ABORTED_BY_CALLBACK : static_cast<int>(rc);
    f.transportText = errorText[0] ? errorText : curl_easy_strerror(rc);
    return f;
}

// A non-2xx answer: the server's error code and message (a HEAD's 404 has no body: NotFound).
S3Failure curlServerFailure(const HttpAnswer& answer, const HttpCall& call) {
    S3Failure f;
    f.httpStatus = static_cast<int>(answer.status);
    const S3ErrorBody body = parseErrorBody(answer.body);
    f.s3Code = body.code;
    f.s3Message = body.message;
    if (f.s3Code.empty() && call.method == "HEAD") f.s3Code = f.httpStatus == 404 ? "NotFound" : "";
    return f;
}

}  // namespace

void CurlConnection::signHere(const HttpCall& call, std::vector<std::string>& sent) const {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char amzDate[17];
    std::strftime(amzDate, sizeof amzDate, "%Y%m%dT%H%M%SZ", &utc);
    sent.push_back("Host: " + authority(settings_.endpoint));
    sent.push_back(std::string("x-amz-date: ") + amzDate);
    SigV4Request request;
    request.method = call.method;
    const auto question = call.target.find('?');
    request.canonicalUri = call.target.substr(0, question);
    request.canonicalQuery = question == std::string::npos ? "" : call.target.substr(question + 1);
    for (const auto& h : sent) {
        const auto colon = h.find(':');
        request.headers.emplace_back(h.substr(0, colon), h.substr(colon + 1));
        if (h.starts_with("x-amz-content-sha256:")) request.payloadSha256 = h.substr(h.find_first_not_of(' ', colon + 1));
    }
    sent.push_back("Authorization: " + sigV4Authorization(request, credentials_, settings_.region, amzDate));
}

void initialiseCurl() {
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

CurlConnection::CurlConnection(const S3Settings& settings, const S3Credentials& credentials)
    : settings_(settings), credentials_(credentials), easy_(curl_easy_init()) {}

CurlConnection::~CurlConnection() {
    if (easy_) curl_easy_cleanup(static_cast<CURL*>(easy_));
}

tl::expected<HttpAnswer, S3Failure> CurlConnection::perform(const HttpCall& call) {
    CURL* easy = static_cast<CURL*>(easy_);
    if (!easy) return tl::unexpected(S3Failure{0, CURLE_FAILED_INIT, "libcurl could not make a handle", "", "", ""});
    curl_easy_reset(easy);  // keeps the live connection and its TLS session

    Exchange ex;
    ex.call = &call;
    ex.easy = easy;
    ex.socket = &socket_;
    setCurlConnectionOptions(easy, settings_, call, &socket_);

    const bool hasBody = call.method == "PUT" || call.method == "POST";
    const std::vector<std::string> sent = headersToSend(call, hasBody, easy);
    curl_slist* headers = nullptr;
    for (const auto& h : sent) headers = curl_slist_append(headers, h.c_str());
    setCurlRequestMethod(easy, call, hasBody);
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers);
    setCurlExchangeCallbacks(easy, ex);
    char errorText[CURL_ERROR_SIZE] = {};
    curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, errorText);

    const CURLcode rc = curl_easy_perform(easy);
    wakeForTheRest(ex, 0);  // the next answer's headers are small
    curl_slist_free_all(headers);
    curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &ex.answer.status);
    if (rc != CURLE_OK) return tl::unexpected(curlTransportFailure(ex, rc, errorText));
    if (ex.answer.status < 200 || ex.answer.status >= 300) return tl::unexpected(curlServerFailure(ex.answer, call));
    return std::move(ex.answer);
}

std::vector<std::string> CurlConnection::headersToSend(const HttpCall& call, bool hasBody, void* handle) const {
    CURL* easy = static_cast<CURL*>(handle);
    // Every header we send, signed: the payload's hash, the session token, the call's own.
    std::vector<std::string> sent = call.headers;
    sent.push_back("x-amz-content-sha256: " + (call.payloadSha256.empty() ? sha256Hex(call.body) : call.payloadSha256));
    if (!credentials_.sessionToken.empty()) sent.push_back("x-amz-security-token: " + credentials_.sessionToken);
    if (hasBody && std::none_of(sent.begin(), sent.end(), [](const std::string& h) { return h.starts_with("Content-Type:"); })) {
        sent.push_back("Content-Type: application/octet-stream");
    }
    const std::string sigv4 = fmt::format("aws:amz:{}:s3", settings_.region);
    if (curlSignerMisorders(sent)) {
        signHere(call, sent);
    } else {
        curl_easy_setopt(easy, CURLOPT_AWS_SIGV4, sigv4.c_str());  // libcurl copies option strings
        curl_easy_setopt(easy, CURLOPT_USERNAME, credentials_.accessKeyId.c_str());
        curl_easy_setopt(easy, CURLOPT_PASSWORD, credentials_.secretAccessKey.c_str());
    }
    return sent;
}

}  // namespace sonolink::archive
