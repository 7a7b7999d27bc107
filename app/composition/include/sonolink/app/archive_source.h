// Recordings in the archive read in place: an S3 object as a ByteSource (its size from
// one HEAD, each read a ranged GET written straight into the caller's buffer, a large one split
// into ranges fetched in parallel), and openRecording(), which opens a UFF recording by path or
// by s3:// URL the same way, so beamform and replay take either; openSource() does the same for
// any object (a multi-frame DICOM cine read in place by `dicom frames`).
// Thread contract: a source is read by one thread at a time (UffReader's); pure otherwise.
#pragma once

#include <memory>
#include <string>

#include "sonolink/archive/s3_client.h"
#include "sonolink/config/app_config.h"
#include "sonolink/record/uff_reader.h"

namespace sonolink::app {

[[nodiscard]] Result<std::shared_ptr<ByteSource>> openArchiveObject(std::shared_ptr<archive::S3Client> client, archive::S3Location object);
// A local path mapped read-only, or an s3:// URL read through the configured archive.
[[nodiscard]] Result<std::shared_ptr<ByteSource>> openSource(const std::string& pathOrUrl, const config::ArchiveSettings& archive);
// A local path (read as before), or an s3:// URL read through the configured archive.
[[nodiscard]] Result<record::UffReader> openRecording(const std::string& pathOrUrl, const config::ArchiveSettings& archive,
                                                      const std::string& group = "/channel_data");

}  // namespace sonolink::app
