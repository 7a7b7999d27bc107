// listRdmaDevices(): the RDMA devices rdma-core sees on this host (ConnectX, rxe, ...), with
// their capabilities (ibv_query_device_ex) and each port's state, active MTU, link layer, rate,
// GIDs and counters (sysfs counters/ and hw_counters/): the first thing to check when a link
// will not come up, and the before/after of a run. An empty list is a valid answer (no NIC, no
// rdma_rxe); only a failure of libibverbs itself is an error. checkMemlock() says whether a
// ring of a given size can be pinned, and how to fix it if not.
// Thread contract: thread-safe; opens and closes each device briefly.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sonolink/util/result.h"

namespace sonolink::transport::rdma {

struct RdmaPortInfo {
    int portNumber = 1;
    std::string state;                              // "ACTIVE", "DOWN", "INIT", ...
    int activeMtuBytes = 0;                         // 256 .. 4096
    std::string linkLayer;                          // "Ethernet" (RoCE) or "InfiniBand"
    std::string rate;                               // "100 Gb/sec (4X EDR)" (sysfs rate)
    std::vector<std::string> gids;                  // "1 ::ffff:10.233.0.1 RoCE v2" for each non-zero GID
    std::map<std::string, std::uint64_t> counters;  // counters/ and hw_counters/
};

struct RdmaDeviceCaps {
    std::string firmware;
    std::uint32_t maxQp = 0, maxQpWr = 0, maxCqe = 0, maxSge = 0, maxMr = 0;
    std::uint64_t maxMrSize = 0;
    bool completionTimestamps = false;       // hca_core_clock: CQEs can carry a timestamp
    std::uint16_t maxCqModerationCount = 0;  // 0: CQ moderation not supported
    std::uint16_t maxCqModerationPeriodUs = 0;
};

struct RdmaDeviceInfo {
    std::string name;      // "mlx5_0", "rxe0"
    std::string nodeGuid;  // "0011:2233:4455:6677"
    std::string error;     // why the device could not be queried; empty when it could
    RdmaDeviceCaps caps;
    std::vector<RdmaPortInfo> ports;
};

[[nodiscard]] Result<std::vector<RdmaDeviceInfo>> listRdmaDevices();

struct MemlockStatus {
    bool sufficient = false;
    std::uint64_t limitBytes = 0;  // ~0 = unlimited
    bool capIpcLock = false;       // CAP_IPC_LOCK in the effective set: the limit does not apply
    std::string advice;            // what to do when not sufficient
};
[[nodiscard]] MemlockStatus checkMemlock(std::uint64_t bytesToPin);

}  // namespace sonolink::transport::rdma
