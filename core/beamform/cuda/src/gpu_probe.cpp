#include "sonolink/beamform/cuda/gpu_probe.h"

#include <cuda_runtime.h>

#include <fmt/format.h>

namespace sonolink::beamform::cuda {

Result<CudaStatus> probeCuda() {
    CudaStatus status;
    cudaRuntimeGetVersion(&status.runtimeVersion);
    if (cudaDriverGetVersion(&status.driverVersion) != cudaSuccess || status.driverVersion == 0) {
        return fail(ErrorCode::Unavailable, "no CUDA driver is installed (libcuda.so.1 not found)");
    }
    int count = 0;
    if (const cudaError_t rc = cudaGetDeviceCount(&count); rc != cudaSuccess || count == 0) {
        return fail(ErrorCode::Unavailable, fmt::format("no usable CUDA device ({}; driver {}.{}, runtime {}.{})",
                                                        rc == cudaSuccess ? "device count is 0" : cudaGetErrorString(rc), status.driverVersion / 1000,
                                                        status.driverVersion % 1000 / 10, status.runtimeVersion / 1000, status.runtimeVersion % 1000 / 10));
    }
    for (int i = 0; i < count; ++i) {
        cudaDeviceProp prop{};
        if (const cudaError_t rc = cudaGetDeviceProperties(&prop, i); rc != cudaSuccess) {
            return fail(ErrorCode::Internal, fmt::format("cudaGetDeviceProperties({}) failed: {}", i, cudaGetErrorString(rc)));
        }
        status.devices.push_back(
            GpuInfo{i, prop.name, prop.major, prop.minor, static_cast<std::uint64_t>(prop.totalGlobalMem), prop.ECCEnabled != 0, prop.multiProcessorCount});
    }
    return status;
}

}  // namespace sonolink::beamform::cuda
