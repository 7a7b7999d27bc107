#include "sonolink/app/hardware_probe.h"

#include <fmt/format.h>

#if SONOLINK_HAVE_CUDA
#include "sonolink/beamform/cuda/gpu_probe.h"
#endif
#if SONOLINK_HAVE_RDMA
#include "sonolink/transport/rdma/rdma_devices.h"
#endif

namespace sonolink::app {
namespace {

void probeGpus([[maybe_unused]] HardwareReport& report) {
#if SONOLINK_HAVE_CUDA
    report.cudaBuilt = true;
    auto status = beamform::cuda::probeCuda();
    if (!status) {
        report.cudaStatus = status.error().message();
        return;
    }
    for (const auto& gpu : status->devices) {
        report.gpus.push_back({gpu.name, fmt::format("{}.{}", gpu.computeMajor, gpu.computeMinor),
                               static_cast<double>(gpu.memoryBytes) / (1024.0 * 1024.0 * 1024.0), gpu.eccEnabled});
    }
    report.cudaStatus = fmt::format("{} device{}, driver {}.{}", report.gpus.size(), report.gpus.size() == 1 ? "" : "s", status->driverVersion / 1000,
                                    status->driverVersion % 1000 / 10);
#else
    report.cudaStatus = "not built (nvcc was not found at configure time)";
#endif
}

void probeRdma([[maybe_unused]] HardwareReport& report) {
#if SONOLINK_HAVE_RDMA
    report.rdmaBuilt = true;
    auto devices = transport::rdma::listRdmaDevices();
    if (!devices) {
        report.rdmaStatus = devices.error().message();
        return;
    }
    if (devices->empty()) {
        report.rdmaStatus = "no RDMA device (no NIC and no rdma_rxe; the simulated link still works)";
        return;
    }
    for (const auto& device : *devices) {
        for (const auto& port : device.ports) {
            report.rdmaPorts.push_back({device.name, port.portNumber, port.state, port.activeMtuBytes, port.linkLayer, port.rate, port.gids, port.counters});
        }
    }
    report.rdmaStatus = fmt::format("{} device{}", devices->size(), devices->size() == 1 ? "" : "s");
#else
    report.rdmaStatus = "not built (libibverbs-dev/librdmacm-dev were not found at configure time)";
#endif
}

}  // namespace

HardwareReport probeHardware() {
    HardwareReport report;
    probeGpus(report);
    probeRdma(report);
    return report;
}

}  // namespace sonolink::app
