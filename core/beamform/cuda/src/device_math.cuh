// Device helpers shared by the beamforming kernels: the receive window (the CPU reference's
// apodization) as 0.5 + 0.5 cos u, the cosine by the special-function unit (__cosf: absolute
// error under 5e-7 on [0, pi]), and the receive delay by the fast reciprocal square root.
// Device code only; no state.
#pragma once

#include <cuda_runtime.h>

namespace sonolink::beamform::cuda {

constexpr int kRectangular = 0, kHann = 1, kTukey = 2;  // beamform::Window's order
constexpr float kPi = 3.14159265358979f;

// Hann: 0.5 (1 + cos pi r); Tukey: 1 while flat (u clamped at 0), then the same taper.
__device__ __forceinline__ float taper(float u) { return 0.5f + 0.5f * __cosf(u); }

// The window's weight at r = 2 F# |dx| / z (0 at the centre, 1 at the aperture's edge; 0 past it).
__device__ __forceinline__ float windowWeight(float r, int window, float tukeyAlpha, float invTukeyAlpha) {
    if (r > 1.0f) return 0.0f;
    if (window == kRectangular) return 1.0f;
    if (window == kHann) return taper(kPi * r);
    const float flat = 1.0f - tukeyAlpha;
    return r <= flat ? 1.0f : taper(kPi * (r - flat) * invTukeyAlpha);
}

// The window's weight from its phase scale (per column and element: Hann pi 2 F# |dx|, Tukey
// pi 2 F# |dx| / alpha) at 1/z, offset (Tukey pi (1 - alpha) / alpha): Window a template
// argument, so that the rectangular loop has no weight at all.
template <int Window>
__device__ __forceinline__ float weightAt(float scale, float invZ, float offset) {
    if constexpr (Window == kRectangular) return 1.0f;
    else if constexpr (Window == kHann) return taper(scale * invZ);
    else return taper(fmaxf(fmaf(scale, invZ, -offset), 0.0f));
}

// sqrt(d2) by d2 rsqrt(d2), the reciprocal square root approximate and flushing denormals (no
// d2 here is one): two instructions, relative error ~2e-7, as the float rounding of the delay.
__device__ __forceinline__ float fastSqrt(float d2) {
    float r;
    asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(d2));
    return d2 * r;
}

}  // namespace sonolink::beamform::cuda
