// Inbox: what the UCX fabric's progress thread hands the node's or the coordinator's own thread:
// messages, accepted peers and lost peers, in arrival order; the owner waits on it with a bound.
// Thread contract: push() from the fabric's thread, wait() from the one owner.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

#include "sonolink/transport/ucx/ucx_fabric.h"

namespace sonolink::cluster {

// The fabric's options from a cluster file's UCX section.
[[nodiscard]] inline transport::ucx::FabricOptions fabricOptions(std::string transports, std::string netDevices) {
    transport::ucx::FabricOptions options;
    options.transports = std::move(transports);
    options.netDevices = std::move(netDevices);
    return options;
}

struct Inbound {
    enum class What { Message, PeerAccepted, PeerLost };
    What what = What::Message;
    std::uint64_t peer = 0;
    std::uint16_t kind = 0;
    std::vector<std::byte> header;
    std::vector<std::byte> payload;
    std::string text;  // the peer's address, or why it was lost
    std::int64_t arrivedNs = 0;
};

class Inbox {
public:
    void push(Inbound item) {
        {
            std::lock_guard lock(mutex_);
            items_.push_back(std::move(item));
        }
        ready_.notify_one();
    }
    // Everything in the inbox, waiting until `deadline` for the first item if there is none.
    [[nodiscard]] std::deque<Inbound> wait(std::chrono::steady_clock::time_point deadline) {
        std::unique_lock lock(mutex_);
        ready_.wait_until(lock, deadline, [&] { return !items_.empty(); });
        return std::exchange(items_, {});
    }

private:
    std::mutex mutex_;
    std::condition_variable ready_;
    std::deque<Inbound> items_;
};

}  // namespace sonolink::cluster
