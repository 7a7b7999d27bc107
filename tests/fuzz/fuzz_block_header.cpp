// libFuzzer target: a ring slot's block header (checkBlockHeader), as the front end writes it:
// untrusted bytes of any length. A header that passes must describe a payload inside the slot.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>

#include "sonolink/transport/protocol/block_header.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto slot = std::as_bytes(std::span(data, size));
    sonolink::transport::BlockHeader header;
    if (sonolink::transport::checkBlockHeader(slot, header) != sonolink::transport::HeaderCheck::Ok) return 0;
    if (sonolink::transport::kBlockHeaderSize + header.payloadBytes > size) std::abort();  // checked, so inside the slot
    return 0;
}
