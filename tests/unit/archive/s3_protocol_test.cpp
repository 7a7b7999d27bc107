// The S3 client's pieces that need no server: URLs and encodings, failure classes and back-off,
// the XML answers as S3 lays them out, credentials and their sources, the SSE-C key file.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

#include <gtest/gtest.h>

#include "encoding.h"
#include "s3_xml.h"
#include "sonolink/archive/s3_client.h"
#include "sonolink/archive/s3_credentials.h"
#include "sonolink/archive/s3_failure.h"
#include "sonolink/archive/s3_settings.h"

namespace sonolink::archive {
namespace {

TEST(S3Url, SplitsBucketAndKeyAndRefusesBadBuckets) {
    auto l = parseS3Url("s3://sonolink-studies/2026/12/rec one.uff");
    ASSERT_TRUE(l) << l.error().describe();
    EXPECT_EQ(l->bucket, "sonolink-studies");
    EXPECT_EQ(l->key, "2026/12/rec one.uff");
    EXPECT_EQ(l->url(), "s3://sonolink-studies/2026/12/rec one.uff");
    auto bucketOnly = parseS3Url("s3://abc");
    ASSERT_TRUE(bucketOnly);
    EXPECT_EQ(bucketOnly->key, "");
    for (const char* bad : {"http://x/y", "s3://", "s3://ab/k", "s3://Upper/k", "s3://-abc/k", "s3://under_score/k"}) {
        auto r = parseS3Url(bad);
        ASSERT_FALSE(r) << bad;
        EXPECT_EQ(r.error().code(), ErrorCode::InvalidArgument);
        EXPECT_NE(r.error().message().find(bad), std::string::npos) << r.error().message();
    }
}

TEST(S3Encoding, UriEncodesAsSigV4CanonicalisesAndDigestsMatchKnownValues) {
    EXPECT_EQ(uriEncode("a b/ü+~_.-*", true), "a%20b/%C3%BC%2B~_.-%2A");
    EXPECT_EQ(uriEncode("a/b", false), "a%2Fb");
    EXPECT_EQ(sha256Hex({}), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    const std::string abc = "abc";
    EXPECT_EQ(encodeHex(md5(std::span(reinterpret_cast<const std::uint8_t*>(abc.data()), abc.size()))), "900150983cd24fb0d6963f7d28e17f72");
    const std::string check = "123456789";
    EXPECT_EQ(crc32cOf(std::as_bytes(std::span(check.data(), check.size()))), 0xE3069283u);
    // Streamed over two pieces, the same CRC.
    const auto bytes = std::as_bytes(std::span(check.data(), check.size()));
    EXPECT_EQ(crc32cOf(bytes.subspan(4), crc32cOf(bytes.subspan(0, 4))), 0xE3069283u);
    // Checksummed apart (as ranges read back in parallel are), then joined: the same CRC, at every split.
    for (std::size_t split = 0; split <= bytes.size(); ++split) {
        EXPECT_EQ(crc32cCombine(crc32cOf(bytes.subspan(0, split)), crc32cOf(bytes.subspan(split)), bytes.size() - split), 0xE3069283u) << split;
    }
    std::vector<std::byte> large(3'000'001);
    for (std::size_t i = 0; i < large.size(); ++i) large[i] = static_cast<std::byte>((i * 2654435761u) >> 13);
    const auto whole = crc32cOf(large);
    const std::span<const std::byte> all(large);
    EXPECT_EQ(crc32cCombine(crc32cCombine(crc32cOf(all.subspan(0, 1'000'000)), crc32cOf(all.subspan(1'000'000, 1'000'000)), 1'000'000),
                            crc32cOf(all.subspan(2'000'000)), 1'000'001),
              whole);
    EXPECT_NE(crc32cCombine(crc32cOf(all.subspan(1'000'000, 1'000'000)), crc32cOf(all.subspan(0, 1'000'000)), 1'000'000), crc32cOf(all.subspan(0, 2'000'000)))
        << "two pieces swapped give another CRC";
    std::vector<std::uint8_t> decoded;
    ASSERT_TRUE(decodeBase64(encodeBase64(std::vector<std::uint8_t>{1, 2, 3, 4}), decoded));
    EXPECT_EQ(decoded, (std::vector<std::uint8_t>{1, 2, 3, 4}));
    EXPECT_FALSE(decodeBase64("abc", decoded));
    EXPECT_FALSE(decodeHex("0g", decoded));
}

S3Failure http(int status, std::string code) { return {status, 0, "", std::move(code), "msg", ""}; }
S3Failure transport(int code) { return {0, code, "text", "", "", ""}; }

TEST(S3Failures, HealingOnesAreRetriedAndTheOthersNamedAtOnce) {
    EXPECT_TRUE(isRetryable(http(503, "SlowDown")));
    EXPECT_TRUE(isRetryable(http(500, "InternalError")));
    EXPECT_TRUE(isRetryable(http(429, "")));
    EXPECT_TRUE(isRetryable(http(400, "RequestTimeout")));
    EXPECT_TRUE(isRetryable(transport(7)));   // refused
    EXPECT_TRUE(isRetryable(transport(56)));  // reset
    EXPECT_TRUE(isRetryable(transport(28)));  // timed out
    EXPECT_TRUE(isRetryable(transport(18)));  // short body
    EXPECT_EQ(classify(http(403, "SignatureDoesNotMatch")), FailureKind::Credentials);
    EXPECT_EQ(classify(http(403, "InvalidAccessKeyId")), FailureKind::Credentials);
    EXPECT_EQ(classify(http(400, "ExpiredToken")), FailureKind::Credentials);
    EXPECT_EQ(classify(http(400, "InvalidArgument")), FailureKind::Request);
    EXPECT_EQ(classify(http(403, "RequestTimeTooSkewed")), FailureKind::Clock);
    EXPECT_EQ(classify(http(404, "NoSuchKey")), FailureKind::NotFound);
    EXPECT_EQ(classify(http(400, "XAmzContentSHA256Mismatch")), FailureKind::Integrity);
    EXPECT_EQ(classify(http(400, "BadDigest")), FailureKind::Integrity);
    EXPECT_EQ(classify(transport(60)), FailureKind::Tls);
    for (const auto& f :
         {http(403, "AccessDenied"), http(404, "NoSuchBucket"), http(403, "RequestTimeTooSkewed"), transport(60), http(400, "XAmzContentSHA256Mismatch")}) {
        EXPECT_FALSE(isRetryable(f)) << f.s3Code << " " << f.transportCode;
    }
}

TEST(S3Failures, TheErrorNamesTheRequestTheAnswerAndWhatToDo) {
    auto denied = toError(http(403, "SignatureDoesNotMatch"), "PUT s3://b/k", 1, std::chrono::milliseconds(5));
    EXPECT_EQ(denied.code(), ErrorCode::PermissionDenied);
    EXPECT_NE(denied.message().find("PUT s3://b/k: HTTP 403 SignatureDoesNotMatch: msg"), std::string::npos) << denied.message();
    EXPECT_NE(denied.message().find("not retried"), std::string::npos);
    auto clock = toError(http(403, "RequestTimeTooSkewed"), "GET s3://b/k", 1, {});
    EXPECT_EQ(clock.code(), ErrorCode::FailedPrecondition);
    EXPECT_NE(clock.message().find("clock"), std::string::npos);
    auto gaveUp = toError(transport(7), "HEAD s3://b/k", 6, std::chrono::milliseconds(12400));
    EXPECT_EQ(gaveUp.code(), ErrorCode::Unavailable);
    EXPECT_NE(gaveUp.message().find("after 6 attempts over 12.4 s"), std::string::npos) << gaveUp.message();
    EXPECT_EQ(toError(http(404, "NoSuchKey"), "GET", 1, {}).code(), ErrorCode::NotFound);
    EXPECT_EQ(toError(http(400, "BadDigest"), "PUT", 1, {}).code(), ErrorCode::DataLoss);
    EXPECT_EQ(toError(transport(42), "GET", 1, {}).code(), ErrorCode::Cancelled);
}

TEST(S3Failures, BackOffIsFullJitterUnderADoublingCeiling) {
    RetrySettings retry{6, std::chrono::milliseconds(100), std::chrono::milliseconds(1000)};
    std::uint64_t state = 12345;
    auto next = [&] { return state = state * 6364136223846793005ULL + 1442695040888963407ULL; };
    for (int attempt = 1; attempt <= 8; ++attempt) {
        const long ceiling = std::min(1000L, 100L << (attempt - 1));
        long largest = 0;
        std::set<long> seen;
        for (int i = 0; i < 2000; ++i) {
            const long d = backoffDelay(retry, attempt, next()).count();
            ASSERT_GE(d, 0);
            ASSERT_LE(d, ceiling);
            largest = std::max(largest, d);
            seen.insert(d);
        }
        EXPECT_GT(largest, ceiling * 9 / 10) << "attempt " << attempt;  // the whole range is used
        EXPECT_GT(seen.size(), 50u);                                    // and spread (jitter)
    }
    EXPECT_EQ(backoffDelay(retry, 1, 0).count(), 0);
    EXPECT_EQ(backoffDelay(retry, 1, ~0ULL).count(), 100);
}

// As AWS documents ListObjectsV2's answer (and radosgw sends it).
constexpr const char* kListing = R"(<?xml version="1.0" encoding="UTF-8"?>
<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
  <Name>bucket</Name><Prefix>rec/</Prefix><KeyCount>2</KeyCount><MaxKeys>1000</MaxKeys>
  <IsTruncated>true</IsTruncated><NextContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=</NextContinuationToken>
  <Contents><Key>rec/a.uff</Key><LastModified>2026-12-03T10:00:00.000Z</LastModified><ETag>&quot;9b2cf535f27731c974343645a3985328&quot;</ETag><Size>2147483648</Size><StorageClass>STANDARD</StorageClass></Contents>
  <Contents><Key>rec/b &amp; c.dcm</Key><LastModified>2026-12-03T10:01:00.000Z</LastModified><ETag>"abc-3"</ETag><Size>0</Size></Contents>
</ListBucketResult>)";

TEST(S3Xml, ReadsListingsPartsUploadsAndErrors) {
    auto page = parseListObjectsV2(kListing);
    ASSERT_TRUE(page) << page.error().describe();
    ASSERT_EQ(page->objects.size(), 2u);
    EXPECT_EQ(page->objects[0].key, "rec/a.uff");
    EXPECT_EQ(page->objects[0].sizeBytes, 2147483648u);
    EXPECT_EQ(page->objects[0].etag, "9b2cf535f27731c974343645a3985328");
    EXPECT_EQ(page->objects[1].key, "rec/b & c.dcm");
    EXPECT_TRUE(page->truncated);
    EXPECT_EQ(page->nextContinuationToken, "1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=");

    auto noToken = parseListObjectsV2("<ListBucketResult><IsTruncated>true</IsTruncated></ListBucketResult>");
    ASSERT_FALSE(noToken);
    EXPECT_EQ(noToken.error().code(), ErrorCode::DataLoss);
    EXPECT_FALSE(parseListObjectsV2("<ListBucketResult><Contents><Key>k</Key><Size>x</Size></Contents></ListBucketResult>"));
    EXPECT_FALSE(parseListObjectsV2("not xml at all <"));
    EXPECT_FALSE(parseListObjectsV2("<Other/>"));

    auto id = parseUploadId("<InitiateMultipartUploadResult><Bucket>b</Bucket><Key>k</Key><UploadId>2~abc</UploadId></InitiateMultipartUploadResult>");
    ASSERT_TRUE(id);
    EXPECT_EQ(*id, "2~abc");
    EXPECT_FALSE(parseUploadId("<InitiateMultipartUploadResult/>"));

    auto parts = parseListParts(
        "<ListPartsResult><IsTruncated>false</IsTruncated><Part><PartNumber>2</PartNumber><ETag>\"e2\"</ETag><Size>5242880</Size></Part></ListPartsResult>");
    ASSERT_TRUE(parts);
    ASSERT_EQ(parts->parts.size(), 1u);
    EXPECT_EQ(parts->parts[0].number, 2);
    EXPECT_EQ(parts->parts[0].etag, "e2");
    EXPECT_FALSE(parseListParts("<ListPartsResult><Part><PartNumber>0</PartNumber><Size>1</Size></Part></ListPartsResult>"));

    auto error = parseErrorBody("<?xml version=\"1.0\"?><Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>");
    EXPECT_EQ(error.code, "SlowDown");
    EXPECT_EQ(error.message, "Please reduce your request rate.");
    EXPECT_EQ(parseErrorBody("<html>502 Bad Gateway</html>").code, "");

    auto complete = parseCompleteResult("<CompleteMultipartUploadResult><ETag>\"x-2\"</ETag></CompleteMultipartUploadResult>");
    ASSERT_TRUE(complete);
    EXPECT_EQ(*complete, "x-2");
    auto failedInside = parseCompleteResult("<Error><Code>InternalError</Code><Message>try again</Message></Error>");
    ASSERT_FALSE(failedInside);
    EXPECT_NE(failedInside.error().message().find("InternalError"), std::string::npos);
    EXPECT_EQ(completeMultipartBody({{1, "a", 5}, {2, "b", 6}}),
              "<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>\"a\"</ETag></Part>"
              "<Part><PartNumber>2</PartNumber><ETag>\"b\"</ETag></Part></CompleteMultipartUpload>");
}

TEST(S3Credentials, ReadsTheProfileOfACredentialsFileAndNeverPrintsTheSecret) {
    const std::string text =
        "# comment\n[default]\naws_access_key_id = AKIADEFAULT\naws_secret_access_key = s3cr3t-default\n\n"
        "[profile archive]\n aws_access_key_id=AKIAARCHIVE \naws_secret_access_key= s3cr3t-archive\naws_session_token = tok\n"
        "[half]\naws_access_key_id = AKIAHALF\n";
    auto d = parseCredentialsFile(text, "default", "creds");
    ASSERT_TRUE(d) << d.error().describe();
    EXPECT_EQ(d->accessKeyId, "AKIADEFAULT");
    EXPECT_EQ(d->secretAccessKey, "s3cr3t-default");
    auto a = parseCredentialsFile(text, "archive", "creds");
    ASSERT_TRUE(a);
    EXPECT_EQ(a->accessKeyId, "AKIAARCHIVE");
    EXPECT_EQ(a->secretAccessKey, "s3cr3t-archive");
    EXPECT_EQ(a->sessionToken, "tok");
    EXPECT_EQ(a->source, "creds [archive]");
    EXPECT_EQ(a->describe().find("s3cr3t"), std::string::npos);
    EXPECT_NE(a->describe().find("AKIA"), std::string::npos);
    auto half = parseCredentialsFile(text, "half", "creds");
    ASSERT_FALSE(half);
    EXPECT_EQ(half.error().code(), ErrorCode::InvalidArgument);
    EXPECT_EQ(parseCredentialsFile(text, "missing", "creds").error().code(), ErrorCode::NotFound);
    EXPECT_FALSE(parseCredentialsFile("[x\nk=v", "x", "creds"));
}

class EnvironmentGuard {
public:
    EnvironmentGuard() {
        for (const char* name : kNames) {
            const char* v = std::getenv(name);
            saved_.emplace_back(name, v ? std::optional<std::string>(v) : std::nullopt);
            ::unsetenv(name);
        }
    }
    ~EnvironmentGuard() {
        for (const auto& [name, value] : saved_) {
            if (value) ::setenv(name, value->c_str(), 1);
            else ::unsetenv(name);
        }
    }

private:
    static constexpr const char* kNames[] = {"AWS_ACCESS_KEY_ID",           "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
                                             "AWS_SHARED_CREDENTIALS_FILE", "AWS_PROFILE",           "HOME"};
    std::vector<std::pair<const char*, std::optional<std::string>>> saved_;
};

TEST(S3Credentials, ComeFromTheConfigurationThenTheEnvironmentThenTheFile) {
    EnvironmentGuard guard;
    const auto dir = std::filesystem::temp_directory_path() / ("s3creds-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir / ".aws");
    std::ofstream(dir / ".aws" / "credentials") << "[default]\naws_access_key_id=FILEKEY\naws_secret_access_key=filesecret\n"
                                                   "[other]\naws_access_key_id=OTHERKEY\naws_secret_access_key=othersecret\n";
    ::setenv("HOME", dir.c_str(), 1);

    auto fromFile = resolveCredentials({});
    ASSERT_TRUE(fromFile) << fromFile.error().describe();
    EXPECT_EQ(fromFile->accessKeyId, "FILEKEY");
    ::setenv("AWS_PROFILE", "other", 1);
    EXPECT_EQ(resolveCredentials({})->accessKeyId, "OTHERKEY");
    EXPECT_EQ(resolveCredentials({"", "", "", "default"})->accessKeyId, "FILEKEY");

    ::setenv("AWS_ACCESS_KEY_ID", "ENVKEY", 1);
    ::setenv("AWS_SECRET_ACCESS_KEY", "envsecret", 1);
    auto fromEnvironment = resolveCredentials({});
    ASSERT_TRUE(fromEnvironment);
    EXPECT_EQ(fromEnvironment->accessKeyId, "ENVKEY");
    EXPECT_EQ(fromEnvironment->source, "environment");

    auto fromConfiguration = resolveCredentials({"CFGKEY", "cfgsecret", "", ""});
    ASSERT_TRUE(fromConfiguration);
    EXPECT_EQ(fromConfiguration->accessKeyId, "CFGKEY");
    EXPECT_FALSE(resolveCredentials({"CFGKEY", "", "", ""}));

    ::unsetenv("AWS_SECRET_ACCESS_KEY");
    EXPECT_EQ(resolveCredentials({}).error().code(), ErrorCode::InvalidArgument);  // half a set is never passed over
    ::unsetenv("AWS_ACCESS_KEY_ID");
    EXPECT_EQ(resolveCredentials({"", "", (dir / "absent").string(), ""}).error().code(), ErrorCode::InvalidArgument);

    std::filesystem::remove_all(dir / ".aws");
    auto none = resolveCredentials({});
    ASSERT_FALSE(none);
    EXPECT_EQ(none.error().code(), ErrorCode::NotFound);
    EXPECT_EQ(none.error().details().size(), 3u) << none.error().describe();
    std::filesystem::remove_all(dir);
}

TEST(S3Settings, ReadsACustomerKeyAsBytesHexOrBase64) {
    const auto dir = std::filesystem::temp_directory_path() / ("ssec-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    std::string raw(32, '\0');
    for (int i = 0; i < 32; ++i) raw[static_cast<std::size_t>(i)] = static_cast<char>(i * 7 + 1);
    std::ofstream(dir / "raw", std::ios::binary) << raw;
    std::vector<std::uint8_t> bytes(raw.begin(), raw.end());
    std::ofstream(dir / "hex") << encodeHex(bytes) << "\n";
    std::ofstream(dir / "b64") << encodeBase64(bytes) << "\n";
    std::ofstream(dir / "short") << "0123";
    for (const char* name : {"raw", "hex", "b64"}) {
        auto key = readCustomerKeyFile((dir / name).string());
        ASSERT_TRUE(key) << name << ": " << key.error().describe();
        EXPECT_TRUE(std::equal(key->begin(), key->end(), bytes.begin())) << name;
    }
    auto bad = readCustomerKeyFile((dir / "short").string());
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().message().find("256-bit"), std::string::npos);
    EXPECT_EQ(readCustomerKeyFile((dir / "absent").string()).error().code(), ErrorCode::NotFound);
    std::filesystem::remove_all(dir);
}

TEST(S3ClientSettings, AreCheckedBeforeAnyRequest) {
    const S3Credentials creds{"AKIA", "secret", "", "test"};
    S3Settings s;
    s.endpoint = "ftp://x";
    EXPECT_FALSE(S3Client::create(s, creds));
    s.endpoint = "http://127.0.0.1:1/";
    EXPECT_FALSE(S3Client::create(s, creds));
    s.endpoint = "http://127.0.0.1:1";
    s.partSizeBytes = 1 << 20;
    auto small = S3Client::create(s, creds);
    ASSERT_FALSE(small);
    EXPECT_NE(small.error().message().find("5 MiB"), std::string::npos);
    s.partSizeBytes = 8 << 20;
    EXPECT_FALSE(S3Client::create(s, {"", "secret", "", ""}));
    EXPECT_TRUE(S3Client::create(s, creds));
}

TEST(S3Client, ANodeThatDoesNotListenIsRetriedThenNamed) {
    S3Settings s;
    s.endpoint = "http://127.0.0.1:9";  // discard: nothing listens on loopback here
    s.retry = {3, std::chrono::milliseconds(1), std::chrono::milliseconds(5)};
    auto client = S3Client::create(s, {"AKIA", "secret", "", "test"});
    ASSERT_TRUE(client);
    auto head = (*client)->head({"bucket", "key"});
    ASSERT_FALSE(head);
    EXPECT_EQ(head.error().code(), ErrorCode::Unavailable);
    EXPECT_NE(head.error().message().find("HEAD s3://bucket/key"), std::string::npos) << head.error().message();
    EXPECT_NE(head.error().message().find("after 3 attempts"), std::string::npos) << head.error().message();
}

}  // namespace
}  // namespace sonolink::archive
