// Durable file writes and safe reads, one rule for every module that keeps data:
// - writes go to a temporary name beside the target (created 0600: what we keep names patients),
//   are fsync'd, renamed into place and the directory fsync'd, so after a crash or a power cut
//   the file is the old one or the new one, whole; Sync::AtomicOnly skips the fsyncs (whole
//   after a process crash, possibly the old file after a power cut);
// - a full disk (ENOSPC, EDQUOT) is ResourceExhausted and says "the disk is full";
// - reads refuse what is no regular file (a FIFO would block the reader for ever, a device
//   never ends) before opening it for reading, and files larger than the reader's budget.
// Thread contract: pure functions.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <string>
#include <string_view>

#include "sonolink/util/result.h"

namespace sonolink {

enum class Sync { Durable, AtomicOnly };

// The error of a failed system call (errno), naming what was done to which path.
[[nodiscard]] Error ioError(std::string_view what, const std::string& path, int errnoValue);

[[nodiscard]] Status writeFileDurably(const std::string& path, std::string_view bytes, Sync sync = Sync::Durable);
[[nodiscard]] Status copyFileDurably(const std::string& from, const std::string& to);
// fsyncs the directory that holds path (a rename or creation there is then durable).
[[nodiscard]] Status syncDirectoryOf(const std::string& path);
// fsyncs a file already written and closed by someone else (a library's writer).
[[nodiscard]] Status syncFile(const std::string& path);
// Creates directory and its missing parents; those it creates are 0700 (they hold patient data).
[[nodiscard]] Status makePrivateDirectories(const std::string& directory);

// NotFound if it is not there; InvalidArgument naming the kind if it is no regular file (a FIFO,
// a device, a directory). Does not open the file: safe on a FIFO.
[[nodiscard]] Status requireRegularFile(const std::string& path, std::string_view what = "file");
// The whole of a regular file of at most maxBytes: NotFound, InvalidArgument (no regular file,
// larger than maxBytes), DataLoss (cannot be read). Never blocks on a FIFO.
[[nodiscard]] Result<std::string> readRegularFile(const std::string& path, std::size_t maxBytes, std::string_view what = "file");
// The old name, for the queue: readRegularFile with no size budget but the address space's.
[[nodiscard]] Result<std::string> readWholeFile(const std::string& path);

}  // namespace sonolink
