// HardwareReport: which optional parts this build has (CUDA module, RDMA verbs backend) and
// what they find on this station (GPUs; RDMA devices and ports). The composition root is the
// only place that knows which optional modules were built; everything else asks here.
// Thread contract: probeHardware() is thread-safe and may take ~100 ms (driver start-up).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace sonolink::app {

struct GpuSummary {
    std::string name;
    std::string computeCapability;  // "9.0"
    double memoryGiB = 0;
    bool eccEnabled = false;
};

struct RdmaPortSummary {
    std::string device;
    int port = 1;
    std::string state;
    int activeMtuBytes = 0;
    std::string linkLayer;
    std::string rate;               // "100 Gb/sec (4X EDR)"
    std::vector<std::string> gids;  // "1 ::ffff:10.233.0.1 RoCE v2"
    std::map<std::string, std::uint64_t> counters;
};

struct HardwareReport {
    bool cudaBuilt = false;
    std::string cudaStatus;  // "2 devices" or why none is usable
    std::vector<GpuSummary> gpus;
    bool rdmaBuilt = false;
    std::string rdmaStatus;  // "1 device" or why none is usable
    std::vector<RdmaPortSummary> rdmaPorts;
};

[[nodiscard]] HardwareReport probeHardware();

}  // namespace sonolink::app
