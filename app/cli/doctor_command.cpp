// sonolink-cli doctor: what a working station needs, checked on this one (doctor/station_doctor.h):
// each check pass, warn or fail, with what is wrong and the command that fixes it.
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "exit_codes.h"
#include "sonolink/doctor/station_doctor.h"

namespace sonolink::cli {
namespace {

struct DoctorCommandOptions {
    std::string configFile;
    bool noPacs = false;
    int pacsTimeoutS = 5;
    bool json = false;
};

int runDoctorCommand(const DoctorCommandOptions& o) {
    doctor::DoctorOptions options;
    options.configFile = o.configFile.empty() ? doctor::stationConfigPath() : o.configFile;
    options.askPacs = !o.noPacs;
    options.pacsTimeoutS = o.pacsTimeoutS;
    const auto report = doctor::runDoctor(options);
    int counts[3] = {0, 0, 0};
    for (const auto& c : report.checks) ++counts[static_cast<int>(c.verdict)];
    if (o.json) {
        nlohmann::json out{{"config", report.configFile}, {"failed", report.anyFailed()},     {"pass", counts[0]}, {"warn", counts[1]},
                           {"fail", counts[2]},           {"checks", nlohmann::json::array()}};
        for (const auto& c : report.checks) {
            out["checks"].push_back(
                {{"check", c.check}, {"verdict", selftest::toString(c.verdict)}, {"figures", c.figures}, {"limit", c.limit}, {"fix", c.fix}});
        }
        std::cout << out.dump(2) << '\n';
    } else {
        std::cout << fmt::format("SonoLink station doctor ({})\n", report.configFile.empty() ? "built-in defaults" : report.configFile);
        for (const auto& c : report.checks) {
            std::cout << fmt::format("  {:<4}  {:<32} {}\n", selftest::toString(c.verdict), c.check, c.figures);
            if (!c.fix.empty()) std::cout << fmt::format("        {:<32} fix: {}\n", "", c.fix);
        }
        std::cout << fmt::format("{} pass, {} warn, {} fail\n", counts[0], counts[1], counts[2]);
    }
    return report.anyFailed() ? kExitFailed : kExitOk;
}

}  // namespace

void addDoctorCommand(CLI::App& app, int& exitCode) {
    auto o = std::make_shared<DoctorCommandOptions>();
    auto* cmd = app.add_subcommand("doctor",
                                   "Check what a working station needs (memlock, RDMA, GPU, display, fonts, folders, "
                                   "configuration, PACS, clock): each pass, warn or fail with the command that fixes it");
    cmd->add_option("--config", o->configFile,
                    "Configuration file (default: $SONOLINK_CONFIG, else /etc/sonolink/sonolink.json where it "
                    "exists, else the built-in defaults)");
    cmd->add_flag("--no-pacs", o->noPacs, "Do not C-ECHO the configured PACS nodes");
    cmd->add_option("--pacs-timeout", o->pacsTimeoutS, "Seconds each C-ECHO may take")->check(CLI::Range(1, 120));
    cmd->add_flag("--json", o->json, "Print JSON");
    cmd->callback([o, &exitCode] { exitCode = runDoctorCommand(*o); });
}

}  // namespace sonolink::cli
