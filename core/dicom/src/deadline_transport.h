// DeadlineTransport: DCMTK's transport layer with a deadline on every exchange. DCMTK's own
// timeouts are per read: a peer that trickles a byte at a time, or stalls in the middle of a PDU,
// extends them for ever (and the rest of a PDU waits a hidden 60 s). Every connection this layer
// makes (plain TCP, or TLS through the wrapped DcmTLSTransportLayer) waits for the network in
// slices of at most 100 ms and fails a read or write once the armed deadline has passed or the
// process asked to stop (stopRequested). Private to sonolink_dicom.
// Thread contract: arm() from the thread that runs the association; stop flags from any thread.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>

#include <dcmtk/dcmnet/dcmlayer.h>

namespace sonolink::dicom {

// The moment the current exchange must end by (armed before each step of an association).
class Deadline {
public:
    void arm(std::chrono::milliseconds budget) { until_.store((clock::now() + budget).time_since_epoch().count()); }
    [[nodiscard]] bool passed() const { return clock::now().time_since_epoch().count() >= until_.load(); }
    [[nodiscard]] std::chrono::milliseconds left() const;

private:
    using clock = std::chrono::steady_clock;
    std::atomic<clock::rep> until_{clock::rep{0}};
};

class DeadlineTransport : public DcmTransportLayer {
public:
    // inner: the TLS layer to wrap, or null for plain TCP. Both must outlive the connections.
    DeadlineTransport(const Deadline& deadline, DcmTransportLayer* inner) : deadline_(deadline), inner_(inner) {}
    DcmTransportConnection* createConnection(DcmNativeSocketType openSocket, OFBool useSecureLayer) override;

private:
    const Deadline& deadline_;
    DcmTransportLayer* inner_;
};

}  // namespace sonolink::dicom
