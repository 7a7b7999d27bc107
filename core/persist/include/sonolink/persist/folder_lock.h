// FolderLock: a durable queue's folder made one process's: an exclusive advisory lock (flock)
// on <folder>/lock, which the kernel drops when its owner dies, so a crashed owner never leaves
// the queue locked. A second owner is refused: "<whose> at <folder> is in use by another process".
// Thread contract: acquired and released by its owner; the lock is the process's, not a thread's.
#pragma once

#include <string>
#include <string_view>

#include "sonolink/util/result.h"

namespace sonolink::persist {

class FolderLock {
public:
    // Opens (0600) and locks <directory>/lock without waiting. `whose` names the queue in the
    // refusal ("the DICOM queue"): FailedPrecondition when another process holds it.
    [[nodiscard]] static Result<FolderLock> acquire(const std::string& directory, std::string_view whose);

    FolderLock(FolderLock&& other) noexcept;
    FolderLock& operator=(FolderLock&& other) noexcept;
    FolderLock(const FolderLock&) = delete;
    FolderLock& operator=(const FolderLock&) = delete;
    ~FolderLock();

private:
    explicit FolderLock(int fd) : fd_(fd) {}
    int fd_ = -1;
};

}  // namespace sonolink::persist
