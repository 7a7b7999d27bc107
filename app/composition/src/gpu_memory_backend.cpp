#include "gpu_memory_backend.h"

#include <fmt/format.h>

#include "sonolink/app/hardware_probe.h"
#include "sonolink/selftest/cuda/gpu_memory_test.h"

namespace sonolink::app {

std::function<std::vector<engine::GpuMemoryOutcome>()> gpuMemoryTest(std::size_t bytes) {
    return [bytes] {
        std::vector<engine::GpuMemoryOutcome> outcomes;
        const auto hardware = probeHardware();
        for (std::size_t device = 0; device < hardware.gpus.size(); ++device) {
            engine::GpuMemoryOutcome o;
            o.gpu = fmt::format("GPU {} ({})", device, hardware.gpus[device].name);
            auto tester = selftest::cuda::GpuMemoryTester::create({static_cast<int>(device), bytes, std::nullopt});
            if (!tester) {
                o.error = tester.error().message();
            } else if (auto r = (*tester)->run(selftest::MemoryAlgorithm::MarchCMinus); !r) {
                o.error = r.error().message();
            } else {
                o.result = std::move(*r);
            }
            outcomes.push_back(std::move(o));
        }
        return outcomes;
    };
}

}  // namespace sonolink::app
