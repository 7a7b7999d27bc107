// Durable file writes for the store-and-forward queue: a file is written to a temporary name,
// fsync'd, renamed into place and its directory fsync'd, so after a crash it is either the old
// file or the new one, whole. Sync::AtomicOnly skips the fsyncs: still whole after a process
// crash (the page cache survives it), possibly the old file after a power loss. Files are
// created 0600: the queue's files name patients.
// Private to sonolink_dicom. Thread contract: pure functions.
#pragma once

#include <string>
#include <string_view>

#include "sonolink/util/result.h"

namespace sonolink::dicom {

enum class Sync { Durable, AtomicOnly };
[[nodiscard]] Status writeFileDurably(const std::string& path, std::string_view bytes, Sync sync = Sync::Durable);
[[nodiscard]] Status copyFileDurably(const std::string& from, const std::string& to);
// fsyncs the directory that holds path (a rename or creation there is then durable).
[[nodiscard]] Status syncDirectoryOf(const std::string& path);
// NotFound if it is not there; DataLoss if it is not a regular file or cannot be read.
[[nodiscard]] Result<std::string> readWholeFile(const std::string& path);

}  // namespace sonolink::dicom
