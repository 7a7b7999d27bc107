#include "sonolink/app/archive_setup.h"

#include <fmt/format.h>

namespace sonolink::app {

Result<archive::S3Settings> s3SettingsFrom(const config::ArchiveSettings& a) {
    if (a.endpoint.empty()) {
        return fail(ErrorCode::FailedPrecondition, "no archive is configured: set archive.endpoint (and archive.bucket) in the configuration");
    }
    archive::S3Settings s;
    s.endpoint = a.endpoint;
    s.region = a.region;
    s.caFile = a.caFile;
    s.verifyTls = a.verifyTls;
    s.connectTimeout = std::chrono::seconds(static_cast<long>(a.connectTimeoutS));
    s.stallTimeout = std::chrono::seconds(static_cast<long>(a.stallTimeoutS));
    s.retry.maxAttempts = a.maxAttempts;
    s.partSizeBytes = static_cast<std::size_t>(a.partSizeBytes);
    s.parallelRequests = a.parallelRequests;
    if (!a.sseCustomerKeyFile.empty()) {
        auto key = archive::readCustomerKeyFile(a.sseCustomerKeyFile);
        if (!key) return fail(std::move(key.error()).addContext("while reading archive.sse_customer_key_file"));
        s.sseCustomerKey = *key;
    }
    return s;
}

Result<std::unique_ptr<archive::S3Client>> makeArchiveClient(const config::ArchiveSettings& a) {
    auto settings = s3SettingsFrom(a);
    if (!settings) return fail(std::move(settings.error()));
    auto credentials = archive::resolveCredentials({a.accessKeyId, a.secretAccessKey, a.credentialsFile, a.profile});
    if (!credentials) return fail(std::move(credentials.error()));
    return archive::S3Client::create(std::move(*settings), std::move(*credentials));
}

Result<archive::S3Location> archiveLocation(const config::ArchiveSettings& a, const std::string& urlOrKey) {
    if (archive::isS3Url(urlOrKey)) return archive::parseS3Url(urlOrKey);
    if (a.bucket.empty()) {
        return fail(ErrorCode::FailedPrecondition, fmt::format("'{}' is no s3:// URL and archive.bucket is not configured", urlOrKey));
    }
    return archive::parseS3Url(fmt::format("s3://{}/{}{}", a.bucket, a.prefix, urlOrKey));
}

archive::ArchiveRetry archiveRetryFrom(const config::ArchiveSettings& a) { return {a.retryInitialS, a.retryMaxS, 0.5}; }

}  // namespace sonolink::app
