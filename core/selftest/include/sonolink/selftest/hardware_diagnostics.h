// Hardware diagnostics, each a pass, warn or fail with its figures, limit and fix: the GPU (its
// presence, driver and ECC mode), the RDMA port that serves the link's address (state, MTU,
// speed and error counters), the NUMA locality of that NIC and the GPUs, and the PTP clock's
// offset where one is present. Pure checks of HardwareFacts; the composition root reads them
// (it alone knows which of the CUDA and RDMA modules were built). Thread contract: pure functions.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sonolink/selftest/station_diagnostics.h"

namespace sonolink::selftest {

struct GpuFacts {
    std::string name;
    bool eccEnabled = false;
    int numaNode = -1;  // -1: not known (one node, or not visible)
};

struct RdmaPortFacts {
    std::string device;  // "mlx5_0"
    int port = 1;
    std::string state;  // "ACTIVE", "DOWN", ...
    int activeMtuBytes = 0;
    std::string linkLayer;          // "Ethernet" (RoCE) or "InfiniBand"
    std::string rate;               // "100 Gb/sec (4X EDR)"
    std::vector<std::string> gids;  // "1 ::ffff:10.233.0.1 RoCE v2"
    std::map<std::string, std::uint64_t> counters;
    int numaNode = -1;
};

struct PtpClockFacts {
    std::string device;              // "/dev/ptp0"
    std::string name;                // its clock_name
    std::optional<double> offsetNs;  // from the system clock (phc_ctl cmp), when measured
    std::string why;                 // not measured: why
};

struct HardwareFacts {
    bool cudaBuilt = false;
    std::string gpuStatus;  // "2 devices, driver 13.0" or why none is usable
    std::vector<GpuFacts> gpus;
    bool rdmaBuilt = false;
    std::string rdmaStatus;
    std::vector<RdmaPortFacts> rdmaPorts;
    std::vector<PtpClockFacts> ptpClocks;
};

// No GPU: a warning (the CPU beamformer images, slower); a GPU without ECC: a warning.
[[nodiscard]] Diagnostic checkGpu(const HardwareFacts& facts);
// The port with the link's address among its GIDs: fail when none or not ACTIVE; warn for an
// MTU under 4096 or error counters that are not zero.
[[nodiscard]] Diagnostic checkRdmaPort(const HardwareFacts& facts, const std::string& address);
// The link's NIC (nicAddress: its port's address, as for checkRdmaPort; nullopt: no NIC, a
// simulated link) and the GPUs on one NUMA node (pass), on others (warn), or not known (pass, said).
[[nodiscard]] Diagnostic checkNumaLocality(const HardwareFacts& facts, const std::optional<std::string>& nicAddress);
// Each PTP clock's offset from the system clock within maxOffsetNs (warn beyond, or not measured);
// no PTP clock: pass (frame times come from the system clock).
[[nodiscard]] Diagnostic checkPtp(const HardwareFacts& facts, double maxOffsetNs = 1e6);
// The offset that `phc_ctl DEVICE cmp` prints ("offset from CLOCK_REALTIME is -37000000008ns").
[[nodiscard]] std::optional<double> parsePhcCtlOffset(const std::string& output);

}  // namespace sonolink::selftest
