// Phantom check: the live image of the front end's test phantom, beamformed by the engine,
// against a reference image of the same phantom computed from its definition on the same grid:
// the normalised cross-correlation of the log-compressed envelopes, and for each point target
// its position (the live peak against the reference's) and its lateral and axial FWHM against
// the reference's, each held to a limit. Thread contract: pure functions.
#pragma once

#include <cstddef>
#include <span>
#include <utility>
#include <vector>

#include "sonolink/util/result.h"

namespace sonolink::selftest {

// An envelope on its grid: columns[ix * nz + iz]; x and z in metres, increasing.
struct ImageOnGrid {
    std::size_t nx = 0, nz = 0;
    std::span<const float> columns;
    std::span<const double> x, z;
};

struct PhantomLimits {
    double minNcc = 0.9;                // of the log-compressed envelopes (60 dB)
    double maxPositionErrorM = 0.5e-3;  // a point's live peak from the reference's
    double maxFwhmError = 0.25;         // |live FWHM / reference FWHM - 1|, lateral and axial
};

struct PointFigures {
    double xM = 0, zM = 0;          // the reference's peak
    double liveXM = 0, liveZM = 0;  // the live image's, near it
    double errorM = 0;
    double fwhmLateralM = 0, fwhmAxialM = 0;  // live
    double referenceFwhmLateralM = 0, referenceFwhmAxialM = 0;
    bool passed = false;
};

struct PhantomFigures {
    double ncc = 0;
    std::vector<PointFigures> points;  // those inside the grid, in the definition's order
    [[nodiscard]] bool passed(const PhantomLimits& limits) const;
};

// points: the phantom's point targets (x, z) in metres; those outside the grid (with a margin
// of the search window, 1.5 mm) are left out. InvalidArgument when the two images' grids differ.
[[nodiscard]] Result<PhantomFigures> comparePhantom(const ImageOnGrid& live, const ImageOnGrid& reference, std::span<const std::pair<double, double>> points,
                                                    const PhantomLimits& limits);

}  // namespace sonolink::selftest
