// The IQ beamformer's inner loops (iq_beamformer.cpp), x86 only: one channel's contribution to
// the depths [first, last) of a column, eight depths a step with AVX2 from the table of quads (the
// last step partial), sixteen with AVX-512 from the planes on a grid of whole steps from depth 0
// (the first and last steps partial); the weight, the rotation and the interpolation as
// iq_tables.h and iq_rotation.h describe them. Private to sonolink_beamform.
// Thread contract: pure functions of their arguments; each call writes only the sums it is given.
#pragma once

#if defined(__x86_64__)
#include <immintrin.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include "iq_rotation.h"
#include "iq_tables.h"
#include "kernel_steps.h"

namespace sonolink::beamform::iq_internal {

using namespace kernel;

// The vector loops. Every per-depth array they read or write (z^2, 1/z, 1/z^2, tx, the sums) holds
// kPad entries past the last depth, so that the step that ends a channel's depths, partly past
// them, stays in bounds; its lanes past the end add nothing.
constexpr std::size_t kPad = 16;

// u rounded to the nearest integer k (ties to even, as vroundps) by the float addition
// u + 1.5 2^23, which holds 1.5 2^23 + k exactly (the floats there are the integers) for
// -2^22 <= u < 2^23: k is its bits less 1.5 2^23's, and taking 1.5 2^23 back off gives k as a
// float, exactly. Two additions and an integer subtraction where vroundps and vcvttps2dq took
// three slower micro-operations and 12 cycles: the AVX2 loop 5 to 9 % faster, the AVX-512 one
// 3 %, at one thread on a Sapphire Rapids. startFrame keeps records of 2^22 samples or more off
// these loops.
constexpr float kRoundingShift = 12582912.0f;  // 1.5 2^23
constexpr int kRoundingShiftBits = 0x4B400000;
// The AVX2 loop keeps a depth's quad as 4 (kRoundingShiftBits + k) modulo 2^32, the rounding's
// bits shifted, no subtraction (2 % of the loop): kOffsetBias + 4 k floats from the quads' start.
constexpr std::uint32_t kOffsetBias = static_cast<std::uint32_t>(kRoundingShiftBits) * 4u;  // modulo 2^32

// The AVX2 step's constants, each broadcast over eight floats, in memory the worker owns: the
// rotation's c0..c3 and s0..s3 (set once per tile of columns; the loop takes them into registers
// once per channel: 4 to 7 % faster), then the window's (per channel): Hann's polynomial d0..d3,
// or Tukey's aK and b. The step reads those from there in every step: stores to the sums may
// alias them, so GCC keeps them in memory. Left to itself, with sixteen
// registers short of all they need, GCC broadcasts them into registers, spills some to the stack
// frame and reloads them from there, and on a Sapphire Rapids those reloads cost the AVX2 Hann
// loop 40 % (9.3 against 7.0 ms a frame at one thread), the same loads from the heap next to
// nothing.
struct Avx2Lanes {
    static constexpr std::size_t kRotation = 0, kWindow = 8, kCount = 12;
    static constexpr std::size_t kFloats = kCount * 8 + 8;  // and room to align them to 32 bytes
    // The lanes' place in `room` (kFloats floats): its first 32-byte boundary.
    static float* in(float* room) noexcept { return reinterpret_cast<float*>((reinterpret_cast<std::uintptr_t>(room) + 31) & ~std::uintptr_t{31}); }
    static void put(float* lanes, std::size_t at, std::initializer_list<float> values) noexcept {
        for (float v : values) std::fill_n(lanes + 8 * at++, 8, v);
    }
    static void putRotation(float* lanes, const Rotation& r) noexcept { put(lanes, kRotation, {r.c0, r.c1, r.c2, r.c3, r.s0, r.s1, r.s2, r.s3}); }
    static void putWindow(float* lanes, const CosSquaredWeight& w) noexcept {
        if (w.hann) put(lanes, kWindow, {w.d0, w.d1, w.d2, w.d3});
        else put(lanes, kWindow, {w.aK, w.b});
    }
    __attribute__((target("avx2,fma"))) static __m256 at(const float* lanes, std::size_t j) noexcept { return _mm256_load_ps(lanes + 8 * j); }
};

// The AVX-512 step's rotation coefficients in registers (thirty-two of them hold all it needs),
// broadcast once per channel (a member read through a reference would be reloaded after every
// store to the sums).
struct RotationLanes16 {
    __m512 c0, c1, c2, c3, s0, s1, s2, s3;
    __attribute__((target("avx2,fma,avx512f"))) explicit RotationLanes16(const Rotation& r) noexcept
        : c0(_mm512_set1_ps(r.c0)), c1(_mm512_set1_ps(r.c1)), c2(_mm512_set1_ps(r.c2)), c3(_mm512_set1_ps(r.c3)), s0(_mm512_set1_ps(r.s0)),
          s1(_mm512_set1_ps(r.s1)), s2(_mm512_set1_ps(r.s2)), s3(_mm512_set1_ps(r.s3)) {}
};

// One channel of a column: its table, and where its samples lie: u = tx[iz] + |r| spm in samples,
// tx the transmit delay less half a sample, so that the index k nearest u is the pair's and
// g = u - k the place from its midpoint. Inside the record: u in [-1/2, n - 3/2).
struct IqChannel {
    const float* table;
    std::size_t n, plane;  // its samples; and for planes, the floats from one plane to the next (TableLayout)
    const float* tx;
    float samplesPerMetre, dx2;
    const float* lanes;  // the AVX2 step's constants (Avx2Lanes); the AVX-512 step does without
    // The AVX2 loop's room for the positions of each depth (positionsOf8): the quad's offset and
    // g, indexed by depth, the column's depths and kPad more. The worker's own.
    std::uint32_t* offsets;
    float* fractions;
};

// The AVX2 loop in two streams, each in its own function: positionsOf8 finds eight depths' quads
// (their offsets, 4 k) and places g from the delays and keeps them in the channel's room;
// samplesOf8 reads those quads, interpolates, weights, turns and adds them. Run as one step, the
// loads hung on the square root's long chain of latencies (sqrt, rounding, the moves of the
// offsets to scalar registers, the loads, the transposes) and the machine ran out of room for
// the steps in flight; the positions are now found kLead steps ahead of the samples that read
// them (accumulateIqAvx2).
// kClamp: a step partly past the channel's last depth, whose lanes past it are clamped to the
// zero quads one past either end of the record. The lanes of the channel's own depths need no
// clamp: inside the record, or (where the multiply-add here rounds otherwise than inRecordRange)
// one past an end, on a zero quad. (Clamping every step cost 4 to 5 % of the loop's time.)
template <bool kClamp> __attribute__((target("avx2,fma"))) inline void positionsOf8(const IqChannel& ch, const float* zSquared, std::size_t iz) noexcept {
    const __m256 u = _mm256_fmadd_ps(_mm256_sqrt_ps(_mm256_add_ps(_mm256_set1_ps(ch.dx2), _mm256_loadu_ps(zSquared + iz))), _mm256_set1_ps(ch.samplesPerMetre),
                                     _mm256_loadu_ps(ch.tx + iz));
    const __m256 shifted = _mm256_add_ps(u, _mm256_set1_ps(kRoundingShift));
    const __m256 g = _mm256_sub_ps(u, _mm256_sub_ps(shifted, _mm256_set1_ps(kRoundingShift)));
    __m256i bits = _mm256_castps_si256(shifted);  // kRoundingShiftBits + k
    if constexpr (kClamp) {
        bits =
            _mm256_min_epi32(_mm256_max_epi32(bits, _mm256_set1_epi32(kRoundingShiftBits - 1)), _mm256_set1_epi32(kRoundingShiftBits + static_cast<int>(ch.n)));
    }
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(ch.offsets + iz), _mm256_slli_epi32(bits, 2));  // kOffsetBias + 4 k
    _mm256_storeu_ps(ch.fractions + iz, g);
}

// The AVX2 step's residual rotation coefficients, in registers for a channel.
struct RotationLanes8 {
    __m256 c0, c1, c2, c3, s0, s1, s2, s3;
};

// Eight depths' samples from the table of quads: each depth's (M re, M im, D re, D im) one
// 128-bit load at its offset, two depths to a register and a 4 x 4 transpose in each half (eight
// in-lane shuffles; measured faster than four 64-bit gathers of four pairs). kPartial: only the
// lanes of `live` add.
template <bool kLongSine, bool kPartial, typename Weight>
__attribute__((target("avx2,fma"))) inline void samplesOf8(const IqChannel& ch, const Weight& weight, const RotationLanes8& r, std::size_t iz, __m256 live,
                                                           float* re, float* im) noexcept {
    const __m256 g = _mm256_loadu_ps(ch.fractions + iz);
    const std::uint32_t* at = ch.offsets + iz;
    const std::uintptr_t biased = reinterpret_cast<std::uintptr_t>(ch.table) - std::uintptr_t{4} * kOffsetBias;
    const auto quad = [&](int a) __attribute__((always_inline, target("avx2,fma"))) {
        return _mm_loadu_ps(reinterpret_cast<const float*>(biased + std::uintptr_t{4} * at[a]));
    };
    const auto two = [&](int a, int b) __attribute__((always_inline, target("avx2,fma"))) {
        return _mm256_insertf128_ps(_mm256_castps128_ps256(quad(a)), quad(b), 1);
    };
    const __m256 r0 = two(0, 4), r1 = two(1, 5), r2 = two(2, 6), r3 = two(3, 7);
    const __m256 t0 = _mm256_unpacklo_ps(r0, r1), t1 = _mm256_unpackhi_ps(r0, r1), t2 = _mm256_unpacklo_ps(r2, r3), t3 = _mm256_unpackhi_ps(r2, r3);
    __m256 vr = _mm256_fmadd_ps(g, _mm256_shuffle_ps(t1, t3, 0x44), _mm256_shuffle_ps(t0, t2, 0x44));  // M + g D
    __m256 vi = _mm256_fmadd_ps(g, _mm256_shuffle_ps(t1, t3, 0xEE), _mm256_shuffle_ps(t0, t2, 0xEE));
    if constexpr (!Weight::kUnit) {
        const __m256 w = weight.at8(iz);
        vr = _mm256_mul_ps(vr, w);
        vi = _mm256_mul_ps(vi, w);
    }
    if constexpr (kPartial) {
        vr = _mm256_and_ps(vr, live);
        vi = _mm256_and_ps(vi, live);
    }
    const __m256 g2 = _mm256_mul_ps(g, g);
    const __m256 c = _mm256_fmadd_ps(g2, _mm256_fmadd_ps(g2, _mm256_fmadd_ps(g2, r.c3, r.c2), r.c1), r.c0);
    const __m256 top = kLongSine ? _mm256_fmadd_ps(g2, r.s3, r.s2) : r.s2;
    const __m256 s = _mm256_mul_ps(g, _mm256_fmadd_ps(g2, _mm256_fmadd_ps(g2, top, r.s1), r.s0));
    _mm256_storeu_ps(re + iz, _mm256_fnmadd_ps(vi, s, _mm256_fmadd_ps(vr, c, _mm256_loadu_ps(re + iz))));
    _mm256_storeu_ps(im + iz, _mm256_fmadd_ps(vi, c, _mm256_fmadd_ps(vr, s, _mm256_loadu_ps(im + iz))));
}

// A channel's depths [first, last) eight at a time with AVX2, the last step partial; the
// positions kLead steps ahead of the samples. One thread, against the loop as one step (the
// positions in registers): rectangular 5.70 -> 4.33 ms, Hann 6.35 -> 4.93, Tukey 6.35 -> 5.16;
// against the two streams one after the other, a lead of 1 step 1.04-1.08 x the time, 3
// 0.96-0.98, 6 0.92-0.96, 9 and 12 as 6. (On the
// AVX-512 loop's grid of whole steps, with the first step partial, the loop as one step ran 2 %
// slower to 2.5 % faster.)
template <bool kLongSine, typename Weight>
__attribute__((target("avx2,fma"))) void accumulateIqAvx2(const IqChannel& channel, const Weight& taper, const float* zSquared, std::size_t first,
                                                          std::size_t last, float* re, float* im) noexcept {
    // Copies the stores to the sums cannot reach: read through the references, the channel's and
    // the weight's members were loaded again in every step.
    const IqChannel ch = channel;
    const Weight weight = taper;
    const auto lane = [&ch](std::size_t j) __attribute__((always_inline, target("avx2,fma"))) { return Avx2Lanes::at(ch.lanes, Avx2Lanes::kRotation + j); };
    const RotationLanes8 rotation{lane(0), lane(1), lane(2), lane(3), lane(4), lane(5), lane(6), lane(7)};
    constexpr std::size_t kLead = 8;
    const std::size_t whole = first + (last - first) / 8 * 8;  // the whole steps' end; a partial step from there
    if (whole < last) positionsOf8<true>(ch, zSquared, whole);
    for (std::size_t iz = first; iz < std::min(whole, first + 8 * kLead); iz += 8) positionsOf8<false>(ch, zSquared, iz);
    const __m256 all = _mm256_castsi256_ps(_mm256_set1_epi32(-1));
    for (std::size_t iz = first; iz < whole; iz += 8) {
        if (iz + 8 * kLead < whole) positionsOf8<false>(ch, zSquared, iz + 8 * kLead);
        samplesOf8<kLongSine, false>(ch, weight, rotation, iz, all, re, im);
    }
    if (whole < last) {
        const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
        const __m256 live = _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(last - whole)), lanes));
        samplesOf8<kLongSine, true>(ch, weight, rotation, whole, live, re, im);
    }
}

// (GCC 12 takes the placeholder inside its own 512-bit intrinsics for an uninitialised value.)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
// Sixteen depths with AVX-512 (measured faster than eight). Where their indices lie within 32
// samples, two loads and one two-table permute (vpermt2ps) per plane instead of a gather: from the
// 64-byte line that holds the first index where the two lines hold all sixteen (aligned loads;
// the planes start on lines), else from the first index on (both loads across lines; from the
// line: 2 % faster at one thread). In a partial step the lanes not `live` take the first live
// lane's index (so that they do not spoil the window) and add nothing.
template <bool kLongSine, bool kPartial, typename Weight>
__attribute__((always_inline, target("avx2,fma,avx512f,avx512vl"))) inline void stepOf16(const IqChannel& ch, const Weight& weight, const RotationLanes16& r,
                                                                                         const float* zSquared, std::size_t iz, __mmask16 live, float* re,
                                                                                         float* im) noexcept {
    const __m512 u = _mm512_fmadd_ps(_mm512_sqrt_ps(_mm512_add_ps(_mm512_set1_ps(ch.dx2), _mm512_loadu_ps(zSquared + iz))), _mm512_set1_ps(ch.samplesPerMetre),
                                     _mm512_loadu_ps(ch.tx + iz));
    const __m512 shifted = _mm512_add_ps(u, _mm512_set1_ps(kRoundingShift));
    const __m512 g = _mm512_sub_ps(u, _mm512_sub_ps(shifted, _mm512_set1_ps(kRoundingShift)));
    __m512i k = _mm512_sub_epi32(_mm512_castps_si512(shifted), _mm512_set1_epi32(kRoundingShiftBits));
    if constexpr (kPartial) k = _mm512_mask_mov_epi32(_mm512_permutexvar_epi32(_mm512_set1_epi32(__builtin_ctz(live)), k), live, k);
    const int low = _mm_cvtsi128_si32(_mm512_castsi512_si128(k));
    // The planes written out, not as an array: GCC keeps an array of them in memory here.
    const float* const midRe = ch.table;
    const float* const midIm = midRe + ch.plane;
    const float* const stepRe = midIm + ch.plane;
    const float* const stepIm = stepRe + ch.plane;
    __m512 mr, mi, dr, di;
    const auto window = [&](int start, __m512i rel) __attribute__((always_inline, target("avx2,fma,avx512f,avx512vl"))) {
        const auto from = [&](const float* plane) __attribute__((always_inline, target("avx2,fma,avx512f,avx512vl"))) {
            return _mm512_permutex2var_ps(_mm512_loadu_ps(plane + start), rel, _mm512_loadu_ps(plane + start + 16));
        };
        mr = from(midRe), mi = from(midIm), dr = from(stepRe), di = from(stepIm);
    };
    // The window from the 64-byte line holding the first index: aligned loads (the planes start
    // on a line), where it holds all 16; else from the first index (loads across lines); else gathers.
    const int line = low & ~15;
    const __m512i relLine = _mm512_sub_epi32(k, _mm512_set1_epi32(line));
    const __m512i rel = _mm512_sub_epi32(k, _mm512_set1_epi32(low));
    if (_mm512_cmpgt_epu32_mask(relLine, _mm512_set1_epi32(31)) == 0 && low >= 0 && line <= static_cast<int>(ch.plane) - 32) {
        window(line, relLine);
    } else if (_mm512_cmpgt_epu32_mask(rel, _mm512_set1_epi32(31)) == 0 && low >= 0 && low <= static_cast<int>(ch.n) - 32) {
        window(low, rel);
    } else {
        const __m512i index = _mm512_min_epi32(_mm512_max_epi32(k, _mm512_setzero_si512()), _mm512_set1_epi32(static_cast<int>(ch.n) - 2));
        mr = _mm512_i32gather_ps(index, midRe, 4), mi = _mm512_i32gather_ps(index, midIm, 4);
        dr = _mm512_i32gather_ps(index, stepRe, 4), di = _mm512_i32gather_ps(index, stepIm, 4);
    }
    __m512 vr = _mm512_fmadd_ps(g, dr, mr);
    __m512 vi = _mm512_fmadd_ps(g, di, mi);
    if constexpr (!Weight::kUnit) {
        const __m512 w = weight.at16(iz);
        vr = _mm512_mul_ps(vr, w);
        vi = _mm512_mul_ps(vi, w);
    }
    if constexpr (kPartial) {
        vr = _mm512_maskz_mov_ps(live, vr);
        vi = _mm512_maskz_mov_ps(live, vi);
    }
    const __m512 g2 = _mm512_mul_ps(g, g);
    const __m512 c = _mm512_fmadd_ps(g2, _mm512_fmadd_ps(g2, _mm512_fmadd_ps(g2, r.c3, r.c2), r.c1), r.c0);
    const __m512 top = kLongSine ? _mm512_fmadd_ps(g2, r.s3, r.s2) : r.s2;
    const __m512 s = _mm512_mul_ps(g, _mm512_fmadd_ps(g2, _mm512_fmadd_ps(g2, top, r.s1), r.s0));
    _mm512_storeu_ps(re + iz, _mm512_fnmadd_ps(vi, s, _mm512_fmadd_ps(vr, c, _mm512_loadu_ps(re + iz))));
    _mm512_storeu_ps(im + iz, _mm512_fmadd_ps(vi, c, _mm512_fmadd_ps(vr, s, _mm512_loadu_ps(im + iz))));
}

template <bool kLongSine, typename Weight>
__attribute__((target("avx2,fma,avx512f,avx512vl"))) void accumulateIqAvx512(const IqChannel& channel, const Weight& taper, const Rotation& rotation,
                                                                             const float* zSquared, std::size_t first, std::size_t last, float* re,
                                                                             float* im) noexcept {
    const IqChannel ch = channel;  // copies, as in accumulateIqAvx2
    const Weight weight = taper;
    const RotationLanes16 lanes(rotation);
    // Every channel's steps on one grid, whole steps from depth 0, the first one partial: the
    // per-depth arrays and the sums start on 64-byte lines, so that no load or store crosses a
    // line, and each load of the sums meets one whole store of the channel before (from the
    // channel's first depth on, 5 to 16 % faster at one thread, with the step inlined in both
    // places 5 to 8 % more).
    std::size_t iz = first & ~std::size_t{15};
    if (iz < first) {
        const unsigned before = static_cast<unsigned>(first - iz), upTo = static_cast<unsigned>(std::min<std::size_t>(last - iz, 16));
        stepOf16<kLongSine, true>(ch, weight, lanes, zSquared, iz, static_cast<__mmask16>(((1u << upTo) - 1) & ~((1u << before) - 1)), re, im);
        iz += 16;
    }
    for (; iz + 16 <= last; iz += 16) stepOf16<kLongSine, false>(ch, weight, lanes, zSquared, iz, 0xFFFF, re, im);
    if (iz < last) stepOf16<kLongSine, true>(ch, weight, lanes, zSquared, iz, static_cast<__mmask16>((1u << (last - iz)) - 1), re, im);
}
#pragma GCC diagnostic pop

// A tapering window's weight with its form (Hann's or Tukey's) chosen once per channel, not in
// each step; the AVX2 step's coefficients from `lanes` (Avx2Lanes, put there for this channel),
// the AVX-512 step's from the weight. at8 writes CosSquaredWeight's polynomial out again: handed
// to it as arguments, the lanes' values were kept in registers and spilled again (Hann 1.38 x,
// Tukey 1.21 x the time, one thread).
template <bool kHann> struct TaperWeight {
    static constexpr bool kUnit = false;
    CosSquaredWeight weight;
    const float* lanes;
    __attribute__((target("avx2,fma"))) __m256 at8(std::size_t iz) const noexcept {
        const auto lane = [this](std::size_t j) __attribute__((always_inline, target("avx2,fma"))) { return Avx2Lanes::at(lanes, Avx2Lanes::kWindow + j); };
        __m256 c;
        if constexpr (kHann) {
            const __m256 t = _mm256_loadu_ps(weight.invZ2 + iz);
            c = _mm256_fmadd_ps(t, _mm256_fmadd_ps(t, _mm256_fmadd_ps(t, lane(3), lane(2)), lane(1)), lane(0));
        } else {
            const __m256 u = _mm256_fmsub_ps(lane(0), _mm256_loadu_ps(weight.invZ + iz), lane(1));
            c = EvenCosine::at8(_mm256_mul_ps(u, u));
        }
        return _mm256_mul_ps(c, c);
    }
    __attribute__((target("avx2,fma,avx512f"))) __m512 at16(std::size_t iz) const noexcept { return weight.at16As<kHann>(iz); }
};

// Which loop runs a channel: the one this CPU does best.
enum class IqLoop { Avx2, Avx512 };

template <bool kLongSine, typename Weight>
void accumulateIq(IqLoop loop, const IqChannel& ch, const Weight& weight, const Rotation& rotation, const float* zSquared, std::size_t first, std::size_t last,
                  float* re, float* im) noexcept {
    if (first >= last) return;
    if (loop == IqLoop::Avx512) accumulateIqAvx512<kLongSine>(ch, weight, rotation, zSquared, first, last, re, im);
    else accumulateIqAvx2<kLongSine>(ch, weight, zSquared, first, last, re, im);
}

}  // namespace sonolink::beamform::iq_internal
#endif
