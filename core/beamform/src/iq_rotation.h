// The IQ beamformer's residual rotation (iq_beamformer.cpp): exp(i w g) for a sample at g in
// [-1/2, 1/2] from the midpoint of its table pair, as two short polynomials in g fitted per frame
// to the phase per IQ sample w. Private to sonolink_beamform.
// Thread contract: a pure function and a plain value.
#pragma once

namespace sonolink::beamform::iq_internal {

// The residual rotation exp(i w g) of a sample at g in [-1/2, 1/2] from the midpoint of the pair
// the table turned by that midpoint's phase, w the phase per IQ sample (at most pi): cos(w g) of
// degree 6 and sin(w g) of degree 5 in g, fitted for this frame's w (least squares on Chebyshev
// nodes of [0, 1/2], w folded in): 3 and 3 multiply-adds and a product, no transcendental per
// pixel. Past w = 2.6 a degree-5 sine is off by more than 2e-5 (7.5e-5 at pi): there the sine
// takes degree 7 (the loops' kLongSine).
struct Rotation {
    float c0, c1, c2, c3;  // cos(w g) = c0 + g2 (c1 + g2 (c2 + g2 c3))
    float s0, s1, s2, s3;  // sin(w g) = g (s0 + g2 (s1 + g2 (s2 + g2 s3))), s3 = 0 unless kLongSine
    bool longSine;
};

// The least-squares fit for w in (0, pi].
[[nodiscard]] Rotation fitRotation(double w);

}  // namespace sonolink::beamform::iq_internal
