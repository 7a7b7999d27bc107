#include "sonolink/transport/protocol/byte_codec.h"

namespace sonolink::transport {

void ByteWriter::text(std::string_view v, std::size_t fieldSize) noexcept {
    for (std::size_t i = 0; i < fieldSize; ++i) u8(i < v.size() ? static_cast<std::uint8_t>(v[i]) : 0);
}

void ByteWriter::zeros(std::size_t count) noexcept {
    for (std::size_t i = 0; i < count; ++i) u8(0);
}

std::string_view ByteReader::text(std::size_t fieldSize) noexcept {
    if (pos_ + fieldSize > in_.size()) {
        ok_ = false;
        pos_ = in_.size();
        return {};
    }
    const auto* start = reinterpret_cast<const char*>(in_.data() + pos_);
    std::size_t length = 0;
    while (length < fieldSize && start[length] != '\0') ++length;
    pos_ += fieldSize;
    return {start, length};
}

void ByteReader::skip(std::size_t count) noexcept {
    if (pos_ + count > in_.size()) {
        ok_ = false;
        pos_ = in_.size();
        return;
    }
    pos_ += count;
}

}  // namespace sonolink::transport
