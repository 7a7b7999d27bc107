#include "sonolink/selftest/memory_tests.h"

namespace sonolink::selftest {

std::string_view toString(MemoryAlgorithm algorithm) noexcept {
    switch (algorithm) {
        case MemoryAlgorithm::SolidPatterns: return "solid patterns";
        case MemoryAlgorithm::WalkingOnes: return "walking ones";
        case MemoryAlgorithm::WalkingZeros: return "walking zeros";
        case MemoryAlgorithm::AddressInAddress: return "address in address";
        case MemoryAlgorithm::MarchCMinus: return "March C-";
        case MemoryAlgorithm::MovingInversions: return "moving inversions";
        case MemoryAlgorithm::RandomPattern: return "random pattern";
    }
    return "?";
}

}  // namespace sonolink::selftest
