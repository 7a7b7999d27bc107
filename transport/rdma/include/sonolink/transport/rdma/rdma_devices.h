// listRdmaDevices(): the RDMA devices rdma-core sees on this host (ConnectX, rxe, ...), with
// each port's state, active MTU and link layer: the first thing to check when a link will not
// come up. An empty list is a valid answer (no NIC, no rdma_rxe); only a failure of libibverbs
// itself is an error. Thread contract: thread-safe; opens and closes each device briefly.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sonolink/util/result.h"

namespace sonolink::transport::rdma {

struct RdmaPortInfo {
    int portNumber = 1;
    std::string state;       // "ACTIVE", "DOWN", "INIT", ...
    int activeMtuBytes = 0;  // 256 .. 4096
    std::string linkLayer;   // "Ethernet" (RoCE) or "InfiniBand"
};

struct RdmaDeviceInfo {
    std::string name;        // "mlx5_0", "rxe0"
    std::string nodeGuid;    // "0011:2233:4455:6677"
    std::string error;       // why the device could not be queried; empty when it could
    std::vector<RdmaPortInfo> ports;
};

[[nodiscard]] Result<std::vector<RdmaDeviceInfo>> listRdmaDevices();

}  // namespace sonolink::transport::rdma
