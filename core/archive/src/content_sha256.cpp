#include "sonolink/archive/content_sha256.h"

#include <openssl/evp.h>

#include <array>

#include <algorithm>
#include <functional>
#include <future>
#include <vector>

#include <fmt/format.h>

#include "encoding.h"

namespace sonolink::archive {

struct Sha256::Context {
    EVP_MD_CTX* md = EVP_MD_CTX_new();
    ~Context() { EVP_MD_CTX_free(md); }
};

Sha256::Sha256() : context_(std::make_unique<Context>()) { EVP_DigestInit_ex(context_->md, EVP_sha256(), nullptr); }

Sha256::~Sha256() = default;

void Sha256::update(std::span<const std::byte> bytes) { EVP_DigestUpdate(context_->md, bytes.data(), bytes.size()); }

std::string Sha256::hexDigest() {
    std::array<std::uint8_t, EVP_MAX_MD_SIZE> digest{};
    unsigned int size = 0;
    EVP_DigestFinal_ex(context_->md, digest.data(), &size);
    return encodeHex(std::span(digest).first(size));
}

std::string textSha256(std::string_view text) { return sha256Hex(std::as_bytes(std::span(text.data(), text.size()))); }

// 32 MiB a read (an archive object's is fetched in parallel ranges), the next read under way while
// this one is hashed.
Result<std::string> contentSha256(ByteSource& source) {
    constexpr std::uint64_t kPiece = 32u << 20;
    const std::uint64_t size = source.size();
    const auto bytesAt = [&](std::uint64_t offset) { return static_cast<std::size_t>(std::min(kPiece, size - offset)); };
    std::vector<std::byte> pieces[2];
    const auto fetch = [&](std::uint64_t offset, std::vector<std::byte>& into) {
        into.resize(bytesAt(offset));
        return source.read(offset, into);
    };
    Sha256 digest;
    std::future<Status> next;
    if (size > 0) next = std::async(std::launch::async, fetch, std::uint64_t{0}, std::ref(pieces[0]));
    for (std::uint64_t offset = 0, k = 0; offset < size; offset += kPiece, ++k) {
        if (auto ok = next.get(); !ok) return fail(std::move(ok.error()).addContext(fmt::format("checksumming {}", source.name())));
        if (offset + kPiece < size) next = std::async(std::launch::async, fetch, offset + kPiece, std::ref(pieces[(k + 1) % 2]));
        digest.update(pieces[k % 2]);
    }
    return digest.hexDigest();
}

}  // namespace sonolink::archive
