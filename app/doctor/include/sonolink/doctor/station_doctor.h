// The station doctor: what a working SonoLink station needs, checked on this one, each a pass,
// warn or fail with its figures and, when not pass, what is wrong and the command that fixes
// it: the configuration, memlock, huge pages, the RDMA device, its port and permissions, the GPU
// and its driver, the CPU governor, NUMA, PTP, the Qt platform plugin and the display, fonts for
// Chinese, the data folders and free space, the PACS nodes (C-ECHO), the clock's synchronisation.
// `sonolink-cli doctor` and the console's Help menu run it. Thread contract: blocking (a C-ECHO
// per node); any thread, not the GUI's.
#pragma once

#include <string>
#include <vector>

#include "sonolink/config/config_loader.h"
#include "sonolink/doctor/doctor_checks.h"
#include "sonolink/selftest/hardware_diagnostics.h"

namespace sonolink::doctor {

struct DoctorOptions {
    std::string configFile;                         // empty: the built-in defaults
    std::vector<config::ConfigOverride> overrides;  // on top of it, as the console runs it (its kept settings)
    bool askPacs = true;                            // false: the PACS nodes are not asked (offline)
    int pacsTimeoutS = 5;                           // each C-ECHO's connect and response timeouts
};

struct DoctorReport {
    std::string configFile;
    std::vector<Diagnostic> checks;
    [[nodiscard]] bool anyFailed() const;
};

// Where a station keeps its configuration: $SONOLINK_CONFIG when set, else
// /etc/sonolink/sonolink.json when it exists (the package's), else "" (the built-in defaults).
[[nodiscard]] std::string stationConfigPath();

[[nodiscard]] DoctorReport runDoctor(const DoctorOptions& options);

// The facts of this process and station (doctor_checks.h), read.
[[nodiscard]] RdmaAccessFacts readRdmaAccess(bool verbsLink, const selftest::HardwareFacts& hardware);
[[nodiscard]] QtPluginFacts readQtPlugin();
[[nodiscard]] DisplayFacts readDisplay();
[[nodiscard]] FontFacts readFonts();
[[nodiscard]] ClockFacts readClock();

}  // namespace sonolink::doctor
