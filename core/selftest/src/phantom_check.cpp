#include "sonolink/selftest/phantom_check.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "correlation.h"

namespace sonolink::selftest {
namespace {

constexpr double kSearchM = 1.5e-3;  // a point's peak is looked for this far around it
constexpr double kFloorDb = -60;

std::vector<double> logCompressed(const ImageOnGrid& im) {
    const float peak = *std::max_element(im.columns.begin(), im.columns.end());
    std::vector<double> out(im.columns.size());
    for (std::size_t i = 0; i < out.size(); ++i) {
        const double v = peak > 0 ? im.columns[i] / peak : 0.0;
        out[i] = v > 0 ? std::max(20 * std::log10(v), kFloorDb) : kFloorDb;
    }
    return out;
}

// The index range of axis within [lo, hi].
std::pair<std::size_t, std::size_t> within(std::span<const double> axis, double lo, double hi) {
    const auto first = static_cast<std::size_t>(std::lower_bound(axis.begin(), axis.end(), lo) - axis.begin());
    const auto last = static_cast<std::size_t>(std::upper_bound(axis.begin(), axis.end(), hi) - axis.begin());
    return {first, last};
}

// The position of a peak at index i along an axis, refined by the parabola through its neighbours.
double refined(std::span<const double> axis, std::size_t i, double before, double at, double after) {
    if (i == 0 || i + 1 >= axis.size()) return axis[i];
    const double denominator = before - 2 * at + after;
    const double offset = denominator < 0 ? std::clamp(0.5 * (before - after) / denominator, -0.5, 0.5) : 0.0;
    const double step = offset >= 0 ? axis[i + 1] - axis[i] : axis[i] - axis[i - 1];
    return axis[i] + offset * step;
}

// Width at half the peak's value of a profile through the peak at index i (linear between samples).
double fwhm(std::span<const double> axis, std::size_t i, const auto& value) {
    const double half = value(i) / 2;
    std::size_t l = i, r = i;
    while (l > 0 && value(l - 1) >= half) --l;
    while (r + 1 < axis.size() && value(r + 1) >= half) ++r;
    const auto cross = [&](std::size_t inside, std::size_t outside) {
        const double a = value(inside), b = value(outside);
        return a != b ? axis[inside] + (half - a) / (b - a) * (axis[outside] - axis[inside]) : axis[inside];
    };
    const double left = l > 0 ? cross(l, l - 1) : axis[l];
    const double right = r + 1 < axis.size() ? cross(r, r + 1) : axis[r];
    return right - left;
}

struct Peak {
    double x = 0, z = 0, fwhmX = 0, fwhmZ = 0;
};

Peak peakNear(const ImageOnGrid& im, double x, double z) {
    const auto [x0, x1] = within(im.x, x - kSearchM, x + kSearchM);
    const auto [z0, z1] = within(im.z, z - kSearchM, z + kSearchM);
    std::size_t bx = x0, bz = z0;
    float best = -1;
    for (std::size_t ix = x0; ix < x1; ++ix) {
        for (std::size_t iz = z0; iz < z1; ++iz) {
            if (const float v = im.columns[ix * im.nz + iz]; v > best) {
                best = v;
                bx = ix;
                bz = iz;
            }
        }
    }
    const auto at = [&](std::size_t ix, std::size_t iz) { return static_cast<double>(im.columns[ix * im.nz + iz]); };
    Peak p;
    p.x = refined(im.x, bx, bx > 0 ? at(bx - 1, bz) : 0, at(bx, bz), bx + 1 < im.nx ? at(bx + 1, bz) : 0);
    p.z = refined(im.z, bz, bz > 0 ? at(bx, bz - 1) : 0, at(bx, bz), bz + 1 < im.nz ? at(bx, bz + 1) : 0);
    p.fwhmX = fwhm(im.x, bx, [&](std::size_t ix) { return at(ix, bz); });
    p.fwhmZ = fwhm(im.z, bz, [&](std::size_t iz) { return at(bx, iz); });
    return p;
}

}  // namespace

bool PhantomFigures::passed(const PhantomLimits& limits) const {
    return ncc >= limits.minNcc && std::all_of(points.begin(), points.end(), [](const PointFigures& p) { return p.passed; });
}

Result<PhantomFigures> comparePhantom(const ImageOnGrid& live, const ImageOnGrid& reference, std::span<const std::pair<double, double>> points,
                                      const PhantomLimits& limits) {
    const auto shaped = [](const ImageOnGrid& im) {
        return im.nx >= 3 && im.nz >= 3 && im.columns.size() == im.nx * im.nz && im.x.size() == im.nx && im.z.size() == im.nz;
    };
    if (!shaped(live) || !shaped(reference)) {
        return fail(ErrorCode::InvalidArgument, fmt::format("phantom check: an image does not match its grid (live {} x {}, reference {} x {})", live.nx,
                                                            live.nz, reference.nx, reference.nz));
    }
    if (live.nx != reference.nx || live.nz != reference.nz || !std::equal(live.x.begin(), live.x.end(), reference.x.begin()) ||
        !std::equal(live.z.begin(), live.z.end(), reference.z.begin())) {
        return fail(ErrorCode::InvalidArgument, "phantom check: the live image and the reference are on different grids");
    }
    PhantomFigures r;
    r.ncc = pearson<double>(logCompressed(live), logCompressed(reference));
    for (const auto& [x, z] : points) {
        if (x - kSearchM < live.x.front() || x + kSearchM > live.x.back() || z - kSearchM < live.z.front() || z + kSearchM > live.z.back()) continue;
        const auto ref = peakNear(reference, x, z);
        const auto got = peakNear(live, ref.x, ref.z);
        PointFigures p;
        p.xM = ref.x;
        p.zM = ref.z;
        p.liveXM = got.x;
        p.liveZM = got.z;
        p.errorM = std::hypot(got.x - ref.x, got.z - ref.z);
        p.fwhmLateralM = got.fwhmX;
        p.fwhmAxialM = got.fwhmZ;
        p.referenceFwhmLateralM = ref.fwhmX;
        p.referenceFwhmAxialM = ref.fwhmZ;
        const auto close = [&](double a, double b) { return b > 0 && std::abs(a / b - 1) <= limits.maxFwhmError; };
        p.passed = p.errorM <= limits.maxPositionErrorM && close(got.fwhmX, ref.fwhmX) && close(got.fwhmZ, ref.fwhmZ);
        r.points.push_back(p);
    }
    return r;
}

}  // namespace sonolink::selftest
