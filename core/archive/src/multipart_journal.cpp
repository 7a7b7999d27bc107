#include "sonolink/archive/multipart_journal.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iterator>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "encoding.h"
#include "sonolink/util/durable_file.h"
#include "sonolink/util/json_nesting.h"

namespace sonolink::archive {
namespace {

using nlohmann::json;

Status writeWhole(const std::filesystem::path& path, const std::string& text) {
    const std::filesystem::path temporary = path.string() + ".tmp";
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return fail(ErrorCode::Unavailable, fmt::format("cannot write '{}': {}", temporary.string(), std::strerror(errno)));
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            const int e = errno;
            ::close(fd);
            return fail(ErrorCode::ResourceExhausted, fmt::format("cannot write '{}': {}", temporary.string(), std::strerror(e)));
        }
        done += static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0 || ::close(fd) != 0) return fail(ErrorCode::ResourceExhausted, fmt::format("cannot sync '{}'", temporary.string()));
    if (::rename(temporary.c_str(), path.c_str()) != 0) {
        return fail(ErrorCode::Unavailable, fmt::format("cannot rename '{}': {}", temporary.string(), std::strerror(errno)));
    }
    if (const int dir = ::open(path.parent_path().empty() ? "." : path.parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dir >= 0) {
        ::fsync(dir);
        ::close(dir);
    }
    return {};
}

}  // namespace

bool MultipartJournal::describesSameUpload(const MultipartJournal& o) const noexcept {
    return file == o.file && sizeBytes == o.sizeBytes && modifiedNs == o.modifiedNs && crc32c == o.crc32c && bucket == o.bucket && key == o.key &&
           partSizeBytes == o.partSizeBytes;
}

std::filesystem::path journalPath(const std::filesystem::path& directory, const std::string& file, const std::string& bucket, const std::string& key) {
    const std::string identity = file + "\n" + bucket + "\n" + key;
    const auto digest = sha256(std::as_bytes(std::span(identity.data(), identity.size())));
    return directory / (encodeHex(std::span(digest.data(), 16)) + ".upload.json");
}

Result<std::optional<MultipartJournal>> loadJournal(const std::filesystem::path& path) {
    auto read = readRegularFile(path.string(), std::size_t(16) << 20, "upload journal");
    if (!read && read.error().code() == ErrorCode::NotFound) return std::optional<MultipartJournal>{};
    if (!read) return fail(ErrorCode::DataLoss, fmt::format("{}: it is not used", read.error().message()));
    const std::string& text = *read;
    if (auto ok = checkJsonNesting(text, "upload journal " + path.string()); !ok) return fail(ErrorCode::DataLoss, ok.error().message());
    try {
        const json j = json::parse(text);
        MultipartJournal m;
        m.file = j.at("file").get<std::string>();
        m.sizeBytes = j.at("size_bytes").get<std::uint64_t>();
        m.modifiedNs = j.at("modified_ns").get<std::int64_t>();
        m.crc32c = static_cast<std::uint32_t>(std::stoul(j.at("crc32c").get<std::string>(), nullptr, 16));
        m.bucket = j.at("bucket").get<std::string>();
        m.key = j.at("key").get<std::string>();
        m.uploadId = j.at("upload_id").get<std::string>();
        m.partSizeBytes = j.at("part_size_bytes").get<std::uint64_t>();
        for (const auto& p : j.at("parts")) {
            m.parts.push_back({p.at("number").get<int>(), p.at("etag").get<std::string>(), p.at("size_bytes").get<std::uint64_t>()});
        }
        return std::optional<MultipartJournal>(std::move(m));
    } catch (const std::exception& e) {
        return fail(ErrorCode::DataLoss, fmt::format("upload journal '{}' is damaged ({}): it is not used", path.string(), e.what()));
    }
}

Status saveJournal(const std::filesystem::path& path, const MultipartJournal& m) {
    json parts = json::array();
    for (const auto& p : m.parts) parts.push_back({{"number", p.number}, {"etag", p.etag}, {"size_bytes", p.sizeBytes}});
    const json j = {{"file", m.file},
                    {"size_bytes", m.sizeBytes},
                    {"modified_ns", m.modifiedNs},
                    {"crc32c", crc32cHex(m.crc32c)},
                    {"bucket", m.bucket},
                    {"key", m.key},
                    {"upload_id", m.uploadId},
                    {"part_size_bytes", m.partSizeBytes},
                    {"parts", parts}};
    return writeWhole(path, j.dump(1) + "\n");
}

}  // namespace sonolink::archive
