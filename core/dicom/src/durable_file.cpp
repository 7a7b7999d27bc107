#include "durable_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include <fmt/format.h>

namespace sonolink::dicom {
namespace {

Error ioError(std::string_view what, const std::string& path) {
    const int e = errno;
    return Error(e == ENOSPC || e == EDQUOT ? ErrorCode::ResourceExhausted : ErrorCode::DataLoss,
                 fmt::format("cannot {} {}: {}", what, path, std::strerror(e)));
}

class Fd {
public:
    explicit Fd(int fd) : fd_(fd) {}
    ~Fd() { if (fd_ >= 0) ::close(fd_); }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    int get() const { return fd_; }
    int release() { return std::exchange(fd_, -1); }

private:
    int fd_;
};

Status writeAll(int fd, const char* data, std::size_t size, const std::string& path) {
    while (size > 0) {
        const auto n = ::write(fd, data, size);
        if (n < 0) {
            if (errno == EINTR) continue;
            return fail(ioError("write", path));
        }
        data += n;
        size -= static_cast<std::size_t>(n);
    }
    return {};
}

}  // namespace

Status syncDirectoryOf(const std::string& path) {
    const auto dir = std::filesystem::path(path).parent_path().string();
    Fd fd(::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (fd.get() < 0 || ::fsync(fd.get()) != 0) return fail(ioError("sync the directory", dir));
    return {};
}

namespace {

// Writes through fill(fd) into path + ".tmp", then syncs and renames it into place.
template <typename Fill>
Status writeThroughTemp(const std::string& path, Fill fill, Sync sync = Sync::Durable) {
    const std::string temp = path + ".tmp";
    {
        Fd fd(::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600));  // they name patients
        if (fd.get() < 0) return fail(ioError("create", temp));
        if (auto ok = fill(fd.get(), temp); !ok) {
            ::unlink(temp.c_str());
            return ok;
        }
        if (sync == Sync::Durable && ::fsync(fd.get()) != 0) {
            auto error = ioError("sync", temp);
            ::unlink(temp.c_str());
            return fail(std::move(error));
        }
        if (::close(fd.release()) != 0) return fail(ioError("close", temp));
    }
    if (::rename(temp.c_str(), path.c_str()) != 0) return fail(ioError("rename into", path));
    return sync == Sync::Durable ? syncDirectoryOf(path) : Status{};
}

}  // namespace

Status writeFileDurably(const std::string& path, std::string_view bytes, Sync sync) {
    return writeThroughTemp(path, [&](int fd, const std::string& temp) { return writeAll(fd, bytes.data(), bytes.size(), temp); }, sync);
}

Status copyFileDurably(const std::string& from, const std::string& to) {
    Fd in(::open(from.c_str(), O_RDONLY | O_CLOEXEC));
    if (in.get() < 0) return fail(ioError("open", from));
    return writeThroughTemp(to, [&](int out, const std::string& temp) -> Status {
        std::vector<char> buffer(1 << 20);
        for (;;) {
            const auto n = ::read(in.get(), buffer.data(), buffer.size());
            if (n < 0) {
                if (errno == EINTR) continue;
                return fail(ioError("read", from));
            }
            if (n == 0) return {};
            if (auto ok = writeAll(out, buffer.data(), static_cast<std::size_t>(n), temp); !ok) return ok;
        }
    });
}

Result<std::string> readWholeFile(const std::string& path) {
    Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (fd.get() < 0) {
        if (errno == ENOENT) return fail(ErrorCode::NotFound, fmt::format("cannot open {}: no such file", path));
        return fail(ioError("open", path));
    }
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) return fail(ioError("examine", path));
    if (!S_ISREG(st.st_mode)) return fail(ErrorCode::DataLoss, fmt::format("{} is not a regular file", path));
    std::string text(static_cast<std::size_t>(st.st_size), '\0');
    std::size_t done = 0;
    while (done < text.size()) {
        const auto n = ::read(fd.get(), text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return fail(ioError("read", path));
        if (n == 0) break;  // shorter than it was a moment ago: what is there
        done += static_cast<std::size_t>(n);
    }
    text.resize(done);
    return text;
}

}  // namespace sonolink::dicom
