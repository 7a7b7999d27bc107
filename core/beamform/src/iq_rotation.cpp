#include "iq_rotation.h"

#include <array>
#include <cmath>
#include <numbers>
#include <vector>

namespace sonolink::beamform::iq_internal {
namespace {

// v^j
double powers(double v, int j) {
    double p = 1;
    while (j-- > 0) p *= v;
    return p;
}

// Least squares of f over `nodes` in the basis b_j(g) = g^odd (4 g^2)^j, j < terms, by the normal
// equations (double, at most 4 x 4, well conditioned on [0, 1/2]); returns the coefficients of
// g^odd g^(2j), that is a_j 4^j.
template <typename F> std::array<double, 4> leastSquares(const std::vector<double>& nodes, int terms, int odd, F f) {
    double m[4][5] = {};
    for (double g : nodes) {
        double b[4];
        for (int j = 0; j < terms; ++j) b[j] = (odd ? g : 1.0) * powers(4 * g * g, j);
        for (int r = 0; r < terms; ++r) {
            for (int c = 0; c < terms; ++c) m[r][c] += b[r] * b[c];
            m[r][terms] += b[r] * f(g);
        }
    }
    for (int p = 0; p < terms; ++p) {  // Gaussian elimination; the matrix is symmetric positive definite
        for (int r = p + 1; r < terms; ++r) {
            const double k = m[r][p] / m[p][p];
            for (int c = p; c <= terms; ++c) m[r][c] -= k * m[p][c];
        }
    }
    std::array<double, 4> a{};
    for (int r = terms - 1; r >= 0; --r) {
        double v = m[r][terms];
        for (int c = r + 1; c < terms; ++c) v -= m[r][c] * a[static_cast<std::size_t>(c)];
        a[static_cast<std::size_t>(r)] = v / m[r][r];
    }
    for (int j = 0; j < terms; ++j) a[static_cast<std::size_t>(j)] *= powers(4.0, j);
    return a;
}

}  // namespace

Rotation fitRotation(double w) {
    std::vector<double> nodes(64);
    for (std::size_t i = 0; i < nodes.size(); ++i)
        nodes[i] = 0.25 * (1 - std::cos(std::numbers::pi * (static_cast<double>(i) + 0.5) / static_cast<double>(nodes.size())));
    const bool longSine = w > 2.6;
    const auto c = leastSquares(nodes, 4, 0, [w](double g) { return std::cos(w * g); });
    const auto s = leastSquares(nodes, longSine ? 4 : 3, 1, [w](double g) { return std::sin(w * g); });
    const auto f = [](double v) { return static_cast<float>(v); };
    return {f(c[0]), f(c[1]), f(c[2]), f(c[3]), f(s[0]), f(s[1]), f(s[2]), f(s[3]), longSine};
}

}  // namespace sonolink::beamform::iq_internal
