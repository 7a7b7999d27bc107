#include "sonolink/dicom/pacs_station.h"

#include <algorithm>

namespace sonolink::dicom {

Result<std::unique_ptr<PacsStation>> PacsStation::open(const PacsStationSettings& settings, UidGenerator uids, AuditTrail* audit) {
    auto queue = StoreQueue::open(settings.queueDirectory, settings.retry);
    if (!queue) return fail(std::move(queue.error()));
    std::unique_ptr<PacsStation> station(new PacsStation());
    station->queue_ = std::move(*queue);
    station->forwarder_ = std::make_unique<StoreForwarder>(*station->queue_, settings.forwarder, std::move(uids), audit);
    const auto& nodes = settings.forwarder.destinations;
    if (std::any_of(nodes.begin(), nodes.end(), [](const auto& d) { return d.storageCommitment; })) {
        auto* forwarder = station->forwarder_.get();
        auto listener =
            CommitmentListener::start(settings.listenPort, settings.stationAeTitle, [forwarder](const CommitmentReport& r) { forwarder->applyReport(r); });
        if (!listener) return fail(std::move(listener.error()));
        station->listener_ = std::move(*listener);
    }
    return station;
}

void PacsStation::stop() {
    if (forwarder_) forwarder_->stop();
}

PacsStation::~PacsStation() {
    stop();
    listener_.reset();  // no report reaches a forwarder that is gone
}

}  // namespace sonolink::dicom
