#include "sonolink/app/coordinator_feed.h"

#include <fmt/format.h>

#include <chrono>
#include <mutex>
#include <thread>

#include "sonolink/cluster/cluster_coordinator.h"
#include "sonolink/util/log.h"

namespace sonolink::app {
namespace {

std::int64_t wallNow() { return std::chrono::system_clock::now().time_since_epoch() / std::chrono::nanoseconds(1); }
std::uint64_t steadyNow() { return static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch() / std::chrono::nanoseconds(1)); }

engine::ClusterHostHealth hostHealthOf(const cluster::ClusterHost& host, const cluster::HostHealth* seen, const cluster::HostTally* tally) {
    engine::ClusterHostHealth h{.name = host.name,
                                .address = "",
                                .state = "waiting",
                                .firstChannel = host.firstChannel,
                                .lastChannel = host.firstChannel + host.channelCount,
                                .partials = 0,
                                .late = 0,
                                .missing = 0,
                                .bytesReceived = 0,
                                .losses = 0,
                                .partialLatencyMs = 0,
                                .heardAgoMs = 0,
                                .lastProblem = ""};
    if (seen) {
        h.address = seen->address;
        h.state = std::string(cluster::toString(seen->state));
        h.bytesReceived = seen->bytesReceived;
        h.losses = seen->losses;
        h.partialLatencyMs = seen->partialLatencyMsLast;
        h.heardAgoMs = seen->lastHeardNs > 0 ? static_cast<double>(wallNow() - seen->lastHeardNs) / 1e6 : 0;
        h.lastProblem = seen->lastProblem;
    }
    if (tally) {
        h.partials = tally->partials;
        h.late = tally->late;
        h.missing = tally->missing;
    }
    return h;
}

}  // namespace

engine::ClusterHealth clusterHealthOf(const cluster::ClusterFile& file, const std::string& fileName, const cluster::CoordinatorStats* stats) {
    engine::ClusterHealth health;
    health.file = fileName;
    if (stats) {
        health.epoch = stats->epoch;
        health.framesComplete = stats->counts.complete;
        health.framesIncomplete = stats->counts.incomplete;
        health.framesDropped = stats->counts.dropped;
        health.framesNeverSeen = stats->counts.neverSeen;
        health.partsLate = stats->counts.late;
        health.partsDuplicate = stats->counts.duplicate;
        health.partsRefused = stats->counts.refused;
        health.addedLatencyMsP50 = stats->addedLatencyMsP50;
        health.addedLatencyMsP99 = stats->addedLatencyMsP99;
    }
    for (std::size_t i = 0; i < file.hosts.size(); ++i) {
        const bool seen = stats && i < stats->hosts.size();
        const bool tallied = stats && i < stats->counts.hosts.size();
        health.hosts.push_back(hostHealthOf(file.hosts[i], seen ? &stats->hosts[i] : nullptr, tallied ? &stats->counts.hosts[i] : nullptr));
    }
    return health;
}

namespace {

class CoordinatorFeed final : public engine::ClusterFeed {
public:
    CoordinatorFeed(cluster::ClusterFile file, std::string fileName) : file_(std::move(file)), fileName_(std::move(fileName)) {}
    ~CoordinatorFeed() override { stop(); }

    Status start(std::function<void(engine::JoinedImage)> onImage) override {
        stop();
        cluster::CoordinatorOptions options{.file = file_,
                                            .session = static_cast<std::uint64_t>(wallNow()),
                                            .joinTimeoutNs = 30'000'000'000,
                                            .durationNs = std::int64_t{365} * 24 * 3600 * 1'000'000'000,  // until stop()
                                            .onEvent = {},
                                            .onFrame = [this, onImage = std::move(onImage)](cluster::FinishedFrame& f) { onImage(joined(f)); },
                                            .planChanges = {}};
        auto coordinator = std::make_unique<cluster::ClusterCoordinator>(std::move(options));
        if (auto port = coordinator->listen(); !port) return fail(ErrorCode::Unavailable, fmt::format("cluster {}: {}", fileName_, port.error().message()));
        {
            std::lock_guard lock(mutex_);
            coordinator_ = std::move(coordinator);
        }
        thread_ = std::thread([this] {
            try {  // the coordinator's end is said; what escapes it never takes the console down
                if (auto summary = coordinator_->run(); !summary)
                    log::error(log::category("cluster"), "the cluster's coordinator ended: {}", summary.error().describe());
                else if (!summary->countsAgree) log::warn(log::category("cluster"), "the cluster's counts disagree: {}", summary->disagreement);
            } catch (const std::exception& e) {
                log::error(log::category("cluster"), "the cluster's coordinator stopped: {}", e.what());
            }
        });
        return {};
    }

    void stop() override {
        if (!thread_.joinable()) return;
        coordinator_->stop();
        thread_.join();
        std::lock_guard lock(mutex_);
        last_ = coordinator_->stats();  // the counts stay shown after the session
        coordinator_.reset();
    }

    engine::ClusterHealth health() const override {
        std::lock_guard lock(mutex_);
        if (coordinator_) {
            const auto stats = coordinator_->stats();
            return clusterHealthOf(file_, fileName_, &stats);
        }
        return clusterHealthOf(file_, fileName_, last_ ? &*last_ : nullptr);
    }

private:
    engine::JoinedImage joined(cluster::FinishedFrame& f) const {
        engine::JoinedImage image;
        image.triggerSequence = f.triggerSequence;
        image.grid = file_.plan.grid;
        image.envelope = std::move(f.envelope);
        if (!f.complete) image.incompleteAperture = fmt::format("incomplete aperture: host {}", fmt::join(f.missingHosts, ", host "));
        image.readyNs = steadyNow() - static_cast<std::uint64_t>(std::max<std::int64_t>(wallNow() - f.lastInNs, 0));
        return image;
    }

    cluster::ClusterFile file_;
    std::string fileName_;
    mutable std::mutex mutex_;
    std::unique_ptr<cluster::ClusterCoordinator> coordinator_;  // set under mutex_; run by thread_
    std::optional<cluster::CoordinatorStats> last_;
    std::thread thread_;
};

}  // namespace

Result<std::shared_ptr<engine::ClusterFeed>> coordinatorFeed(const std::filesystem::path& clusterFile) {
    auto file = cluster::readClusterFile(clusterFile);
    if (!file) return fail(std::move(file.error()));
    return std::shared_ptr<engine::ClusterFeed>(std::make_shared<CoordinatorFeed>(std::move(*file), clusterFile.filename().string()));
}

}  // namespace sonolink::app
