// A whole file mapped read-only, with its size and time of last change: a recording read in place
// straight from the page cache (mapFile). Another process truncating the file makes a
// read of the lost pages fault: map only files that are whole and stay so.
// Thread contract: immutable after open(); the bytes may be read from any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>

#include "sonolink/util/result.h"

namespace sonolink {

class MappedFile {
public:
    [[nodiscard]] static Result<MappedFile> open(const std::filesystem::path& path);
    MappedFile(MappedFile&& other) noexcept;
    MappedFile& operator=(MappedFile&&) = delete;
    MappedFile(const MappedFile&) = delete;
    ~MappedFile();

    [[nodiscard]] std::span<const std::byte> bytes() const noexcept { return {data_, size_}; }
    [[nodiscard]] std::int64_t modifiedNs() const noexcept { return modifiedNs_; }
    [[nodiscard]] const std::filesystem::path& path() const noexcept { return path_; }

private:
    MappedFile(std::filesystem::path path, const std::byte* data, std::size_t size, std::int64_t modifiedNs)
        : path_(std::move(path)), data_(data), size_(size), modifiedNs_(modifiedNs) {}
    std::filesystem::path path_;
    const std::byte* data_ = nullptr;
    std::size_t size_ = 0;
    std::int64_t modifiedNs_ = 0;
};

}  // namespace sonolink
