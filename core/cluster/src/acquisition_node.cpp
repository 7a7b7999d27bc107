#include "sonolink/cluster/acquisition_node.h"

#include <chrono>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "inbox.h"
#include "sonolink/cluster/partial_image.h"
#include "sonolink/transport/ucx/ucx_fabric.h"
#include "wall_clock.h"

namespace sonolink::cluster {

using transport::ucx::Fabric;
using transport::ucx::PeerId;

struct AcquisitionNode::Impl {
    struct Epoch {
        ClusterPlan plan;
        PlanMessage message;
    };

    NodeOptions options;
    ChannelSource source;
    Inbox inbox;
    std::atomic<bool> stopping{false};
    std::unique_ptr<Fabric> fabric;
    PeerId coordinator = 0;
    std::optional<Epoch> active, pending;
    std::uint64_t nextTrigger = 0;
    std::optional<std::uint64_t> lastTrigger;  // from Stop: the last one to send
    std::int64_t lastHeardNs = 0;
    std::int64_t lastStepNs = 0;  // a long gap since: this host itself was stopped, not the coordinator silent
    std::mutex countsMutex;
    HostCounts counts;  // guarded by countsMutex (the heartbeat thread reads it)
    NodeSummary summary;

    Status connect();
    // Handles what came in; false once the run is over (summary.endReason says why).
    bool handle(Inbound& item);
    bool takePlan(const Inbound& item);
    void sendPartial(const Epoch& epoch, std::uint64_t trigger);
    bool step();
    HostCounts snapshot() {
        std::lock_guard lock(countsMutex);
        return counts;
    }
};

AcquisitionNode::AcquisitionNode(NodeOptions options, ChannelSource source) : impl_(std::make_unique<Impl>()) {
    impl_->options = std::move(options);
    impl_->source = std::move(source);
}

AcquisitionNode::~AcquisitionNode() = default;

void AcquisitionNode::stop() noexcept {
    impl_->stopping = true;
    impl_->inbox.push({});  // wakes run()
}

Status AcquisitionNode::Impl::connect() {
    transport::ucx::FabricCallbacks callbacks;
    callbacks.onMessage = [this](PeerId peer, std::uint16_t kind, std::span<const std::byte> header, std::vector<std::byte> payload) {
        inbox.push({Inbound::What::Message, peer, kind, {header.begin(), header.end()}, std::move(payload), {}, wallNs()});
    };
    callbacks.onPeerLost = [this](PeerId peer, std::string reason) { inbox.push({Inbound::What::PeerLost, peer, 0, {}, {}, std::move(reason), wallNs()}); };
    callbacks.onPeerAccepted = [](PeerId, std::string) {};
    auto made = Fabric::create(fabricOptions(options.ucxTransports, options.ucxNetDevices), std::move(callbacks));
    if (!made) return fail(made.error());
    fabric = std::move(*made);
    const auto giveUp = std::chrono::steady_clock::now() + std::chrono::milliseconds(options.connectWaitMs);
    auto peer = fabric->connect(options.coordinatorAddress, options.coordinatorPort);
    while (!peer && !stopping && std::chrono::steady_clock::now() < giveUp) {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        peer = fabric->connect(options.coordinatorAddress, options.coordinatorPort);
    }
    if (!peer)
        return fail(ErrorCode::Unavailable,
                    fmt::format("host {} cannot reach the coordinator at {}:{} (tried for {} s): {}", options.host, options.coordinatorAddress,
                                options.coordinatorPort, options.connectWaitMs / 1000, peer.error().message()));
    coordinator = *peer;
    lastHeardNs = wallNs();
    return fabric->send(coordinator, static_cast<std::uint16_t>(MessageKind::Hello), encode(HelloMessage{options.host, options.softwareVersion}), {});
}

bool AcquisitionNode::Impl::takePlan(const Inbound& item) {
    auto message = decodePlan(item.header);
    auto plan = message ? planFromJson(textOf(item.payload)) : Result<ClusterPlan>(fail(message.error()));
    PlanAnswerMessage answer{.accepted = false, .epoch = message ? message->epoch : 0, .planHash = plan ? planHash(*plan) : 0, .reason = {}};
    if (!plan) answer.reason = fmt::format("the plan cannot be read: {}", plan.error().message());
    else if (plan->softwareVersion != options.softwareVersion)
        answer.reason = fmt::format("the plan is for SonoLink {}, this host runs {}", plan->softwareVersion, options.softwareVersion);
    else if (answer.planHash != message->planHash)
        answer.reason = fmt::format("the plan's hash as this host computes it is {:016x}, the coordinator's {:016x}", answer.planHash, message->planHash);
    else if (options.expectPlanHash && *options.expectPlanHash != answer.planHash)
        answer.reason = fmt::format("this host runs only plan {:016x}, not {:016x}", *options.expectPlanHash, answer.planHash);
    else if (options.host >= plan->hosts.size()) answer.reason = fmt::format("the plan has {} hosts, this is host {}", plan->hosts.size(), options.host);
    answer.accepted = answer.reason.empty();
    (void)fabric->send(coordinator, static_cast<std::uint16_t>(MessageKind::PlanAnswer), encode(answer), {});
    if (!answer.accepted) {
        summary.refusedPlan = true;
        summary.endReason = "plan refused: " + answer.reason;
        return false;
    }
    pending = Epoch{std::move(*plan), *message};
    return true;
}

bool AcquisitionNode::Impl::handle(Inbound& item) {
    if (item.what == Inbound::What::PeerLost) {
        summary.endReason = "coordinator lost: " + item.text;
        return false;
    }
    if (item.what != Inbound::What::Message) return true;
    lastHeardNs = item.arrivedNs;
    switch (static_cast<MessageKind>(item.kind)) {
        case MessageKind::Plan: return takePlan(item);
        case MessageKind::Stop:
            if (auto stop = decodeStop(item.header)) lastTrigger = stop->lastTrigger;
            else {
                summary.endReason = "stopped by the coordinator";
                return false;
            }
            return true;
        case MessageKind::Refusal:
            summary.endReason = "turned away by the coordinator: " + (decodeText(item.header) ? decodeText(item.header)->text : std::string("?"));
            summary.refusedPlan = true;
            return false;
        default: return true;
    }
}

void AcquisitionNode::Impl::sendPartial(const Epoch& epoch, std::uint64_t trigger) {
    const auto started = std::chrono::steady_clock::now();
    auto values = computePartial(epoch.plan, options.host, source(epoch.plan, trigger));
    if (!values) {
        std::lock_guard lock(countsMutex);
        ++counts.triggersSkipped;
        return;
    }
    const HostChannels range = epoch.plan.hosts[options.host];
    PartialHeader header{.session = epoch.message.session,
                         .planHash = epoch.message.planHash,
                         .epoch = epoch.message.epoch,
                         .triggerSequence = trigger,
                         .host = static_cast<std::uint16_t>(options.host),
                         .firstChannel = static_cast<std::uint16_t>(range.firstChannel),
                         .channelCount = static_cast<std::uint16_t>(range.channelCount),
                         .kind = epoch.plan.kind,
                         .nx = static_cast<std::uint32_t>(epoch.plan.grid.x.size()),
                         .nz = static_cast<std::uint32_t>(epoch.plan.grid.z.size()),
                         .valuesCrc = 0,
                         .beamformedNs = 0};
    std::vector<std::byte> payload = fabric->buffer(values->size() * sizeof(float));  // recycled: no page faults per frame
    fillPayload(*values, header, payload);
    header.beamformedNs = wallNs();
    const std::size_t bytes = payload.size() + kPartialHeaderBytes;
    const bool sent = fabric->send(coordinator, static_cast<std::uint16_t>(MessageKind::Partial), encodeHeader(header), std::move(payload)).has_value();
    std::lock_guard lock(countsMutex);
    counts.beamformMsLast = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    if (!sent) ++counts.triggersSkipped;
    else {
        ++counts.partialsSent;
        counts.bytesSent += bytes;
    }
}

// One trigger's work when it is due: the epoch in effect, the trigger the clock is at (the ones
// the host fell behind counted skipped), the partial. False once the run is over.
bool AcquisitionNode::Impl::step() {
    const std::int64_t now = wallNs();
    const std::int64_t silence = std::int64_t{options.coordinatorLostMs} * 1'000'000;
    if (lastStepNs != 0 && now - lastStepNs > silence / 2) lastHeardNs = now;
    lastStepNs = now;
    if (now - lastHeardNs > silence) {
        summary.endReason = fmt::format("coordinator lost: no word for {} ms", (now - lastHeardNs) / 1'000'000);
        return false;
    }
    if (pending && (!active || nextTrigger >= pending->message.fromTrigger)) {
        if (!active || nextTrigger < pending->message.fromTrigger) nextTrigger = pending->message.fromTrigger;
        active = std::move(pending);
        pending.reset();
    }
    if (lastTrigger && nextTrigger > *lastTrigger) {
        summary.endReason = "stopped by the coordinator";
        return false;
    }
    if (!active) return true;
    const PlanMessage& clock = active->message;
    if (now < clock.clockOriginNs + static_cast<std::int64_t>(nextTrigger) * clock.periodNs) return true;
    const auto latest = static_cast<std::uint64_t>((now - clock.clockOriginNs) / clock.periodNs);
    if (latest > nextTrigger) {
        std::lock_guard lock(countsMutex);
        counts.triggersSkipped += latest - nextTrigger;
        nextTrigger = latest;
    }
    if (lastTrigger && nextTrigger > *lastTrigger) return true;               // past the end: next round ends it
    if (pending && nextTrigger >= pending->message.fromTrigger) return true;  // the new epoch's first trigger: next round
    if (fabric->pendingSends() >= options.mostSendsInFlight) {
        std::lock_guard lock(countsMutex);
        ++counts.triggersSkipped;
    } else sendPartial(*active, nextTrigger);
    ++nextTrigger;
    return true;
}

Result<NodeSummary> AcquisitionNode::run() {
    Impl& s = *impl_;
    if (auto ok = s.connect(); !ok) return fail(ok.error());
    std::jthread heartbeat([&s](std::stop_token stop) {
        while (!stop.stop_requested()) {
            (void)s.fabric->send(s.coordinator, static_cast<std::uint16_t>(MessageKind::Heartbeat), encode(s.snapshot()), {});
            std::this_thread::sleep_for(std::chrono::milliseconds(s.options.heartbeatMs));
        }
    });
    bool running = true;
    while (running && !s.stopping) {
        const std::int64_t due =
            s.active ? s.active->message.clockOriginNs + static_cast<std::int64_t>(s.nextTrigger) * s.active->message.periodNs : wallNs() + 5'000'000;
        for (Inbound& item : s.inbox.wait(steadyAt(std::min(due, wallNs() + 5'000'000))))
            if (running) running = s.handle(item);
        if (running) running = s.step();
    }
    heartbeat.request_stop();
    heartbeat.join();
    if (s.stopping && s.summary.endReason.empty()) s.summary.endReason = "stopped";
    s.summary.counts = s.snapshot();
    s.summary.lastEpoch = s.active ? s.active->message.epoch : 0;
    (void)s.fabric->send(s.coordinator, static_cast<std::uint16_t>(MessageKind::Bye), encode(s.summary.counts), {});
    for (int i = 0; i < 100 && s.fabric->pendingSends() > 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    return s.summary;
}

}  // namespace sonolink::cluster
