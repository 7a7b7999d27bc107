// Pearson's correlation of two equally long series (0 when either is constant), shared by the
// element and phantom checks. Thread contract: a pure function.
#pragma once

#include <cmath>
#include <span>

namespace sonolink::selftest {

template <typename T> double pearson(std::span<const T> a, std::span<const T> b) {
    double ma = 0, mb = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        ma += a[i];
        mb += b[i];
    }
    ma /= static_cast<double>(a.size());
    mb /= static_cast<double>(b.size());
    double ab = 0, aa = 0, bb = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const double x = a[i] - ma, y = b[i] - mb;
        ab += x * y;
        aa += x * x;
        bb += y * y;
    }
    return aa > 0 && bb > 0 ? ab / std::sqrt(aa * bb) : 0.0;
}

}  // namespace sonolink::selftest
