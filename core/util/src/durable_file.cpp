// Durable writes and safe reads: see durable_file.h.
#include "sonolink/util/durable_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include <fmt/format.h>

namespace sonolink {

Error ioError(std::string_view what, const std::string& path, int errnoValue) {
    if (errnoValue == ENOSPC || errnoValue == EDQUOT) {
        return Error(ErrorCode::ResourceExhausted, fmt::format("cannot {} {}: the disk is full ({})", what, path, std::strerror(errnoValue)));
    }
    return Error(errnoValue == ENOENT ? ErrorCode::NotFound : ErrorCode::DataLoss, fmt::format("cannot {} {}: {}", what, path, std::strerror(errnoValue)));
}

namespace {

Error lastError(std::string_view what, const std::string& path) { return ioError(what, path, errno); }

class Fd {
public:
    explicit Fd(int fd) : fd_(fd) {}
    ~Fd() {
        if (fd_ >= 0) ::close(fd_);
    }
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
            return fail(lastError("write", path));
        }
        data += n;
        size -= static_cast<std::size_t>(n);
    }
    return {};
}

std::string_view kindOf(mode_t mode) {
    if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISREG(mode)) return "a file";
    return "of an unknown kind";
}

// Writes through fill(fd) into a temporary file beside path, then syncs and renames it into place.
template <typename Fill> Status writeThroughTemp(const std::string& path, Fill fill, Sync sync = Sync::Durable) {
    const std::string temp = path + ".tmp";
    {
        Fd fd(::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600));  // they name patients
        if (fd.get() < 0) return fail(lastError("create", temp));
        if (auto ok = fill(fd.get(), temp); !ok) {
            ::unlink(temp.c_str());
            return ok;
        }
        if (sync == Sync::Durable && ::fsync(fd.get()) != 0) {
            auto error = lastError("sync", temp);
            ::unlink(temp.c_str());
            return fail(std::move(error));
        }
        if (::close(fd.release()) != 0) {
            auto error = lastError("close", temp);
            ::unlink(temp.c_str());
            return fail(std::move(error));
        }
    }
    if (::rename(temp.c_str(), path.c_str()) != 0) return fail(lastError("rename into", path));
    return sync == Sync::Durable ? syncDirectoryOf(path) : Status{};
}

}  // namespace

Status syncDirectoryOf(const std::string& path) {
    const auto dir = std::filesystem::path(path).parent_path().string();
    Fd fd(::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (fd.get() < 0 || ::fsync(fd.get()) != 0) return fail(lastError("sync the directory", dir));
    return {};
}

Status syncFile(const std::string& path) {
    Fd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
    if (fd.get() < 0) return fail(lastError("open", path));
    if (::fsync(fd.get()) != 0) return fail(lastError("sync", path));
    return {};
}

Status makePrivateDirectories(const std::string& directory) {
    // A folder that cannot be made (a file in its place, no permission) is the caller's to fix:
    // FailedPrecondition; a full disk stays ResourceExhausted.
    auto cannot = [](const std::string& folder) {
        Error e = lastError("create the folder", folder);
        return e.code() == ErrorCode::ResourceExhausted ? e : Error(ErrorCode::FailedPrecondition, e.message());
    };
    std::filesystem::path made;
    for (const auto& part : std::filesystem::absolute(directory).lexically_normal()) {
        made /= part;
        if (made == made.root_path() || part.empty()) continue;
        if (::mkdir(made.c_str(), 0700) == 0) continue;
        if (errno != EEXIST) return fail(cannot(made.string()));
    }
    struct stat st {};
    if (::stat(directory.c_str(), &st) != 0) return fail(cannot(directory));
    if (!S_ISDIR(st.st_mode)) return fail(ErrorCode::FailedPrecondition, fmt::format("cannot create the folder {}: it is {}", directory, kindOf(st.st_mode)));
    return {};
}

Status writeFileDurably(const std::string& path, std::string_view bytes, Sync sync) {
    return writeThroughTemp(
        path, [&](int fd, const std::string& temp) { return writeAll(fd, bytes.data(), bytes.size(), temp); }, sync);
}

Status copyFileDurably(const std::string& from, const std::string& to) {
    if (auto ok = requireRegularFile(from); !ok) return ok;
    Fd in(::open(from.c_str(), O_RDONLY | O_CLOEXEC));
    if (in.get() < 0) return fail(lastError("open", from));
    return writeThroughTemp(to, [&](int out, const std::string& temp) -> Status {
        std::vector<char> buffer(1 << 20);
        for (;;) {
            const auto n = ::read(in.get(), buffer.data(), buffer.size());
            if (n < 0) {
                if (errno == EINTR) continue;
                return fail(lastError("read", from));
            }
            if (n == 0) return {};
            if (auto ok = writeAll(out, buffer.data(), static_cast<std::size_t>(n), temp); !ok) return ok;
        }
    });
}

Status requireRegularFile(const std::string& path, std::string_view what) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        const int e = errno;
        if (e == ENOENT) return fail(ErrorCode::NotFound, fmt::format("{} {} does not exist", what, path));
        return fail(ErrorCode::InvalidArgument, fmt::format("cannot read {} {}: {}", what, path, std::strerror(e)));
    }
    if (!S_ISREG(st.st_mode)) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{} {} is {}, not a regular file", what, path, kindOf(st.st_mode)));
    }
    return {};
}

Result<std::string> readRegularFile(const std::string& path, std::size_t maxBytes, std::string_view what) {
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer, for ever.
    Fd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
    if (fd.get() < 0) {
        const int e = errno;
        if (e == ENOENT) return fail(ErrorCode::NotFound, fmt::format("cannot open {} {}: no such file", what, path));
        return fail(ErrorCode::InvalidArgument, fmt::format("cannot open {} {}: {}", what, path, std::strerror(e)));
    }
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) return fail(lastError("examine", path));
    if (!S_ISREG(st.st_mode)) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{} {} is {}, not a regular file", what, path, kindOf(st.st_mode)));
    }
    if (static_cast<std::uint64_t>(st.st_size) > maxBytes) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{} {} is {} bytes: more than such a file can be ({} at most)", what, path, st.st_size, maxBytes));
    }
    std::string text(static_cast<std::size_t>(st.st_size), '\0');
    std::size_t done = 0;
    while (done < text.size()) {
        const auto n = ::read(fd.get(), text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return fail(lastError("read", path));
        if (n == 0) break;  // shorter than it was a moment ago: what is there
        done += static_cast<std::size_t>(n);
    }
    text.resize(done);
    return text;
}

Result<std::string> readWholeFile(const std::string& path) {
    auto text = readRegularFile(path, std::size_t(1) << 40);
    if (!text && text.error().code() == ErrorCode::InvalidArgument) return fail(ErrorCode::DataLoss, text.error().message());
    return text;
}

}  // namespace sonolink
