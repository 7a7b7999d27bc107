// PatternTally: checks the payload of every test-pattern block as it arrives, CRC-good or not
// (the CRC says that a block is damaged, the pattern how many of its bits): PRBS-7/15/23/31 with
// PrbsChecker, each block locked on its own; the 32-bit counter word by word. Its counts are the
// link's payload bit error rate, apart from the blocks' CRC errors.
// Thread contract: check() on the ingest thread; counts() from any thread.
#pragma once

#include <array>
#include <mutex>
#include <optional>
#include <span>

#include "sonolink/transport/protocol/block_header.h"
#include "sonolink/transport/protocol/prbs_checker.h"

namespace sonolink::ingest {

class PatternTally {
public:
    void check(transport::PayloadKind kind, std::span<const std::byte> payload) noexcept;
    [[nodiscard]] transport::PrbsCounts counts() const;

private:
    std::array<std::optional<transport::PrbsChecker>, 4> prbs_;  // by kind: PRBS-7, 15, 23, 31
    transport::PrbsCounts counter_;
    mutable std::mutex mutex_;
    transport::PrbsCounts published_;
};

}  // namespace sonolink::ingest
