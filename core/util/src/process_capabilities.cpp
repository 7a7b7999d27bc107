#include "sonolink/util/process_capabilities.h"

#include <fstream>
#include <string>

namespace sonolink {

bool hasEffectiveCapability(int capability) {
    std::ifstream status("/proc/thread-self/status");
    for (std::string line; std::getline(status, line);) {
        if (line.rfind("CapEff:", 0) == 0) return (std::stoull(line.substr(7), nullptr, 16) >> capability) & 1u;
    }
    return false;
}

}  // namespace sonolink
