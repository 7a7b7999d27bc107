#include "sonolink/ingest/clock_offset.h"

#include <algorithm>
#include <ctime>

namespace sonolink::ingest {

bool ClockOffset::answer(const transport::TimeSync& reply, std::uint64_t t4Ns) noexcept {
    const bool ours = pendingT1Ns != 0 && reply.t1HostSendNs == pendingT1Ns;
    const bool ordered = t4Ns >= reply.t1HostSendNs && reply.t3FrontEndSendNs >= reply.t2FrontEndReceiveNs &&
                         t4Ns - reply.t1HostSendNs >= reply.t3FrontEndSendNs - reply.t2FrontEndReceiveNs;
    if (!ours || !ordered) {
        ++refused;
        return false;
    }
    pendingT1Ns = 0;
    const auto signedNs = [](std::uint64_t a, std::uint64_t b) { return static_cast<std::int64_t>(a - b); };
    recent[exchanges % kFilter] = {(signedNs(reply.t2FrontEndReceiveNs, reply.t1HostSendNs) + signedNs(reply.t3FrontEndSendNs, t4Ns)) / 2,
                                   static_cast<std::int64_t>((t4Ns - reply.t1HostSendNs) - (reply.t3FrontEndSendNs - reply.t2FrontEndReceiveNs)) / 2};
    ++exchanges;
    const auto held = std::min<std::uint64_t>(exchanges, kFilter);
    const auto best = std::min_element(recent.begin(), recent.begin() + static_cast<std::ptrdiff_t>(held),
                                       [](const Sample& a, const Sample& b) { return a.pathDelayNs < b.pathDelayNs; });
    offsetNs = best->offsetNs;
    pathDelayNs = best->pathDelayNs;
    return true;
}

std::uint64_t hostRealtimeNs() noexcept {
    timespec ts{};
    clock_gettime(CLOCK_REALTIME, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000ull + static_cast<std::uint64_t>(ts.tv_nsec);
}

}  // namespace sonolink::ingest
