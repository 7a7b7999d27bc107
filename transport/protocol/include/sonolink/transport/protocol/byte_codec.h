// ByteWriter / ByteReader: explicit little-endian encoding of wire fields into and out of byte
// buffers, with bounds checks on every access. Untrusted bytes are only ever read field by
// field through ByteReader; never reinterpret_cast into a struct.
// A reader that runs past the end stops reading, yields zeros and remembers it (ok() == false).
// Thread contract: single-threaded values; no allocation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>

namespace sonolink::transport {

class ByteWriter {
public:
    explicit ByteWriter(std::span<std::byte> out) noexcept : out_(out) {}

    void u8(std::uint8_t v) noexcept { put(v, 1); }
    void u16(std::uint16_t v) noexcept { put(v, 2); }
    void u32(std::uint32_t v) noexcept { put(v, 4); }
    void u64(std::uint64_t v) noexcept { put(v, 8); }
    void i32(std::int32_t v) noexcept { put(static_cast<std::uint32_t>(v), 4); }
    // Fixed-size text field: copied and zero-padded; text longer than the field is cut.
    void text(std::string_view v, std::size_t fieldSize) noexcept;
    void zeros(std::size_t count) noexcept;

    [[nodiscard]] std::size_t position() const noexcept { return pos_; }
    [[nodiscard]] bool ok() const noexcept { return ok_; }

private:
    void put(std::uint64_t v, std::size_t bytes) noexcept {
        if (pos_ + bytes > out_.size()) {
            ok_ = false;
            return;
        }
        for (std::size_t i = 0; i < bytes; ++i) out_[pos_ + i] = static_cast<std::byte>(v >> (8 * i));
        pos_ += bytes;
    }
    std::span<std::byte> out_;
    std::size_t pos_ = 0;
    bool ok_ = true;
};

class ByteReader {
public:
    explicit ByteReader(std::span<const std::byte> in) noexcept : in_(in) {}

    std::uint8_t u8() noexcept { return static_cast<std::uint8_t>(get(1)); }
    std::uint16_t u16() noexcept { return static_cast<std::uint16_t>(get(2)); }
    std::uint32_t u32() noexcept { return static_cast<std::uint32_t>(get(4)); }
    std::uint64_t u64() noexcept { return get(8); }
    std::int32_t i32() noexcept { return static_cast<std::int32_t>(static_cast<std::uint32_t>(get(4))); }
    // Fixed-size text field: up to the first zero byte (or the whole field).
    std::string_view text(std::size_t fieldSize) noexcept;
    void skip(std::size_t count) noexcept;

    [[nodiscard]] std::size_t position() const noexcept { return pos_; }
    [[nodiscard]] std::size_t remaining() const noexcept { return in_.size() - pos_; }
    [[nodiscard]] bool ok() const noexcept { return ok_; }

private:
    std::uint64_t get(std::size_t bytes) noexcept {
        if (pos_ + bytes > in_.size()) {
            ok_ = false;
            pos_ = in_.size();
            return 0;
        }
        std::uint64_t v = 0;
        for (std::size_t i = 0; i < bytes; ++i) v |= std::uint64_t(std::to_integer<std::uint8_t>(in_[pos_ + i])) << (8 * i);
        pos_ += bytes;
        return v;
    }
    std::span<const std::byte> in_;
    std::size_t pos_ = 0;
    bool ok_ = true;
};

}  // namespace sonolink::transport
