// Encodings and digests the S3 protocol speaks: hex, base64, SHA-256, MD5 (OpenSSL), URI
// encoding as SigV4 canonicalises it (RFC 3986 unreserved characters kept), CRC-32C (ISA-L).
// Thread contract: pure functions.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sonolink::archive {

[[nodiscard]] std::string encodeHex(std::span<const std::uint8_t> bytes);
[[nodiscard]] bool decodeHex(std::string_view text, std::vector<std::uint8_t>& out);
[[nodiscard]] std::string encodeBase64(std::span<const std::uint8_t> bytes);
[[nodiscard]] bool decodeBase64(std::string_view text, std::vector<std::uint8_t>& out);

[[nodiscard]] std::array<std::uint8_t, 32> sha256(std::span<const std::byte> data);
[[nodiscard]] std::string sha256Hex(std::span<const std::byte> data);
[[nodiscard]] std::array<std::uint8_t, 16> md5(std::span<const std::uint8_t> data);

// Every byte but A-Z a-z 0-9 - _ . ~ (and '/' when keepSlash) as %XX, upper-case hex.
[[nodiscard]] std::string uriEncode(std::string_view text, bool keepSlash);

// Without leading and trailing blanks (space, tab, CR, LF); lower-case ASCII.
[[nodiscard]] std::string trimmed(std::string_view text);
[[nodiscard]] std::string lowerCase(std::string_view text);

[[nodiscard]] std::uint32_t crc32cOf(std::span<const std::byte> data, std::uint32_t previous = 0);
// The CRC-32C of A then B, from A's, B's and B's length (zlib's crc32_combine, Castagnoli's
// polynomial): pieces read in parallel checksummed apart, then joined.
[[nodiscard]] std::uint32_t crc32cCombine(std::uint32_t first, std::uint32_t second, std::uint64_t secondBytes);
[[nodiscard]] std::string crc32cHex(std::uint32_t crc);

}  // namespace sonolink::archive
