// The coordinator's dealings with its hosts (cluster_coordinator.h): admission, the plan's answer,
// partials, heartbeats, loss and return, and each frame let go by the joiner.
#include <algorithm>

#include <fmt/format.h>

#include "coordinator_state.h"
#include "sonolink/cluster/partial_image.h"
#include "sonolink/cluster/partial_sum.h"
#include "wall_clock.h"

namespace sonolink::cluster {

void ClusterCoordinator::Impl::handle(Inbound& item) {
    switch (item.what) {
        case Inbound::What::PeerAccepted: addresses[item.peer] = item.text; return;
        case Inbound::What::PeerLost:
            if (const auto it = hostOf.find(item.peer); it != hostOf.end()) {
                lose(it->second, "UCX: " + item.text);  // not after its Bye: it is done
                peerOf[static_cast<std::size_t>(it->second)].reset();
                hostOf.erase(it);
            }
            return;
        case Inbound::What::Message: break;
    }
    const auto it = hostOf.find(item.peer);
    const auto kind = static_cast<MessageKind>(item.kind);
    if (kind == MessageKind::Hello) return admit(item);
    if (it == hostOf.end()) return;  // not admitted: nothing it says counts
    hostHeard(item.peer, it->second, item.arrivedNs);
    if (kind == MessageKind::Partial) takePartial(item);
    else if (kind == MessageKind::PlanAnswer) takePlanAnswer(item, it->second);
    else if (kind == MessageKind::Heartbeat || kind == MessageKind::Bye) {
        auto counts = decodeHostCounts(item.header);
        if (!counts) return;
        withHealth(it->second, [&](HostHealth& h) {
            h.reported = *counts;
            h.saidBye = kind == MessageKind::Bye;
            if (h.saidBye && h.state != HostState::Refused) h.state = HostState::Done;
        });
        if (kind == MessageKind::Bye) byes[item.peer] = *counts;
    }
}

void ClusterCoordinator::Impl::refuse(PeerId peer, int host, std::string reason) {
    send(peer, MessageKind::Refusal, encode(TextMessage{reason}));
    emit({.kind = "host_refused", .atNs = 0, .host = host, .epoch = epoch, .trigger = 0, .text = std::move(reason)});
}

void ClusterCoordinator::Impl::admit(const Inbound& item) {
    auto hello = decodeHello(item.header);
    if (!hello) return refuse(item.peer, -1, hello.error().message());
    const auto host = static_cast<int>(hello->host);
    const std::string address = addresses[item.peer];
    if (hello->host >= file.hosts.size()) return refuse(item.peer, host, fmt::format("host {} is not in the cluster file's {} hosts", host, file.hosts.size()));
    const ClusterHost& expected = file.hosts[hello->host];
    if (hello->softwareVersion != plan.softwareVersion)
        return refuse(item.peer, host, fmt::format("host {} runs SonoLink {}, the coordinator {}", host, hello->softwareVersion, plan.softwareVersion));
    if (!expected.address.empty() && address.rfind(expected.address + ":", 0) != 0)
        return refuse(item.peer, host, fmt::format("host {} ({}) connected from {}, the cluster file says {}", host, expected.name, address, expected.address));
    if (peerOf[hello->host]) return refuse(item.peer, host, fmt::format("host {} ({}) is already connected", host, expected.name));
    peerOf[hello->host] = item.peer;
    hostOf[item.peer] = host;
    bool back = false;
    withHealth(host, [&](HostHealth& h) {
        back = h.losses > 0;
        h.address = address;
        h.state = HostState::Joined;
        h.lastHeardNs = item.arrivedNs;
        h.saidBye = false;
    });
    emit({.kind = back ? "host_back" : "host_joined", .atNs = 0, .host = host, .epoch = epoch, .trigger = 0, .text = address});
    if (started) newEpoch(fmt::format("host {} joined", host));
}

void ClusterCoordinator::Impl::takePlanAnswer(const Inbound& item, int host) {
    auto answer = decodePlanAnswer(item.header);
    if (answer && answer->accepted) return;
    const std::string reason = answer ? answer->reason : answer.error().message();
    withHealth(host, [&](HostHealth& h) {
        h.state = HostState::Refused;
        h.lastProblem = reason;
    });
    emit({.kind = "plan_refused", .atNs = 0, .host = host, .epoch = answer ? answer->epoch : epoch, .trigger = 0, .text = reason});
}

void ClusterCoordinator::Impl::hostHeard(PeerId, int host, std::int64_t atNs) {
    bool back = false;
    withHealth(host, [&](HostHealth& h) {
        h.lastHeardNs = atNs;
        back = h.state == HostState::Lost;
        if (back) h.state = HostState::Joined;
    });
    if (back) {
        emit({.kind = "host_back", .atNs = atNs, .host = host, .epoch = epoch, .trigger = 0, .text = "heard again"});
        newEpoch(fmt::format("host {} back", host));
    }
}

void ClusterCoordinator::Impl::lose(int host, std::string reason) {
    bool was = false;
    withHealth(host, [&](HostHealth& h) {
        was = h.state == HostState::Joined;
        if (!was) return;
        h.state = HostState::Lost;
        h.lastProblem = reason;
        ++h.losses;
    });
    if (was) emit({.kind = "host_lost", .atNs = 0, .host = host, .epoch = epoch, .trigger = triggerAt(wallNs()), .text = std::move(reason)});
}

void ClusterCoordinator::Impl::takePartial(Inbound& item) {
    ++partsFrom[item.peer];
    const int host = hostOf[item.peer];
    auto header = decodeHeader(item.header);
    auto values = header ? payloadValues(*header, item.payload) : Result<std::vector<float>>(fail(header.error()));
    if (values && header->host != host) values = fail(ErrorCode::InvalidArgument, fmt::format("a part from host {} says it is host {}", host, header->host));
    if (!values) {
        ++summary.corrupt;
        withHealth(host, [&](HostHealth& h) { h.lastProblem = values.error().message(); });
        return;
    }
    const std::size_t bytes = item.header.size() + item.payload.size();
    fabric->recycle(std::move(item.payload));  // the values are copied out: the next partial lands in it
    withHealth(host, [&](HostHealth& h) {
        h.bytesReceived += bytes;
        h.partialLatencyMsLast = static_cast<double>(item.arrivedNs - header->beamformedNs) / 1e6;
    });
    finish(joiner.offer(*header, std::move(*values), item.arrivedNs));
}

void ClusterCoordinator::Impl::finish(std::vector<JoinedFrame> frames) {
    for (JoinedFrame& joined : frames) {
        FinishedFrame frame{.triggerSequence = joined.triggerSequence,
                            .epoch = joined.epoch,
                            .complete = joined.complete,
                            .missingHosts = std::move(joined.missingHosts),
                            .sum = {},
                            .envelope = {},
                            .lastInNs = joined.lastInNs,
                            .readyNs = 0};
        const ClusterPlan& own = plans.contains(frame.epoch) ? plans[frame.epoch] : plan;
        frame.sum = std::move(joined.sum);
        frame.envelope = envelopeOfSum(own, frame.sum, 0);  // every core: the hosts are idle until the next trigger
        frame.readyNs = wallNs();
        summary.latencyMs.push_back(static_cast<double>(frame.readyNs - frame.lastInNs) / 1e6);
        summary.heldMsMax = std::max(summary.heldMsMax, static_cast<double>(frame.readyNs - joined.firstInNs) / 1e6);
        if (!frame.complete)
            emit({.kind = "frame_incomplete",
                  .atNs = frame.readyNs,
                  .host = frame.missingHosts.empty() ? -1 : frame.missingHosts.front(),
                  .epoch = frame.epoch,
                  .trigger = frame.triggerSequence,
                  .text = fmt::format("incomplete aperture: host {}", fmt::join(frame.missingHosts, ", host "))});
        if (options.onFrame) options.onFrame(frame);
    }
}

}  // namespace sonolink::cluster
