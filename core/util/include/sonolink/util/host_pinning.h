// HostPinning: page-locks host buffers for a GPU's copy engine (cudaHostRegister where a GPU is
// present), so that a buffer handed to the GPU is copied by DMA straight from where it lies, not
// staged again by the driver. Readers that keep buffers of their own (the read-ahead ring of
// recordings read in place, record/read_ahead.h) take it as this plain interface; the CUDA
// module implements it and the composition root installs it. Thread contract: pin() and unpin()
// may be called from any thread, each buffer unpinned once, before it is freed.
#pragma once

#include <cstddef>

#include "sonolink/util/result.h"

namespace sonolink {

class HostPinning {
public:
    virtual ~HostPinning() = default;
    // Page-locks [memory, memory + bytes) (page-aligned); an Error says why not (the buffer then
    // stays usable as ordinary memory).
    [[nodiscard]] virtual Status pin(void* memory, std::size_t bytes) = 0;
    virtual void unpin(void* memory) noexcept = 0;
};

}  // namespace sonolink
