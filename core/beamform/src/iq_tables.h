// The IQ beamformer's tables (iq_beamformer.cpp): each trace's samples as turned pairs, kept as
// their midpoint and step, and the per-frame phase they are turned by. Private to
// sonolink_beamform. Thread contract: turnsFor keeps its result in the calling thread; buildTrace
// writes only its own trace's table.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "iq_rotation.h"
#include "line_aligned.h"

namespace sonolink::beamform::iq_internal {

// A trace turned into the table the loops read: for each sample index k the midpoint
// M_k = (iq[k] + iq[k + 1]) / 2 and the step D_k = iq[k + 1] - iq[k], both turned by
// exp(i phi_k), phi_k the phase at k + 1/2. A sample at u = k + g, g in [-1/2, 1/2], is then
// (M_k + g D_k) exp(i w g): the baseband interpolated linearly and turned by its own phase, in two
// multiply-adds and the residual rotation. Either four planes, M re, M im, D re, D im (the
// AVX-512 loop's window permutes), each of n floats starting on a 64-byte line, `plane` floats
// apart (n rounded up to 16), so that the loop's windows can be read by aligned loads; or quads
// (AVX2): (M re, M im, D re, D im) for each k, so that one 128-bit load brings a depth's four,
// with a zero quad before and after each trace's n (an index rounded one past an end of the
// record reads 0, with no clamp in the loop).
struct TableLayout {
    bool quads = false;
    std::size_t plane = 0;  // planes only: floats from one plane to the next
    static TableLayout of(std::size_t n, bool asQuads) noexcept { return {asQuads, asQuads ? 0 : (n + 15) / 16 * 16}; }
};

struct IqTables {
    std::size_t n = 0;
    TableLayout layout;
    std::size_t stride() const noexcept { return layout.quads ? 4 * (n + 2) : 4 * layout.plane; }
    const float* trace(std::size_t index) const noexcept { return planes.data() + start + index * stride() + (layout.quads ? 4 : 0); }
    float* trace(std::size_t index) noexcept { return planes.data() + start + index * stride() + (layout.quads ? 4 : 0); }
    // Room for `traces` traces of n samples in this layout, the quads' zero ends set.
    void resize(std::size_t traces, std::size_t samples, bool asQuads) {
        n = samples;
        layout = TableLayout::of(samples, asQuads);
        planes.resize(traces * stride() + 16);
        start = static_cast<std::size_t>(lineAligned(planes.data()) - planes.data());
        if (!layout.quads) return;
        for (std::size_t t = 0; t < traces; ++t) {
            std::fill_n(trace(t) - 4, 4, 0.0f);
            std::fill_n(trace(t) + 4 * n, 4, 0.0f);
        }
    }

private:
    std::vector<float> planes;  // traces x stride(), from `start` on
    std::size_t start = 0;
};

// The phase's part for one record length, initial phase and phase per sample: the turn of each
// pair, exp(i phi_k), and the fitted residual rotation. Kept by the calling thread while they
// stay the same, as they do from frame to frame of a stream.
struct Turns {
    std::size_t n = 0;
    double radiansAtFirst = 0, radiansPerSample = -1;
    std::vector<float> re, im;
    Rotation rotation{};
};

[[nodiscard]] const Turns& turnsFor(std::size_t n, double radiansAtFirst, double radiansPerSample);

#if defined(__x86_64__)
// One trace's table from its n IQ samples (re, im interleaved), eight pairs at a time with AVX2.
void buildTrace(const float* in, std::size_t n, const Turns& turns, TableLayout layout, float* out) noexcept;
// The same from the trace's n filter outputs before the mixer (filterTrace), planar,
// whose mixed-down samples are the IQ samples: the mixer's phase and the turn cancel, leaving a
// constant half-sample rotation.
void buildTraceFromFiltered(const float* re, const float* im, std::size_t n, double radiansPerSample, TableLayout layout, float* out) noexcept;
#endif

}  // namespace sonolink::beamform::iq_internal
