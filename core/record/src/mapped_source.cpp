#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "sonolink/record/byte_source.h"

namespace sonolink::record {
namespace {

class MappedSource final : public ByteSource {
public:
    MappedSource(std::string path, const std::byte* data, std::size_t size) : path_(std::move(path)), data_(data), size_(size) {}
    ~MappedSource() override {
        if (data_) ::munmap(const_cast<std::byte*>(data_), size_);
    }
    std::string name() const override { return path_; }
    std::uint64_t size() const override { return size_; }
    Status read(std::uint64_t offset, std::span<std::byte> into) override {
        if (offset > size_ || into.size() > size_ - offset) {
            return fail(ErrorCode::DataLoss, fmt::format("{}: bytes {}-{} asked for, the file has {}", path_, offset, offset + into.size(), size_));
        }
        if (!into.empty()) std::memcpy(into.data(), data_ + offset, into.size());
        return {};
    }

private:
    std::string path_;
    const std::byte* data_;
    std::size_t size_;
};

}  // namespace

Result<std::shared_ptr<ByteSource>> mapFile(const std::filesystem::path& path) {
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
    void* map = size ? ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0) : nullptr;
    const int e = errno;
    ::close(fd);
    if (map == MAP_FAILED) return fail(ErrorCode::ResourceExhausted, fmt::format("cannot map '{}': {}", path.string(), std::strerror(e)));
    return std::shared_ptr<ByteSource>(std::make_shared<MappedSource>(path.string(), static_cast<const std::byte*>(map), size));
}

}  // namespace sonolink::record
