#include "encoding.h"

#include <openssl/evp.h>

#include <cctype>

#include <fmt/format.h>

#include "sonolink/util/crc32c.h"

namespace sonolink::archive {

std::string encodeHex(std::span<const std::uint8_t> bytes) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out;
    out.reserve(bytes.size() * 2);
    for (auto b : bytes) {
        out.push_back(kDigits[b >> 4]);
        out.push_back(kDigits[b & 15]);
    }
    return out;
}

bool decodeHex(std::string_view text, std::vector<std::uint8_t>& out) {
    if (text.size() % 2 != 0) return false;
    auto nibble = [](char c) -> int {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    };
    out.clear();
    for (std::size_t i = 0; i < text.size(); i += 2) {
        const int hi = nibble(text[i]), lo = nibble(text[i + 1]);
        if (hi < 0 || lo < 0) return false;
        out.push_back(static_cast<std::uint8_t>(hi << 4 | lo));
    }
    return true;
}

std::string encodeBase64(std::span<const std::uint8_t> bytes) {
    std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
    const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()), bytes.data(), static_cast<int>(bytes.size()));
    out.resize(static_cast<std::size_t>(n));
    return out;
}

bool decodeBase64(std::string_view text, std::vector<std::uint8_t>& out) {
    if (text.empty() || text.size() % 4 != 0) return false;
    out.assign(text.size() / 4 * 3, 0);
    const int n = EVP_DecodeBlock(out.data(), reinterpret_cast<const unsigned char*>(text.data()), static_cast<int>(text.size()));
    if (n < 0) return false;
    std::size_t size = static_cast<std::size_t>(n);
    if (text.ends_with("==")) size -= 2;
    else if (text.ends_with("=")) size -= 1;
    out.resize(size);
    return true;
}

std::array<std::uint8_t, 32> sha256(std::span<const std::byte> data) {
    std::array<std::uint8_t, 32> digest{};
    unsigned int size = 0;
    EVP_Digest(data.data(), data.size(), digest.data(), &size, EVP_sha256(), nullptr);
    return digest;
}

std::string sha256Hex(std::span<const std::byte> data) { return encodeHex(sha256(data)); }

std::array<std::uint8_t, 16> md5(std::span<const std::uint8_t> data) {
    std::array<std::uint8_t, 16> digest{};
    unsigned int size = 0;
    EVP_Digest(data.data(), data.size(), digest.data(), &size, EVP_md5(), nullptr);
    return digest;
}

std::string uriEncode(std::string_view text, bool keepSlash) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if ((u >= 'A' && u <= 'Z') || (u >= 'a' && u <= 'z') || (u >= '0' && u <= '9') || c == '-' || c == '_' || c == '.' || c == '~' ||
            (keepSlash && c == '/')) {
            out.push_back(c);
        } else {
            out += fmt::format("%{:02X}", u);
        }
    }
    return out;
}

std::string trimmed(std::string_view text) {
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return {};
    return std::string(text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1));
}

std::string lowerCase(std::string_view text) {
    std::string out(text);
    for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::uint32_t crc32cOf(std::span<const std::byte> data, std::uint32_t previous) { return crc32cEnd(crc32cUpdate(crc32cEnd(previous), data)); }

namespace {

// Multiplication by a 32 x 32 matrix over GF(2) (one column per bit), as zlib combines CRCs.
std::uint32_t gf2Times(const std::uint32_t* matrix, std::uint32_t vector) {
    std::uint32_t sum = 0;
    for (; vector != 0; vector >>= 1, ++matrix) {
        if (vector & 1u) sum ^= *matrix;
    }
    return sum;
}

void gf2Square(std::uint32_t* square, const std::uint32_t* matrix) {
    for (int n = 0; n < 32; ++n) square[n] = gf2Times(matrix, matrix[n]);
}

}  // namespace

std::uint32_t crc32cCombine(std::uint32_t first, std::uint32_t second, std::uint64_t secondBytes) {
    if (secondBytes == 0) return first;
    std::uint32_t even[32], odd[32];
    odd[0] = 0x82F63B78u;  // CRC-32C (Castagnoli), reflected
    for (int n = 1; n < 32; ++n) odd[n] = 1u << (n - 1);
    gf2Square(even, odd);  // two zero bits
    gf2Square(odd, even);  // four
    do {                   // one zero byte, then doubling, applied per bit of the length
        gf2Square(even, odd);
        if (secondBytes & 1u) first = gf2Times(even, first);
        secondBytes >>= 1;
        if (secondBytes == 0) break;
        gf2Square(odd, even);
        if (secondBytes & 1u) first = gf2Times(odd, first);
        secondBytes >>= 1;
    } while (secondBytes != 0);
    return first ^ second;
}

std::string crc32cHex(std::uint32_t crc) { return fmt::format("{:08x}", crc); }

}  // namespace sonolink::archive
