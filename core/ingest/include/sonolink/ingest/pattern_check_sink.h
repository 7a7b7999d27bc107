// PatternCheckSink: checks test-pattern frames (PRBS-7/15/23/31, counter) bit by bit as they
// are delivered: each frame's payload, in block order, against the pattern (a PRBS checker
// locks on the frame's first bits; a counter must increment word by word). Counts bits checked
// and bit errors, the raw material of a BER measurement. RF frames are ignored.
// Thread contract: onFrame on the ingest thread; the counts from any thread.
#pragma once

#include <atomic>
#include <cstdint>

#include "sonolink/ingest/frame.h"

namespace sonolink::ingest {

class PatternCheckSink final : public FrameSink {
public:
    void onFrame(const FrameRef& frame) noexcept override;
    [[nodiscard]] std::uint64_t bitsChecked() const noexcept { return bitsChecked_.load(std::memory_order_relaxed); }
    [[nodiscard]] std::uint64_t bitErrors() const noexcept { return bitErrors_.load(std::memory_order_relaxed); }
    [[nodiscard]] std::uint64_t framesChecked() const noexcept { return frames_.load(std::memory_order_relaxed); }

private:
    std::atomic<std::uint64_t> bitsChecked_{0};
    std::atomic<std::uint64_t> bitErrors_{0};
    std::atomic<std::uint64_t> frames_{0};
};

}  // namespace sonolink::ingest
