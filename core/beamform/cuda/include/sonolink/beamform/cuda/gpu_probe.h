// probeCuda(): what GPU this station has, asked through the CUDA runtime (linked statically,
// so the program loads on machines with no CUDA driver at all). No driver or no device is an
// ordinary Unavailable result whose message says which. Plain C++: no CUDA types here.
// Thread contract: thread-safe; may take ~100 ms on first call (driver initialisation).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sonolink/util/result.h"

namespace sonolink::beamform::cuda {

struct GpuInfo {
    int index = 0;
    std::string name;      // "NVIDIA H200"
    int computeMajor = 0;  // 9 for Hopper
    int computeMinor = 0;
    std::uint64_t memoryBytes = 0;
    bool eccEnabled = false;
    int multiprocessorCount = 0;
};

struct CudaStatus {
    int driverVersion = 0;  // e.g. 13000 for 13.0
    int runtimeVersion = 0;
    std::vector<GpuInfo> devices;  // never empty in a successful result
};

[[nodiscard]] Result<CudaStatus> probeCuda();

}  // namespace sonolink::beamform::cuda
