// DeadlineTransport: see deadline_transport.h.
#include "deadline_transport.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <algorithm>
#include <cerrno>

#include <dcmtk/dcmnet/dcmtrans.h>

#include "sonolink/dicom/pacs_client.h"

namespace sonolink::dicom {

std::chrono::milliseconds Deadline::left() const {
    const auto now = clock::now().time_since_epoch().count();
    const auto until = until_.load();
    return until <= now ? std::chrono::milliseconds(0) : std::chrono::duration_cast<std::chrono::milliseconds>(clock::duration(until - now));
}

namespace {

constexpr std::chrono::milliseconds kSlice{100};

// A connection that forwards to the one DCMTK made (TCP or TLS) and waits for the socket in
// slices, so that neither a slow peer nor a stalled one outlasts the deadline. Plain TCP waits in
// the read or write itself (the socket's timeouts: one system call when the network is ready); TLS
// polls the socket first.
class DeadlineConnection : public DcmTransportConnection {
public:
    DeadlineConnection(DcmNativeSocketType socket, DcmTransportConnection* inner, const Deadline& deadline)
        : DcmTransportConnection(socket), inner_(inner), deadline_(deadline), socket_(socket),
          plainTcp_(inner->isTransparentConnection() && (::fcntl(socket, F_GETFL) & O_NONBLOCK) == 0) {}
    ~DeadlineConnection() override = default;

    OFCondition serverSideHandshake() override { return inner_->serverSideHandshake(); }
    OFCondition clientSideHandshake() override { return inner_->clientSideHandshake(); }
    OFCondition renegotiate(const char* suite) override { return inner_->renegotiate(suite); }
    ssize_t read(void* buf, size_t nbyte) override {
        if (!plainTcp_) return waitFor(POLLIN) ? inner_->read(buf, nbyte) : -1;
        for (;;) {  // a blocking read that gives up each slice (SO_RCVTIMEO): one system call when data is there
            if (!sliceTimeout(SO_RCVTIMEO, receiveSlice_)) return -1;
            const auto n = inner_->read(buf, nbyte);
            if (n >= 0 || !retryable(errno)) return n;
        }
    }
    ssize_t write(void* buf, size_t nbyte) override {
        if (!plainTcp_) return waitFor(POLLOUT) ? inner_->write(buf, nbyte) : -1;
        auto* bytes = static_cast<char*>(buf);
        std::size_t written = 0;
        while (written < nbyte) {  // DCMTK takes a short write for a broken connection: finish it here
            if (!sliceTimeout(SO_SNDTIMEO, sendSlice_)) return -1;
            const auto n = inner_->write(bytes + written, nbyte - written);
            if (n > 0) written += static_cast<std::size_t>(n);
            else if (n < 0 && !retryable(errno)) return n;
        }
        return static_cast<ssize_t>(written);
    }
    void close() override { inner_->close(); }
    void closeTransportConnection() override { inner_->closeTransportConnection(); }
    unsigned long getPeerCertificateLength() override { return inner_->getPeerCertificateLength(); }
    unsigned long getPeerCertificate(void* buf, unsigned long length) override { return inner_->getPeerCertificate(buf, length); }
    OFBool networkDataAvailable(int timeoutS) override {
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(std::max(timeoutS, 0));
        for (;;) {
            if (inner_->networkDataAvailable(0)) return OFTrue;  // TLS may hold decrypted bytes
            if (stopped()) return OFFalse;
            const auto now = std::chrono::steady_clock::now();
            if (now >= until) return OFFalse;
            poll(POLLIN, std::min({kSlice, deadline_.left(), std::chrono::duration_cast<std::chrono::milliseconds>(until - now)}));
        }
    }
    OFBool isTransparentConnection() override { return inner_->isTransparentConnection(); }
    OFString& dumpConnectionParameters(OFString& str) override { return inner_->dumpConnectionParameters(str); }

private:
    [[nodiscard]] bool stopped() const { return deadline_.passed() || stopRequested(); }
    static bool retryable(int error) { return error == EAGAIN || error == EWOULDBLOCK || error == EINTR; }
    // Plain TCP: the socket's own timeout (option) is the slice, shorter when the deadline is
    // nearer, set again only when it changes; false (errno ETIMEDOUT) once stopped.
    bool sliceTimeout(int option, std::chrono::milliseconds& current) {
        if (stopped()) {
            errno = ETIMEDOUT;
            return false;
        }
        const auto slice = std::max(std::min(kSlice, deadline_.left()), std::chrono::milliseconds(1));
        if (slice == current) return true;
        const timeval tv{static_cast<time_t>(slice.count() / 1000), static_cast<suseconds_t>(slice.count() % 1000 * 1000)};
        if (::setsockopt(socket_, SOL_SOCKET, option, &tv, sizeof tv) != 0) return false;
        current = slice;
        return true;
    }
    bool poll(short events, std::chrono::milliseconds wait) const {
        pollfd p{socket_, events, 0};
        return ::poll(&p, 1, static_cast<int>(wait.count())) > 0;
    }
    // Until the socket is ready for events, the deadline passes or a stop is asked for.
    bool waitFor(short events) {
        if (events == POLLIN && inner_->networkDataAvailable(0)) return true;
        for (;;) {
            if (stopped()) {
                errno = ETIMEDOUT;
                return false;
            }
            if (poll(events, std::min(kSlice, deadline_.left()))) return true;
        }
    }

    std::unique_ptr<DcmTransportConnection> inner_;
    const Deadline& deadline_;
    DcmNativeSocketType socket_;
    // A blocking plain TCP socket. TLS keeps the poll path (a timeout inside a TLS record is not
    // resumable), and so would a non-blocking socket (its read would not wait for the slice).
    const bool plainTcp_;
    std::chrono::milliseconds receiveSlice_{0};
    std::chrono::milliseconds sendSlice_{0};
};

}  // namespace

DcmTransportConnection* DeadlineTransport::createConnection(DcmNativeSocketType openSocket, OFBool /*useSecureLayer*/) {
    DcmTransportConnection* inner = inner_ ? inner_->createConnection(openSocket, OFTrue) : new DcmTCPConnection(openSocket);
    if (!inner) return nullptr;
    return new DeadlineConnection(openSocket, inner, deadline_);
}

}  // namespace sonolink::dicom
