// Image files the beamformer's output is written to: NumPy .npy (float32, C order, shape
// [rows, columns]: depth along rows) for analysis, and 8-bit PNG of the picture people
// look at (GreyChain's levels, as they are; or in colour, a photoacoustic overlay).
// Thread contract: pure functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "sonolink/util/result.h"

namespace sonolink::image {

[[nodiscard]] Status writeNpy(const std::string& path, std::span<const float> rowMajor, std::size_t rows, std::size_t columns);
[[nodiscard]] Status writePng(const std::string& path, std::span<const std::uint8_t> rowMajor, std::size_t rows, std::size_t columns);
// The same in colour: rows x columns pixels of R, G, B bytes.
[[nodiscard]] Status writePngRgb(const std::string& path, std::span<const std::uint8_t> rgb, std::size_t rows, std::size_t columns);

}  // namespace sonolink::image
