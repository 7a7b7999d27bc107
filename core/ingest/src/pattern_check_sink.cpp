#include "sonolink/ingest/pattern_check_sink.h"

#include <bit>

#include "sonolink/transport/protocol/test_patterns.h"

namespace sonolink::ingest {

void PatternCheckSink::onFrame(const FrameRef& frame) noexcept {
    const auto kind = frame->payloadKind();
    std::uint64_t checked = 0, errors = 0;
    if (transport::isPrbs(kind)) {
        transport::PrbsChecker checker(transport::prbsSpec(kind));
        for (std::uint16_t b = 0; b < frame->blockCount(); ++b) checker.check(frame->block(b).payload);
        checked = checker.bitsChecked();
        errors = checker.bitErrors();
    } else if (kind == transport::PayloadKind::Counter) {
        bool first = true;
        std::uint32_t expected = 0;
        for (std::uint16_t b = 0; b < frame->blockCount(); ++b) {
            const auto payload = frame->block(b).payload;
            for (std::size_t i = 0; i + 4 <= payload.size(); i += 4) {
                std::uint32_t word = 0;
                for (int k = 0; k < 4; ++k) word |= std::to_integer<std::uint32_t>(payload[i + static_cast<std::size_t>(k)]) << (8 * k);
                if (!first) {
                    checked += 32;
                    errors += static_cast<std::uint64_t>(std::popcount(word ^ expected));
                }
                first = false;
                expected = word + 1;  // a damaged word would resynchronise the count at once
            }
        }
    } else {
        return;
    }
    bitsChecked_.fetch_add(checked, std::memory_order_relaxed);
    bitErrors_.fetch_add(errors, std::memory_order_relaxed);
    frames_.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace sonolink::ingest
