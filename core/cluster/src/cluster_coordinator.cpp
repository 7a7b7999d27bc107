#include "sonolink/cluster/cluster_coordinator.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "coordinator_state.h"
#include "wall_clock.h"

namespace sonolink::cluster {

std::string_view toString(HostState state) noexcept {
    switch (state) {
        case HostState::Joined: return "joined";
        case HostState::Lost: return "lost";
        case HostState::Refused: return "refused";
        case HostState::Done: return "done";
        case HostState::Waiting: break;
    }
    return "waiting";
}

ClusterCoordinator::Impl::Impl(CoordinatorOptions o)
    : options(std::move(o)), file(options.file), plan(file.plan), hash(planHash(plan)),
      joiner({.hosts = file.hosts.size(), .deadlineNs = file.timing.deadlineNs(), .policy = file.timing.incomplete, .mostFramesOpen = 64}, hash,
             file.plan.partialValues()) {
    peerOf.resize(file.hosts.size());
    for (const ClusterHost& h : file.hosts)
        health.push_back({.name = h.name,
                          .address = {},
                          .state = HostState::Waiting,
                          .lastProblem = {},
                          .losses = 0,
                          .bytesReceived = 0,
                          .lastHeardNs = 0,
                          .partialLatencyMsLast = 0,
                          .reported = {},
                          .saidBye = false});
}

void ClusterCoordinator::Impl::emit(CoordinatorEvent event) {
    if (event.atNs == 0) event.atNs = wallNs();
    if (options.onEvent) options.onEvent(event);
}

std::uint64_t ClusterCoordinator::Impl::triggerAt(std::int64_t ns) const noexcept {
    return ns <= originNs ? 0 : static_cast<std::uint64_t>((ns - originNs) / file.timing.periodNs());
}

void ClusterCoordinator::Impl::send(PeerId peer, MessageKind kind, std::vector<std::byte> header, std::vector<std::byte> payload) {
    (void)fabric->send(peer, static_cast<std::uint16_t>(kind), std::move(header), std::move(payload));  // a lost peer is the loss's to report
}

void ClusterCoordinator::Impl::sendPlan(PeerId peer, std::uint64_t fromTrigger) {
    const PlanMessage message{.session = options.session,
                              .planHash = hash,
                              .epoch = epoch,
                              .fromTrigger = fromTrigger,
                              .clockOriginNs = originNs,
                              .periodNs = file.timing.periodNs()};
    send(peer, MessageKind::Plan, encode(message), bytesOf(toJson(plan)));
}

void ClusterCoordinator::Impl::start() {
    originNs = wallNs() + 1'000'000'000;  // time for every host to take the plan before trigger 0, loaded cores included
    started = true;
    joiner.beginEpoch(hash, epoch, 0, plan.partialValues());
    plans[epoch] = plan;
    for (const auto& [peer, host] : hostOf) sendPlan(peer, 0);
    emit({.kind = "started", .atNs = 0, .host = -1, .epoch = epoch, .trigger = 0, .text = fmt::format("plan {:016x}, {} hosts", hash, hostOf.size())});
}

// Every host takes the plan again at a new epoch, from a trigger far enough ahead (at least two
// frames and 100 ms) that each has it before it applies.
void ClusterCoordinator::Impl::newEpoch(std::string why) {
    ++epoch;
    const std::int64_t period = file.timing.periodNs();
    const auto lead = static_cast<std::uint64_t>(std::max<std::int64_t>(2, (100'000'000 + period - 1) / period));
    const std::uint64_t from = triggerAt(std::max(wallNs(), originNs)) + lead;
    joiner.beginEpoch(hash, epoch, from, plan.partialValues());
    plans[epoch] = plan;
    for (const auto& [peer, host] : hostOf) sendPlan(peer, from);
    emit({.kind = "epoch", .atNs = 0, .host = -1, .epoch = epoch, .trigger = from, .text = std::move(why)});
}

// The plan changes that are due: each a new epoch with the new plan.
void ClusterCoordinator::Impl::changePlans(std::int64_t nowNs) {
    while (changesMade < options.planChanges.size() && nowNs >= originNs + options.planChanges[changesMade].afterNs) {
        plan = options.planChanges[changesMade++].plan;
        hash = planHash(plan);
        newEpoch(fmt::format("imaging changed: plan {:016x}", hash));
    }
}

void ClusterCoordinator::Impl::publishStats() {
    std::lock_guard lock(healthMutex);
    countsNow = joiner.counts();
    epochNow = epoch;
    const std::size_t keep = 1024;
    const std::size_t from = summary.latencyMs.size() > keep ? summary.latencyMs.size() - keep : 0;
    recentLatencyMs.assign(summary.latencyMs.begin() + static_cast<std::ptrdiff_t>(from), summary.latencyMs.end());
}

void ClusterCoordinator::Impl::keepTime(std::int64_t nowNs) {
    if (started) changePlans(nowNs);
    publishStats();
    finish(joiner.expire(nowNs));
    const std::int64_t silence = std::int64_t{file.timing.hostLostMs} * 1'000'000;
    for (std::size_t h = 0; h < peerOf.size(); ++h) {
        std::int64_t heard = 0;
        HostState state{};
        withHealth(static_cast<int>(h), [&](HostHealth& x) { heard = x.lastHeardNs, state = x.state; });
        if (state == HostState::Joined && nowNs - heard > silence) lose(static_cast<int>(h), fmt::format("no word for {} ms", (nowNs - heard) / 1'000'000));
    }
    if (nowNs - lastHeartbeatNs >= std::int64_t{file.timing.heartbeatMs} * 1'000'000) {
        lastHeartbeatNs = nowNs;
        for (const auto& [peer, host] : hostOf) send(peer, MessageKind::Heartbeat, encode(HostCounts{}));
    }
}

// Takes what comes in and keeps time until `untilNs` (wall clock) or stop().
void ClusterCoordinator::Impl::pump(std::int64_t untilNs) {
    while (!stopping) {
        const std::int64_t now = wallNs();
        if (now >= untilNs) return;
        const std::int64_t wake = std::min({untilNs, joiner.nextDeadlineNs(), now + std::int64_t{file.timing.heartbeatMs} * 1'000'000 / 2});
        for (Inbound& item : inbox.wait(steadyAt(wake))) handle(item);
        keepTime(wallNs());
    }
}

void ClusterCoordinator::Impl::end() {
    const std::uint64_t last = triggerAt(wallNs()) + 1;
    for (const auto& [peer, host] : hostOf) send(peer, MessageKind::Stop, encode(StopMessage{last}));
    const std::int64_t give = wallNs() + 2 * file.timing.periodNs() + 3'000'000'000;
    while (wallNs() < give && std::any_of(hostOf.begin(), hostOf.end(), [&](const auto& entry) { return !byes.contains(entry.first); })) {
        for (Inbound& item : inbox.wait(steadyAt(std::min(give, wallNs() + 10'000'000)))) handle(item);
        finish(joiner.expire(wallNs()));
    }
    pump(wallNs() + 200'000'000);  // the last partials behind a Bye (active messages keep no order)
    finish(joiner.expire(std::numeric_limits<std::int64_t>::max()));
    summary.counts = joiner.counts();
    summary.firstTrigger = joiner.firstEmitted();
    summary.lastTrigger = joiner.lastEmitted();
    checkCounts();
}

// Each connection that said Bye sent as many parts as came in from it; the frames add up to the
// triggers spanned.
void ClusterCoordinator::Impl::checkCounts() {
    std::vector<std::string> problems;
    for (const auto& [peer, counts] : byes)
        if (counts.partialsSent != partsFrom[peer])
            problems.push_back(
                fmt::format("host {} sent {} parts, {} came in", hostOf.contains(peer) ? hostOf[peer] : -1, counts.partialsSent, partsFrom[peer]));
    const JoinerCounts& c = summary.counts;
    const std::uint64_t frames = c.complete + c.incomplete + c.dropped + c.neverSeen;
    if (frames > 0 && frames != summary.lastTrigger - summary.firstTrigger + 1)
        problems.push_back(fmt::format("{} frames counted over triggers {}..{}", frames, summary.firstTrigger, summary.lastTrigger));
    summary.countsAgree = problems.empty();
    summary.disagreement = fmt::format("{}", fmt::join(problems, "; "));
}

ClusterCoordinator::ClusterCoordinator(CoordinatorOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {}
ClusterCoordinator::~ClusterCoordinator() = default;

void ClusterCoordinator::stop() noexcept {
    impl_->stopping = true;
    impl_->inbox.push({});
}

CoordinatorStats ClusterCoordinator::stats() const {
    CoordinatorStats out;
    std::vector<double> latency;
    {
        std::lock_guard lock(impl_->healthMutex);
        out.counts = impl_->countsNow;
        out.hosts = impl_->health;
        out.epoch = impl_->epochNow;
        latency = impl_->recentLatencyMs;
    }
    std::sort(latency.begin(), latency.end());
    auto at = [&](double p) { return latency.empty() ? 0.0 : latency[static_cast<std::size_t>(p * static_cast<double>(latency.size() - 1) + 0.5)]; };
    out.addedLatencyMsP50 = at(0.5);
    out.addedLatencyMsP99 = at(0.99);
    return out;
}

std::vector<HostHealth> ClusterCoordinator::health() const {
    std::lock_guard lock(impl_->healthMutex);
    return impl_->health;
}

Result<std::uint16_t> ClusterCoordinator::listen() {
    Impl& s = *impl_;
    transport::ucx::FabricCallbacks callbacks;
    callbacks.onMessage = [&s](PeerId peer, std::uint16_t kind, std::span<const std::byte> header, std::vector<std::byte> payload) {
        s.inbox.push({Inbound::What::Message, peer, kind, {header.begin(), header.end()}, std::move(payload), {}, wallNs()});
    };
    callbacks.onPeerAccepted = [&s](PeerId peer, std::string address) {
        s.inbox.push({Inbound::What::PeerAccepted, peer, 0, {}, {}, std::move(address), wallNs()});
    };
    callbacks.onPeerLost = [&s](PeerId peer, std::string reason) { s.inbox.push({Inbound::What::PeerLost, peer, 0, {}, {}, std::move(reason), wallNs()}); };
    auto fabric = Fabric::create(fabricOptions(s.file.ucxTransports, s.file.ucxNetDevices), std::move(callbacks));
    if (!fabric) return fail(fabric.error());
    s.fabric = std::move(*fabric);
    auto port = s.fabric->listen(s.file.coordinatorAddress, s.file.coordinatorPort);
    if (!port) return fail(port.error());
    s.emit({.kind = "listening",
            .atNs = 0,
            .host = -1,
            .epoch = 0,
            .trigger = 0,
            .text = fmt::format("{}:{} over UCX_TLS={}", s.file.coordinatorAddress, *port, s.file.ucxTransports)});
    return port;
}

Result<CoordinatorSummary> ClusterCoordinator::run() {
    Impl& s = *impl_;
    if (!s.fabric) return fail(ErrorCode::FailedPrecondition, "the coordinator runs after listen()");
    const std::int64_t joinBy = wallNs() + s.options.joinTimeoutNs;
    // Heartbeats go out while the others join: a host in early must not take the wait for a loss.
    const std::int64_t beat = std::int64_t{s.file.timing.heartbeatMs} * 1'000'000;
    while (!s.stopping && wallNs() < joinBy && s.hostOf.size() < s.file.hosts.size()) {
        for (Inbound& item : s.inbox.wait(steadyAt(std::min(joinBy, wallNs() + beat / 2)))) s.handle(item);
        s.keepTime(wallNs());
    }
    s.start();
    s.pump(s.originNs + s.options.durationNs);
    s.end();
    s.emit({.kind = "ended", .atNs = 0, .host = -1, .epoch = s.epoch, .trigger = s.summary.lastTrigger, .text = s.summary.disagreement});
    s.summary.hosts = health();
    return s.summary;
}

}  // namespace sonolink::cluster
