// cuFFT, loaded when first needed (dlopen of libcufft.so.12): the programs still start on
// stations without the CUDA toolkit's libraries, and a missing cuFFT is an Unavailable result
// that names the library, not a loader error before main().
// Thread contract: cufft() is thread-safe (loaded once).
#pragma once

#include <cufft.h>

#include "sonolink/util/result.h"

namespace sonolink::beamform::cuda {

struct CufftLibrary {
    decltype(&cufftPlanMany) planMany = nullptr;
    decltype(&cufftSetStream) setStream = nullptr;
    decltype(&cufftExecC2C) execC2C = nullptr;
    decltype(&cufftDestroy) destroy = nullptr;
};

[[nodiscard]] Result<const CufftLibrary*> cufft();

}  // namespace sonolink::beamform::cuda
