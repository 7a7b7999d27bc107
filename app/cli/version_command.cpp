#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "exit_codes.h"
#include "sonolink/util/build_info.h"

namespace sonolink::cli {

int printVersion(bool json) {
    const auto& info = buildInfo();
    if (json) {
        nlohmann::json out{{"version", info.version},
                           {"git_hash", info.gitHash},
                           {"build_type", info.buildType},
                           {"compiler", info.compiler},
                           {"sanitizers", info.sanitizers},
                           {"cuda_built", info.cudaBuilt},
                           {"cuda_architectures", info.cudaArchitectures},
                           {"rdma_built", info.rdmaBuilt}};
        std::cout << out.dump(2) << '\n';
        return kExitOk;
    }
    std::cout << fmt::format("sonolink-cli {} (git {}, {}, {}{})\n", info.version, info.gitHash, info.buildType, info.compiler,
                             info.sanitizers.empty() ? "" : ", sanitizers: " + info.sanitizers);
    std::cout << fmt::format("  CUDA beamformer module: {}\n",
                             info.cudaBuilt ? "built (architectures " + info.cudaArchitectures + ")" : "not built (no nvcc at configure time)");
    std::cout << fmt::format("  RDMA verbs backend:     {}\n", info.rdmaBuilt ? "built (rdma-core)" : "not built (no libibverbs-dev at configure time)");
    return kExitOk;
}

}  // namespace sonolink::cli
