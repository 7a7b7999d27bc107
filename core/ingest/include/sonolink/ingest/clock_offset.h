// ClockOffset: the front end's clock against the host's, from TimeSync exchanges on the control
// plane with IEEE 1588's two-way arithmetic: offset = ((t2 - t1) + (t3 - t4)) / 2 (front end
// minus host), path delay = ((t4 - t1) - (t3 - t2)) / 2; the offset's error is at most the path
// delay. Of the last kFilter exchanges the one with the least delay is reported (NTP's clock
// filter, RFC 5905 section 10): one held up on a busy host does not displace a good one. A reply
// that answers no exchange this side began (a stale or garbled t1) or whose times run backwards is
// counted and not used.
// Thread contract: a plain value, updated by one thread (the session's).
#pragma once

#include <array>
#include <cstdint>

#include "sonolink/transport/protocol/control_messages.h"

namespace sonolink::ingest {

struct ClockOffset {
    static constexpr std::size_t kFilter = 8;
    struct Sample {
        std::int64_t offsetNs = 0;
        std::int64_t pathDelayNs = 0;
    };

    std::uint64_t exchanges = 0;  // replies used
    std::uint64_t refused = 0;    // replies not used
    std::int64_t offsetNs = 0;    // of the least-delayed of the last kFilter exchanges
    std::int64_t pathDelayNs = 0;
    std::uint64_t pendingT1Ns = 0;         // the exchange this side began and awaits (0: none)
    std::array<Sample, kFilter> recent{};  // the last exchanges, exchanges % kFilter the next to go

    // A reply, t4 being when it arrived (host clock): true when it was used.
    bool answer(const transport::TimeSync& reply, std::uint64_t t4Ns) noexcept;
};

[[nodiscard]] std::uint64_t hostRealtimeNs() noexcept;  // CLOCK_REALTIME: the clock PTP disciplines

}  // namespace sonolink::ingest
