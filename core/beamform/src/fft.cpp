#include "fft.h"

#include <cmath>
#include <numbers>
#include <utility>

namespace sonolink::beamform {
namespace {

// Plain complex product: std::complex's operator* also handles infinities and NaNs by a library
// call (__muldc3), which made the envelope more than twice as slow as the arithmetic.
std::complex<double> times(std::complex<double> a, std::complex<double> b) noexcept {
    return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}

}  // namespace

void fft(std::span<std::complex<double>> data, bool inverse) noexcept {
    const std::size_t n = data.size();
    for (std::size_t i = 1, j = 0; i < n; ++i) {  // bit-reversal permutation
        std::size_t bit = n >> 1;
        for (; j & bit; bit >>= 1) j ^= bit;
        j ^= bit;
        if (i < j) std::swap(data[i], data[j]);
    }
    for (std::size_t length = 2; length <= n; length <<= 1) {
        const double angle = 2 * std::numbers::pi / static_cast<double>(length) * (inverse ? 1 : -1);
        const std::complex<double> step(std::cos(angle), std::sin(angle));
        for (std::size_t start = 0; start < n; start += length) {
            std::complex<double> w(1, 0);
            for (std::size_t k = 0; k < length / 2; ++k) {
                const auto even = data[start + k];
                const auto odd = times(data[start + k + length / 2], w);
                data[start + k] = even + odd;
                data[start + k + length / 2] = even - odd;
                w = times(w, step);
            }
        }
    }
}

}  // namespace sonolink::beamform
