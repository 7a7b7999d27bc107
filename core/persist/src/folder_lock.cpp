#include "sonolink/persist/folder_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include <fmt/format.h>

namespace sonolink::persist {

Result<FolderLock> FolderLock::acquire(const std::string& directory, std::string_view whose) {
    const std::string path = directory + "/lock";
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) return fail(ErrorCode::Unavailable, fmt::format("cannot open {}: {}", path, std::strerror(errno)));
    FolderLock lock(fd);
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        return fail(ErrorCode::FailedPrecondition, fmt::format("{} at {} is in use by another process", whose, directory));
    }
    return lock;
}

FolderLock::FolderLock(FolderLock&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}

FolderLock& FolderLock::operator=(FolderLock&& other) noexcept {
    if (this != &other) {
        if (fd_ >= 0) ::close(fd_);
        fd_ = std::exchange(other.fd_, -1);
    }
    return *this;
}

FolderLock::~FolderLock() {
    if (fd_ >= 0) ::close(fd_);
}

}  // namespace sonolink::persist
