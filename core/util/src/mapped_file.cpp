#include "sonolink/util/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

namespace sonolink {

Result<MappedFile> MappedFile::open(const std::filesystem::path& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        const int e = errno;
        return fail(e == ENOENT ? ErrorCode::NotFound : ErrorCode::InvalidArgument, fmt::format("cannot open '{}': {}", path.string(), std::strerror(e)));
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        return fail(ErrorCode::InvalidArgument, fmt::format("'{}' is not a regular file", path.string()));
    }
    const auto size = static_cast<std::size_t>(st.st_size);
    const std::int64_t modified = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
    if (size == 0) {
        ::close(fd);
        return MappedFile(path, nullptr, 0, modified);
    }
    void* map = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
    const int e = errno;
    ::close(fd);
    if (map == MAP_FAILED) return fail(ErrorCode::ResourceExhausted, fmt::format("cannot map '{}': {}", path.string(), std::strerror(e)));
    ::madvise(map, size, MADV_SEQUENTIAL);
    return MappedFile(path, static_cast<const std::byte*>(map), size, modified);
}

MappedFile::MappedFile(MappedFile&& other) noexcept : path_(std::move(other.path_)), data_(other.data_), size_(other.size_), modifiedNs_(other.modifiedNs_) {
    other.data_ = nullptr;
    other.size_ = 0;
}

MappedFile::~MappedFile() {
    if (data_) ::munmap(const_cast<std::byte*>(data_), size_);
}

}  // namespace sonolink
