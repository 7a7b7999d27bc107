// Image files the beamformer's output is written to: NumPy .npy (float32, C order, shape
// [rows, columns]: depth along rows) for analysis, and 8-bit grayscale PNG for people. The
// PNG maps [low, high] linearly to 0..255 (for a dB image: [-dynamic range, 0]).
// Thread contract: pure functions.
#pragma once

#include <cstddef>
#include <span>
#include <string>

#include "sonolink/util/result.h"

namespace sonolink::image {

[[nodiscard]] Status writeNpy(const std::string& path, std::span<const float> rowMajor, std::size_t rows, std::size_t columns);
[[nodiscard]] Status writePng(const std::string& path, std::span<const float> rowMajor, std::size_t rows, std::size_t columns,
                              float low, float high);

}  // namespace sonolink::image
