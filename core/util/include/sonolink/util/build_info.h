// BuildInfo: what this binary is: version, git hash, build type, compiler, and which optional
// parts (CUDA module, RDMA verbs backend) were built into it. Values fixed at build time.
// Thread contract: immutable; safe from any thread.
#pragma once

#include <string>

namespace sonolink {

struct BuildInfo {
    std::string version;     // "0.1.0"
    std::string gitHash;     // short hash, "-dirty" when built from a modified tree
    std::string buildType;   // RelWithDebInfo, Debug, ...
    std::string compiler;    // "GNU 12.2.0"
    std::string sanitizers;  // "", "address", "thread"
    bool cudaBuilt = false;  // the CUDA beamformer module is in this build
    bool rdmaBuilt = false;  // the verbs link backend is in this build
    std::string cudaArchitectures;
};

[[nodiscard]] const BuildInfo& buildInfo() noexcept;

}  // namespace sonolink
