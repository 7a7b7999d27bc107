#include "fft.h"

#include <array>
#include <bit>
#include <cmath>
#include <numbers>
#include <utility>
#include <vector>

namespace sonolink::beamform {
namespace {

// exp(-2 pi i k / n) for k < n / 2, one table per size, per thread (built once: a worker keeps its
// own, so there is no lock and nothing is shared).
const std::vector<std::complex<double>>& twiddles(std::size_t n) {
    thread_local std::array<std::vector<std::complex<double>>, 64> tables;
    auto& table = tables[static_cast<std::size_t>(std::countr_zero(n))];
    if (table.size() != n / 2) {
        table.resize(n / 2);
        for (std::size_t k = 0; k < n / 2; ++k) {
            const double angle = -2 * std::numbers::pi * static_cast<double>(k) / static_cast<double>(n);
            table[k] = {std::cos(angle), std::sin(angle)};
        }
    }
    return table;
}

void bitReverse(std::span<std::complex<double>> data) noexcept {
    const std::size_t n = data.size();
    for (std::size_t i = 1, j = 0; i < n; ++i) {
        std::size_t bit = n >> 1;
        for (; j & bit; bit >>= 1) j ^= bit;
        j ^= bit;
        if (i < j) std::swap(data[i], data[j]);
    }
}

}  // namespace

// Radix-2, decimation in time. The products are written out: std::complex's operator* also
// handles infinities and NaNs by a library call (__muldc3), which made the envelope more than
// twice as slow as the arithmetic. The inverse takes the conjugate twiddles.
void fft(std::span<std::complex<double>> data, bool inverse) noexcept {
    const std::size_t n = data.size();
    if (n < 2) return;
    bitReverse(data);
    auto* d = reinterpret_cast<double*>(data.data());  // re, im pairs: [complex.numbers]/4
    for (std::size_t i = 0; i < n; i += 2) {           // length 2: the twiddle is 1
        const double ar = d[2 * i], ai = d[2 * i + 1], br = d[2 * i + 2], bi = d[2 * i + 3];
        d[2 * i] = ar + br, d[2 * i + 1] = ai + bi, d[2 * i + 2] = ar - br, d[2 * i + 3] = ai - bi;
    }
    const auto& table = twiddles(n);
    const double sign = inverse ? -1.0 : 1.0;
    for (std::size_t length = 4; length <= n; length <<= 1) {
        const std::size_t half = length / 2, stride = n / length;
        for (std::size_t start = 0; start < n; start += length) {
            double* even = d + 2 * start;
            double* odd = d + 2 * (start + half);
            for (std::size_t k = 0; k < half; ++k) {
                const double wr = table[k * stride].real(), wi = sign * table[k * stride].imag();
                const double xr = odd[2 * k] * wr - odd[2 * k + 1] * wi, xi = odd[2 * k] * wi + odd[2 * k + 1] * wr;
                const double er = even[2 * k], ei = even[2 * k + 1];
                even[2 * k] = er + xr, even[2 * k + 1] = ei + xi;
                odd[2 * k] = er - xr, odd[2 * k + 1] = ei - xi;
            }
        }
    }
}

}  // namespace sonolink::beamform
