// cudaHostPinning(): HostPinning (util/host_pinning.h) by the CUDA runtime: cudaHostRegister,
// portable (every GPU of the station sees the buffer as pinned), and cudaHostUnregister. The
// composition root hands it to readers that keep buffers the GPU copies from (the read-ahead
// ring of recordings read in place). isPageLocked() asks the runtime whether memory lies in a
// range it has pinned (tests, diagnostics). Plain C++: no CUDA types here.
// Thread contract: thread-safe (the CUDA runtime's own).
#pragma once

#include <memory>

#include "sonolink/util/host_pinning.h"

namespace sonolink::beamform::cuda {

[[nodiscard]] std::shared_ptr<HostPinning> cudaHostPinning();
[[nodiscard]] bool isPageLocked(const void* memory);

}  // namespace sonolink::beamform::cuda
