// Arrays of floats that start on a 64-byte cache line, for the vector loops: a group of equal
// arrays, each rounded up to whole lines, so that steps on a grid of whole lines (sixteen floats,
// or eight: half a line) read and write them without crossing a line. Private to
// sonolink_beamform. Thread contract: a plain value; concurrent reads of a const one are safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sonolink::beamform {

// n rounded up to whole lines of floats.
constexpr std::size_t lineRounded(std::size_t n) noexcept { return (n + 15) / 16 * 16; }

// The first line boundary at or after p.
inline float* lineAligned(float* p) noexcept { return reinterpret_cast<float*>((reinterpret_cast<std::uintptr_t>(p) + 63) & ~std::uintptr_t{63}); }

// `count` arrays of `length` floats each (zeroed), array i at (*this)[i], stride() floats apart.
class LineAlignedArrays {
public:
    LineAlignedArrays() = default;
    LineAlignedArrays(std::size_t count, std::size_t length) : stride_(lineRounded(length)), storage_(count * stride_ + 15) {}
    // Moved, not copied: a copy's storage could start elsewhere on its line.
    LineAlignedArrays(const LineAlignedArrays&) = delete;
    LineAlignedArrays& operator=(const LineAlignedArrays&) = delete;
    LineAlignedArrays(LineAlignedArrays&&) noexcept = default;
    LineAlignedArrays& operator=(LineAlignedArrays&&) noexcept = default;
    float* operator[](std::size_t i) noexcept { return lineAligned(storage_.data()) + i * stride_; }
    const float* operator[](std::size_t i) const noexcept { return lineAligned(const_cast<float*>(storage_.data())) + i * stride_; }
    std::size_t stride() const noexcept { return stride_; }

private:
    std::size_t stride_ = 0;
    std::vector<float> storage_;
};

}  // namespace sonolink::beamform
