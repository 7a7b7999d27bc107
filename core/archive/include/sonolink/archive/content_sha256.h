// Content checksums for the archive's derived data: SHA-256 over bytes given in pieces
// (OpenSSL's EVP), and over a whole ByteSource (a local file or an S3 object) read in 8 MiB
// ranges, so a recording of any size is checked without holding it.
// Thread contract: a Sha256 is used by one thread; contentSha256() reads its source alone.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "sonolink/util/byte_source.h"
#include "sonolink/util/result.h"

namespace sonolink::archive {

class Sha256 {
public:
    Sha256();
    ~Sha256();
    Sha256(const Sha256&) = delete;
    Sha256& operator=(const Sha256&) = delete;
    void update(std::span<const std::byte> bytes);
    [[nodiscard]] std::string hexDigest();  // lower-case hex; the object is spent after it

private:
    struct Context;
    std::unique_ptr<Context> context_;
};

// The SHA-256 of a text (a recipe's canonical JSON, a task's name), in lower-case hex.
[[nodiscard]] std::string textSha256(std::string_view text);

// The SHA-256 of every byte of the source, in lower-case hex; its read errors as they are.
[[nodiscard]] Result<std::string> contentSha256(ByteSource& source);

}  // namespace sonolink::archive
