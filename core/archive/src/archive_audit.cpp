#include "sonolink/archive/archive_audit.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sonolink/util/station_user.h"

namespace sonolink::archive {

Result<std::unique_ptr<ArchiveAudit>> ArchiveAudit::open(const std::string& path) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (fd < 0) return fail(ErrorCode::Unavailable, fmt::format("cannot open the archive audit trail '{}': {}", path, std::strerror(errno)));
    return std::unique_ptr<ArchiveAudit>(new ArchiveAudit(path, fd));
}

ArchiveAudit::~ArchiveAudit() { ::close(fd_); }

Status ArchiveAudit::record(const ArchiveEvent& e) {
    const auto now = std::chrono::time_point_cast<std::chrono::milliseconds>(std::chrono::system_clock::now());
    nlohmann::json line{{"time", fmt::format("{:%Y-%m-%dT%H:%M:%S}Z", now)},
                        {"user", stationUser()},
                        {"action", e.action},
                        {"url", e.url},
                        {"outcome", e.ok ? "success" : "failure"}};
    if (!e.file.empty()) line["file"] = e.file;
    if (e.bytes) line["bytes"] = e.bytes;
    if (!e.crc32c.empty()) line["crc32c"] = e.crc32c;
    if (!e.error.empty()) line["error"] = e.error;
    const std::string text = line.dump() + "\n";
    std::lock_guard lock(mutex_);
    if (::write(fd_, text.data(), text.size()) != static_cast<ssize_t>(text.size()) || ::fsync(fd_) != 0) {
        return fail(ErrorCode::ResourceExhausted, fmt::format("cannot write the archive audit trail '{}': {}", path_, std::strerror(errno)));
    }
    return {};
}

}  // namespace sonolink::archive
