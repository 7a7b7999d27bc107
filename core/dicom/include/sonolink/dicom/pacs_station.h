// PacsStation: the station's PACS side built in one place: the store-and-forward queue (one
// process holds it), its forwarder and, when a node commits storage, the listener for the
// commitment reports, wired to each other. The engine runs it on the forwarder's thread; `dicom
// queue run` drives the forwarder pass by pass. Thread contract: open/start/stop/destroy from one
// thread; queue() and forwarder() follow their own contracts.
#pragma once

#include <memory>
#include <string>

#include "sonolink/dicom/audit_trail.h"
#include "sonolink/dicom/storage_commitment.h"
#include "sonolink/dicom/store_forwarder.h"
#include "sonolink/dicom/store_queue.h"
#include "sonolink/dicom/uid_generator.h"

namespace sonolink::dicom {

struct PacsStationSettings {
    std::string queueDirectory;
    RetryPolicy retry;
    ForwarderSettings forwarder;
    std::string stationAeTitle = "SONOLINK";  // the commitment listener's
    int listenPort = 11112;                   // storage commitment reports
};

class PacsStation {
public:
    // audit may be null; it must outlive the station. FailedPrecondition when another process
    // holds the queue or the listener's port is taken.
    [[nodiscard]] static Result<std::unique_ptr<PacsStation>> open(const PacsStationSettings& settings, UidGenerator uids, AuditTrail* audit);
    ~PacsStation();  // stops the forwarder, then the listener
    PacsStation(const PacsStation&) = delete;
    PacsStation& operator=(const PacsStation&) = delete;

    [[nodiscard]] StoreQueue& queue() noexcept { return *queue_; }
    [[nodiscard]] StoreForwarder& forwarder() noexcept { return *forwarder_; }
    void start() { forwarder_->start(); }  // the forwarder on its own thread
    void stop();

private:
    PacsStation() = default;
    std::unique_ptr<StoreQueue> queue_;
    std::unique_ptr<StoreForwarder> forwarder_;
    std::unique_ptr<CommitmentListener> listener_;
};

}  // namespace sonolink::dicom
