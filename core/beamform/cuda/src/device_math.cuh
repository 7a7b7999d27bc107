// Device helpers shared by the beamforming kernels: the receive window (the CPU reference's
// apodization) as 0.5 + 0.5 cos u, the cosine by the special-function unit (__cosf: absolute
// error under 5e-7 on [0, pi]), the receive delay by the fast reciprocal square root, and a
// delay's split into its sample index and fraction and an int16 sample's value, by conversion or
// by float rounding.
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
template <int Window> __device__ __forceinline__ float weightAt(float scale, float invZ, float offset) {
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

// A delay s in [0, 2^22) split into its sample index i = floor(s) and the fraction s - i, two
// ways with the same result. kByRounding false: the conversion instructions (F2I, I2F), which on
// sm_80 and sm_90 issue 16 a clock per SM, the rate of the special-function unit's reciprocal
// square root, sine and cosine. kByRounding true: three full-rate additions. s + 1.5 2^23 rounded
// down is 1.5 2^23 + floor(s) exactly (the spacing of floats there is 1), so its bits less
// 1.5 2^23's are the index; taking 1.5 2^23 back off is exact, and so is s less that.
constexpr float kRoundingShift = 12582912.0f;  // 1.5 2^23
constexpr int kRoundingShiftBits = 0x4B400000;

// A sample's value as a float, the same two ways: an int16 v by rounding is the float whose bits
// are 1.5 2^23's plus v (1.5 2^23 + v exactly, as above) less 1.5 2^23 (an integer addition and
// a float one).
template <bool kByRounding, typename T> __device__ __forceinline__ float toFloat(T v) {
    if constexpr (kByRounding && sizeof(T) == 2) return __fsub_rn(__int_as_float(kRoundingShiftBits + static_cast<int>(v)), kRoundingShift);
    else return static_cast<float>(v);
}

template <bool kByRounding> __device__ __forceinline__ int splitDelay(float s, float& fraction) {
    if constexpr (kByRounding) {
        const float shifted = __fadd_rd(s, kRoundingShift);
        fraction = s - __fsub_rn(shifted, kRoundingShift);
        return __float_as_int(shifted) - kRoundingShiftBits;
    } else {
        const int i = static_cast<int>(s);
        fraction = s - static_cast<float>(i);
        return i;
    }
}

}  // namespace sonolink::beamform::cuda
