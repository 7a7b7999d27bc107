#include <iostream>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "exit_codes.h"
#include "sonolink/app/hardware_probe.h"

namespace sonolink::cli {
namespace {

void printText(const app::HardwareReport& report) {
    std::cout << fmt::format("GPU (CUDA): {}\n", report.cudaStatus);
    for (const auto& gpu : report.gpus) {
        std::cout << fmt::format("  {}  compute {}  {:.1f} GiB  ECC {}\n", gpu.name, gpu.computeCapability, gpu.memoryGiB, gpu.eccEnabled ? "on" : "off");
    }
    std::cout << fmt::format("RDMA: {}\n", report.rdmaStatus);
    for (const auto& port : report.rdmaPorts) {
        std::cout << fmt::format("  {} port {}: {}  MTU {}  {}\n", port.device, port.port, port.state, port.activeMtuBytes, port.linkLayer);
    }
}

nlohmann::json hardwareJson(const app::HardwareReport& report) {
    nlohmann::json out{
        {"cuda_built", report.cudaBuilt}, {"cuda_status", report.cudaStatus}, {"rdma_built", report.rdmaBuilt}, {"rdma_status", report.rdmaStatus}};
    out["gpus"] = nlohmann::json::array();
    for (const auto& gpu : report.gpus) {
        out["gpus"].push_back({{"name", gpu.name}, {"compute_capability", gpu.computeCapability}, {"memory_gib", gpu.memoryGiB}, {"ecc", gpu.eccEnabled}});
    }
    out["rdma_ports"] = nlohmann::json::array();
    for (const auto& port : report.rdmaPorts) {
        out["rdma_ports"].push_back(
            {{"device", port.device}, {"port", port.port}, {"state", port.state}, {"active_mtu", port.activeMtuBytes}, {"link_layer", port.linkLayer}});
    }
    return out;
}

}  // namespace

void addProbeCommand(CLI::App& app, int& exitCode) {
    auto json = std::make_shared<bool>(false);
    auto* probe = app.add_subcommand("probe", "Show the GPUs and RDMA devices this station has, and which optional parts were built");
    probe->add_flag("--json", *json, "Print the result as JSON");
    probe->callback([json, &exitCode] {
        const auto report = app::probeHardware();
        if (*json) std::cout << hardwareJson(report).dump(2) << '\n';
        else printText(report);
        exitCode = kExitOk;  // an absent device is information, not a failure
    });
}

}  // namespace sonolink::cli
