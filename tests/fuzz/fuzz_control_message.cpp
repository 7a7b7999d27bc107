// libFuzzer target: control messages from the front end (decodeControlMessage), as untrusted
// bytes off the link. Anything decoded must encode again and decode to the same sequence.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>

#include "sonolink/transport/protocol/control_messages.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto bytes = std::as_bytes(std::span(data, size));
    auto decoded = sonolink::transport::decodeControlMessage(bytes);
    if (!decoded) return 0;
    const auto again = sonolink::transport::encodeControlMessage(decoded->message, decoded->sequence);
    auto back = sonolink::transport::decodeControlMessage(again);
    if (!back || back->sequence != decoded->sequence) std::abort();  // what we decode, we can send
    return 0;
}
