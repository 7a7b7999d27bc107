#include "cufft_library.h"

#include <dlfcn.h>

#include <string>

#include <fmt/format.h>

namespace sonolink::beamform::cuda {
namespace {

Result<CufftLibrary> load() {
    void* handle = nullptr;
    std::string tried;
    for (const char* name : {"libcufft.so.12", "libcufft.so", "/usr/local/cuda/lib64/libcufft.so.12"}) {
        handle = ::dlopen(name, RTLD_NOW | RTLD_LOCAL);
        if (handle) break;
        tried += fmt::format("{}{}", tried.empty() ? "" : "; ", ::dlerror());
    }
    if (!handle) return fail(ErrorCode::Unavailable, fmt::format("cuFFT is not installed (the GPU envelope needs it): {}", tried));
    CufftLibrary lib;
    auto symbol = [&](auto& function, const char* name) {
        function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(::dlsym(handle, name));
        return function != nullptr;
    };
    if (!symbol(lib.planMany, "cufftPlanMany") || !symbol(lib.setStream, "cufftSetStream") || !symbol(lib.execC2C, "cufftExecC2C") ||
        !symbol(lib.destroy, "cufftDestroy")) {
        return fail(ErrorCode::Unavailable, fmt::format("the cuFFT library found lacks a function: {}", ::dlerror()));
    }
    return lib;  // the handle stays open for the life of the process
}

}  // namespace

Result<const CufftLibrary*> cufft() {
    static const Result<CufftLibrary> loaded = load();
    if (!loaded) return fail(loaded.error());
    return &*loaded;
}

}  // namespace sonolink::beamform::cuda
