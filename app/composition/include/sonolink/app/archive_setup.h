// From configuration to the archive: the S3 client's settings, its credentials (configuration,
// environment or credentials file) and customer key, and where a station-relative key lives
// (the configured bucket and prefix), and the upload queue's retry policy. core/archive never
// sees AppConfig.
// Thread contract: pure functions but for reading the environment and the key files.
#pragma once

#include <memory>
#include <string>

#include "sonolink/archive/archive_queue.h"
#include "sonolink/archive/s3_client.h"
#include "sonolink/config/app_config.h"

namespace sonolink::app {

[[nodiscard]] Result<archive::S3Settings> s3SettingsFrom(const config::ArchiveSettings& archive);
// FailedPrecondition when no endpoint is configured; the credentials' errors as they are.
[[nodiscard]] Result<std::unique_ptr<archive::S3Client>> makeArchiveClient(const config::ArchiveSettings& archive);
// An s3:// URL as it is, or a plain key under the configured bucket and prefix.
[[nodiscard]] Result<archive::S3Location> archiveLocation(const config::ArchiveSettings& archive, const std::string& urlOrKey);
// The upload queue's back-off (archive.retry_initial_s, retry_max_s; half of each delay at random).
[[nodiscard]] archive::ArchiveRetry archiveRetryFrom(const config::ArchiveSettings& archive);

}  // namespace sonolink::app
