#include "sonolink/archive/content_sha256.h"

#include <openssl/evp.h>

#include <algorithm>
#include <vector>

#include <fmt/format.h>

namespace sonolink::archive {

struct Sha256::Context {
    EVP_MD_CTX* md = EVP_MD_CTX_new();
    ~Context() { EVP_MD_CTX_free(md); }
};

Sha256::Sha256() : context_(std::make_unique<Context>()) { EVP_DigestInit_ex(context_->md, EVP_sha256(), nullptr); }

Sha256::~Sha256() = default;

void Sha256::update(std::span<const std::byte> bytes) { EVP_DigestUpdate(context_->md, bytes.data(), bytes.size()); }

std::string Sha256::hexDigest() {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    EVP_DigestFinal_ex(context_->md, digest, &size);
    std::string hex;
    for (unsigned int i = 0; i < size; ++i) hex += fmt::format("{:02x}", digest[i]);
    return hex;
}

Result<std::string> contentSha256(ByteSource& source) {
    constexpr std::uint64_t kPiece = 8u << 20;
    std::vector<std::byte> piece(static_cast<std::size_t>(std::min<std::uint64_t>(kPiece, std::max<std::uint64_t>(source.size(), 1))));
    Sha256 digest;
    for (std::uint64_t offset = 0; offset < source.size(); offset += kPiece) {
        const auto bytes = std::span(piece).first(static_cast<std::size_t>(std::min(kPiece, source.size() - offset)));
        if (auto ok = source.read(offset, bytes); !ok) return fail(std::move(ok.error()).addContext(fmt::format("checksumming {}", source.name())));
        digest.update(bytes);
    }
    return digest.hexDigest();
}

}  // namespace sonolink::archive
