// The doctor's own checks as pure functions of the facts (doctor_checks.h).
#include "sonolink/doctor/doctor_checks.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace sonolink::doctor {
namespace {

using selftest::makeDiagnostic;

std::string groupFix(const RdmaAccessFacts& facts) {
    if (!facts.groupExists) {
        return fmt::format(
            "the group '{}' is missing: `sudo apt install --reinstall sonolink` creates it, then `sudo adduser $USER {}` "
            "and log in again",
            kRdmaGroup, kRdmaGroup);
    }
    if (!facts.inGroup) {
        return fmt::format(
            "`sudo adduser $USER {}`, then log out and in again (the package's udev rule gives the group "
            "/dev/infiniband; `sudo udevadm trigger --subsystem-match=infiniband_verbs` applies it without a reboot)",
            kRdmaGroup);
    }
    return "the device nodes are not the group's yet: `sudo udevadm trigger --subsystem-match=infiniband_verbs`, or reboot";
}

}  // namespace

Diagnostic checkRdmaAccess(const RdmaAccessFacts& facts) {
    const std::string check = "RDMA device and permissions";
    const std::string limit = facts.verbsLink ? "an RDMA device whose /dev/infiniband nodes this user can open" : "none needed (the link is simulated)";
    std::vector<std::string> refused;
    for (const auto& n : facts.nodes) {
        if (!n.openError.empty()) refused.push_back(fmt::format("{}: {}", n.path, n.openError));
    }
    const auto devices = facts.devices.empty() ? std::string("no RDMA device") : fmt::format("RDMA devices: {}", fmt::join(facts.devices, ", "));
    const auto group = fmt::format("group '{}': {}", kRdmaGroup, !facts.groupExists ? "missing" : facts.inGroup ? "a member" : "not a member");
    if (!facts.rdmaBuilt) {
        return makeDiagnostic(check, facts.verbsLink ? DiagnosticVerdict::Fail : DiagnosticVerdict::Pass, "this build has no RDMA (rdma-core was not found)",
                              limit,
                              "the configuration asks for a verbs link: use a build with rdma-core (libibverbs-dev, librdmacm-dev), or link.backend \"sim\"");
    }
    if (facts.devices.empty()) {
        return makeDiagnostic(check, facts.verbsLink ? DiagnosticVerdict::Fail : DiagnosticVerdict::Pass, devices, limit,
                              "load the NIC's driver (for a ConnectX: `sudo modprobe mlx5_ib`), or for Soft-RoCE `sudo rdma link add rxe0 type rxe "
                              "netdev <interface>`; `sonolink-cli probe` lists what the station has");
    }
    if (!refused.empty()) {
        return makeDiagnostic(check, facts.verbsLink ? DiagnosticVerdict::Fail : DiagnosticVerdict::Warn,
                              fmt::format("{}; cannot open {}; {}", devices, fmt::join(refused, "; "), group), limit, groupFix(facts));
    }
    return makeDiagnostic(check, DiagnosticVerdict::Pass, fmt::format("{}; {} device nodes open; {}", devices, facts.nodes.size(), group), limit);
}

Diagnostic checkQtPlatformPlugin(const QtPluginFacts& facts) {
    const std::string check = "Qt platform plugin";
    const std::string limit = "Qt's xcb platform plugin present, and every library it needs";
    if (!facts.present) {
        return makeDiagnostic(check, DiagnosticVerdict::Fail, fmt::format("{} is missing", facts.pluginPath), limit,
                              "`sudo apt install --reinstall libqt6gui6` (it ships the xcb plugin)");
    }
    if (!facts.loadError.empty()) {
        return makeDiagnostic(check, DiagnosticVerdict::Fail, fmt::format("{} does not load: {}", facts.pluginPath, facts.loadError), limit,
                              "install the library the error names (`apt-file search <library>` tells its package), or "
                              "`sudo apt install --reinstall libqt6gui6`");
    }
    return makeDiagnostic(check, DiagnosticVerdict::Pass, fmt::format("{} loads", facts.pluginPath), limit);
}

Diagnostic checkDisplay(const DisplayFacts& facts) {
    const std::string check = "display";
    const std::string limit = "a display for the console ($DISPLAY or $WAYLAND_DISPLAY) that answers";
    if (facts.x11Display.empty() && facts.waylandDisplay.empty()) {
        return makeDiagnostic(check, DiagnosticVerdict::Warn, "no display ($DISPLAY and $WAYLAND_DISPLAY are not set)", limit,
                              "the console (`sonolink`) needs one: run it from the desktop session, or on a virtual display with "
                              "`xvfb-run -a sonolink`; `sonolink-cli` and its headless demo need none");
    }
    const auto named = !facts.x11Display.empty() ? fmt::format("DISPLAY={}", facts.x11Display) : fmt::format("WAYLAND_DISPLAY={}", facts.waylandDisplay);
    if (!facts.connectError.empty()) {
        return makeDiagnostic(check, DiagnosticVerdict::Fail, fmt::format("{} does not answer: {}", named, facts.connectError), limit,
                              "start the display server (log in to the desktop), or `unset DISPLAY WAYLAND_DISPLAY` for the headless tools");
    }
    return makeDiagnostic(check, DiagnosticVerdict::Pass, fmt::format("{} answers", named), limit);
}

Diagnostic checkChineseFonts(const FontFacts& facts) {
    const std::string check = "fonts for Chinese";
    const std::string limit = "a font that covers Chinese (zh), for the console in Chinese";
    if (!facts.listed) {
        return makeDiagnostic(check, DiagnosticVerdict::Warn, fmt::format("fontconfig could not be asked: {}", facts.listError), limit,
                              "`sudo apt install fontconfig fonts-noto-cjk`");
    }
    if (facts.chineseFamilies.empty()) {
        return makeDiagnostic(check, DiagnosticVerdict::Warn, "no font covers Chinese: the console's Chinese text would show as boxes", limit,
                              "`sudo apt install fonts-noto-cjk` (or fonts-wqy-microhei)");
    }
    const auto shown = std::vector<std::string>(facts.chineseFamilies.begin(),
                                                facts.chineseFamilies.begin() + static_cast<long>(std::min<std::size_t>(3, facts.chineseFamilies.size())));
    return makeDiagnostic(check, DiagnosticVerdict::Pass, fmt::format("{} families, e.g. {}", facts.chineseFamilies.size(), fmt::join(shown, ", ")), limit);
}

Diagnostic checkConfiguration(const std::string& path, const std::vector<std::string>& problems) {
    const std::string check = "configuration";
    const auto which = path.empty() ? std::string("no file: the built-in defaults") : path;
    if (!problems.empty()) {
        return makeDiagnostic(check, DiagnosticVerdict::Fail, fmt::format("{}: {}", which, fmt::join(problems, "; ")), "every key valid",
                              fmt::format("correct each key named, then `sonolink-cli config check {}`", path.empty() ? "FILE" : path));
    }
    return makeDiagnostic(check, DiagnosticVerdict::Pass, fmt::format("{}: valid", which), "every key valid");
}

Diagnostic checkPacsNodes(const std::vector<PacsAnswer>& answers) {
    const std::string check = "PACS nodes";
    const std::string limit = "every configured node answers a C-ECHO";
    if (answers.empty()) {
        return makeDiagnostic(
            check, DiagnosticVerdict::Warn, "no PACS node is configured: studies cannot leave this station", limit,
            "add the hospital's PACS to dicom.nodes (or in the console: Settings…, PACS), then `sonolink-cli dicom echo --config FILE --node NAME`");
    }
    std::vector<std::string> said;
    std::size_t failed = 0;
    for (const auto& a : answers) {
        if (a.answered) {
            said.push_back(fmt::format("{} answered in {:.0f} ms", a.node, a.milliseconds));
        } else {
            said.push_back(fmt::format("{}: {}: {}", a.node, a.failureClass, a.message));
            ++failed;
        }
    }
    return makeDiagnostic(check, failed == 0 ? DiagnosticVerdict::Pass : DiagnosticVerdict::Fail,
                          fmt::format("{} of {} answered: {}", answers.size() - failed, answers.size(), fmt::join(said, "; ")), limit,
                          "studies wait in the queue until the node answers. Nothing listening: the PACS is down, or its address or port is wrong; "
                          "rejected: the PACS does not know our AE title (dicom.station_ae_title); timeout: a firewall or a busy PACS; TLS: the "
                          "certificates, or TLS asked of a plain port. Try again with `sonolink-cli dicom echo --config FILE --node NAME`");
}

Diagnostic checkTimeSync(const ClockFacts& facts, double maxErrorUs) {
    const std::string check = "time synchronised";
    const auto limit = fmt::format("the system clock synchronised (NTP or PTP), its error bound within {:.0f} ms", maxErrorUs / 1000);
    const std::string fix =
        "`sudo timedatectl set-ntp true` (systemd-timesyncd), or `sudo apt install chrony`; `timedatectl` shows the state. "
        "Study, series and frame times come from this clock";
    if (!facts.readable)
        return makeDiagnostic(check, DiagnosticVerdict::Warn, fmt::format("the clock's state could not be read: {}", facts.readError), limit, fix);
    if (!facts.synchronised) return makeDiagnostic(check, DiagnosticVerdict::Warn, "the system clock is not synchronised", limit, fix);
    if (facts.maxErrorUs > maxErrorUs) {
        return makeDiagnostic(check, DiagnosticVerdict::Warn, fmt::format("synchronised, its error bound {:.0f} ms", facts.maxErrorUs / 1000), limit, fix);
    }
    return makeDiagnostic(check, DiagnosticVerdict::Pass, fmt::format("synchronised, error bound {:.1f} ms", facts.maxErrorUs / 1000), limit);
}

}  // namespace sonolink::doctor
