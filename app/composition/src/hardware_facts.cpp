#include "sonolink/app/hardware_facts.h"

#include <array>
#include <cstdio>
#include <fstream>

#include "sonolink/app/hardware_probe.h"

namespace sonolink::app {
namespace {

namespace fs = std::filesystem;

std::string firstLine(const fs::path& file) {
    std::ifstream in(file);
    std::string line;
    std::getline(in, line);
    return line;
}

// `phc_ctl DEVICE cmp`, its output.
std::optional<std::string> phcCtl(const std::string& device) {
    for (const char* tool : {"/usr/sbin/phc_ctl", "/usr/bin/phc_ctl"}) {
        if (!fs::exists(tool)) continue;
        const auto command = std::string(tool) + " " + device + " cmp 2>&1";
        std::FILE* pipe = ::popen(command.c_str(), "r");
        if (pipe == nullptr) return std::nullopt;
        std::string out;
        std::array<char, 256> chunk{};
        while (std::fgets(chunk.data(), static_cast<int>(chunk.size()), pipe) != nullptr) out += chunk.data();
        ::pclose(pipe);
        return out;
    }
    return std::nullopt;
}

}  // namespace

void readSysfsFacts(const fs::path& sysRoot, selftest::HardwareFacts& facts) {
    for (auto& port : facts.rdmaPorts) {
        const auto node = firstLine(sysRoot / "class/infiniband" / port.device / "device/numa_node");
        port.numaNode = node.empty() ? -1 : std::atoi(node.c_str());
    }
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(sysRoot / "class/ptp", ec)) {
        selftest::PtpClockFacts clock;
        clock.device = "/dev/" + entry.path().filename().string();
        clock.name = firstLine(entry.path() / "clock_name");
        if (const auto out = phcCtl(clock.device); !out) {
            clock.why = "linuxptp's phc_ctl is not installed";
        } else if (clock.offsetNs = selftest::parsePhcCtlOffset(*out); !clock.offsetNs) {
            clock.why = "phc_ctl: " + out->substr(0, out->find('\n'));
        }
        facts.ptpClocks.push_back(std::move(clock));
    }
}

selftest::HardwareFacts readHardwareFacts() {
    const auto report = probeHardware();
    selftest::HardwareFacts facts;
    facts.cudaBuilt = report.cudaBuilt;
    facts.gpuStatus = report.cudaStatus;
    for (const auto& g : report.gpus) facts.gpus.push_back({g.name, g.eccEnabled, -1});
    facts.rdmaBuilt = report.rdmaBuilt;
    facts.rdmaStatus = report.rdmaStatus;
    for (const auto& p : report.rdmaPorts)
        facts.rdmaPorts.push_back({p.device, p.port, p.state, p.activeMtuBytes, p.linkLayer, p.rate, p.gids, p.counters, -1});
    readSysfsFacts("/sys", facts);
    return facts;
}

}  // namespace sonolink::app
