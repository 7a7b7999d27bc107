// Recovery of a recording cut short on the disk: a power cut (or a copy stopped early) leaves a
// file shorter than its HDF5 superblock declares, and HDF5 then refuses the whole file ("truncated
// file"), every frame with it. recoverRecording opens it past its end (read only: it stays as it
// was), reads each frame with its checksums (samples, id, time) until the first that fails, and
// writes a new recording: the metadata as stored and the whole frames before that one. Thread
// contract: HDF5 calls on the caller's thread, one call at a time.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "sonolink/util/result.h"

namespace sonolink::record {

struct RecoveredRecording {
    int framesDeclared = 0;  // the frames the file's metadata names
    int framesKept = 0;      // whole (every checksum good), kept in the output
    int shotsDeclared = 0;   // dual mode: the laser shots' stream, the same way
    int shotsKept = 0;
    std::uint64_t bytesOnDisk = 0;    // the damaged file's size
    std::uint64_t bytesDeclared = 0;  // the size its superblock declares (its end of allocation)
};

// Writes the whole frames of `damaged` to `output` (a new file: an existing one is never
// overwritten), synced to the disk. NotFound, InvalidArgument (no HDF5 recording),
// FailedPrecondition (output exists), DataLoss (not one frame whole).
[[nodiscard]] Result<RecoveredRecording> recoverRecording(const std::string& damaged, const std::string& output, const std::string& group = "/channel_data");

// The sizes of an HDF5 file shorter than its superblock declares; nullopt for a whole file or no
// HDF5 file at all. The readers' hint that recovery applies.
[[nodiscard]] std::optional<RecoveredRecording> cutShortHdf5(const std::string& path);

}  // namespace sonolink::record
