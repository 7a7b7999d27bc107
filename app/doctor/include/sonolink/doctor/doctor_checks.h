// The checks of `sonolink-cli doctor` that the start-up self-test does not already make (those
// are in selftest/station_diagnostics.h and hardware_diagnostics.h): access to the RDMA devices,
// the Qt platform plugin and the display, fonts for Chinese, the configuration, the PACS nodes,
// and the system clock's synchronisation. Each a pass, warn or fail with its figures and, when
// not pass, what is wrong and the command that fixes it. Pure functions of the facts.
// Thread contract: pure functions, any thread.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sonolink/selftest/station_diagnostics.h"

namespace sonolink::doctor {

using selftest::Diagnostic;
using selftest::DiagnosticVerdict;

// The group the package's udev rule gives /dev/infiniband to, and its limits.d file memlock.
inline constexpr const char* kRdmaGroup = "sonolink";

struct DeviceNodeFacts {
    std::string path;       // "/dev/infiniband/uverbs0"
    std::string openError;  // empty: this user may read and write it
};

struct RdmaAccessFacts {
    bool verbsLink = false;  // the configuration's link is verbs (not the simulator)
    bool rdmaBuilt = false;
    std::vector<std::string> devices;    // RDMA devices libibverbs lists
    std::vector<DeviceNodeFacts> nodes;  // /dev/infiniband/uverbs* and rdma_cm
    bool groupExists = false;
    bool inGroup = false;  // this process has the group (effective or supplementary)
};
// Verbs link: fail with no device, or when its nodes cannot be opened (the fix: the group);
// a simulated link: pass, or warn where devices exist that this user could not open.
[[nodiscard]] Diagnostic checkRdmaAccess(const RdmaAccessFacts& facts);

struct QtPluginFacts {
    std::string pluginPath;  // the xcb platform plugin Qt loads
    bool present = false;
    std::string loadError;  // empty: it loads (its libraries are all there)
};
// Fail: the console cannot start on X11.
[[nodiscard]] Diagnostic checkQtPlatformPlugin(const QtPluginFacts& facts);

struct DisplayFacts {
    std::string x11Display;      // $DISPLAY
    std::string waylandDisplay;  // $WAYLAND_DISPLAY
    std::string connectError;    // empty: a server answered at the one named
};
// No display: warn (the CLI and the headless demo run; the console does not); one named that
// does not answer: fail.
[[nodiscard]] Diagnostic checkDisplay(const DisplayFacts& facts);

struct FontFacts {
    bool listed = false;  // fontconfig could be asked
    std::string listError;
    std::vector<std::string> chineseFamilies;
};
// The console speaks Chinese: without a font that covers it, its text is boxes (warn).
[[nodiscard]] Diagnostic checkChineseFonts(const FontFacts& facts);

// The configuration file: its problems, each with its key (none: pass); path empty: the defaults.
[[nodiscard]] Diagnostic checkConfiguration(const std::string& path, const std::vector<std::string>& problems);

struct PacsAnswer {
    std::string node;  // "local-orthanc (ORTHANC at 127.0.0.1:4242)"
    bool answered = false;
    std::string failureClass;  // "nothing listening", "rejected", "timeout", "TLS", "other"
    std::string message;
    double milliseconds = 0;
};
// Every configured node answers a C-ECHO (pass); one does not (fail, its class and the fix); no
// node configured (warn: studies cannot leave the station).
[[nodiscard]] Diagnostic checkPacsNodes(const std::vector<PacsAnswer>& answers);

struct ClockFacts {
    bool readable = false;  // adjtimex answered
    std::string readError;
    bool synchronised = false;  // the kernel's clock is disciplined (STA_UNSYNC clear)
    double maxErrorUs = 0;      // the kernel's bound on its error
};
// Warn when the clock is not synchronised (study and frame times may be wrong), or its error
// bound is past maxErrorUs.
[[nodiscard]] Diagnostic checkTimeSync(const ClockFacts& facts, double maxErrorUs = 500'000);

}  // namespace sonolink::doctor
