#include "sonolink/beamform/cuda/host_pinning_cuda.h"

#include <cuda_runtime.h>

#include <fmt/format.h>

namespace sonolink::beamform::cuda {
namespace {

class CudaHostPinning final : public HostPinning {
public:
    Status pin(void* memory, std::size_t bytes) override {
        if (const cudaError_t rc = cudaHostRegister(memory, bytes, cudaHostRegisterPortable); rc != cudaSuccess) {
            (void)cudaGetLastError();  // not sticky: the next call starts clean
            return fail(ErrorCode::Unavailable, fmt::format("cudaHostRegister of {} bytes failed: {}", bytes, cudaGetErrorString(rc)));
        }
        return {};
    }
    void unpin(void* memory) noexcept override {
        if (cudaHostUnregister(memory) != cudaSuccess) (void)cudaGetLastError();
    }
};

}  // namespace

std::shared_ptr<HostPinning> cudaHostPinning() { return std::make_shared<CudaHostPinning>(); }

bool isPageLocked(const void* memory) {
    cudaPointerAttributes attributes{};
    if (cudaPointerGetAttributes(&attributes, memory) != cudaSuccess) {
        (void)cudaGetLastError();
        return false;
    }
    return attributes.type == cudaMemoryTypeHost;
}

}  // namespace sonolink::beamform::cuda
