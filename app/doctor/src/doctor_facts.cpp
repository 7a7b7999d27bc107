// The doctor's facts, read from this process and station: /dev/infiniband and the group
// database, Qt's xcb plugin (dlopen), the display's socket, fontconfig (fc-list), adjtimex.
#include <dlfcn.h>
#include <fcntl.h>
#include <grp.h>
#include <netdb.h>
#include <sys/socket.h>
#include <sys/timex.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <set>

#include <fmt/format.h>

#include "sonolink/doctor/station_doctor.h"

namespace sonolink::doctor {
namespace {

std::string env(const char* name) {
    const char* value = std::getenv(name);
    return value ? value : "";
}

// Connects a stream socket to addr; "" when it connects, else why not.
std::string connectTo(const sockaddr* addr, socklen_t length, int family) {
    const int fd = ::socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return std::strerror(errno);
    timeval timeout{2, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
    const int rc = ::connect(fd, addr, length);
    const int e = errno;
    ::close(fd);
    return rc == 0 ? "" : std::strerror(e);
}

std::string connectUnix(const std::string& path, bool abstract) {
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (path.size() + 1 >= sizeof addr.sun_path) return "the socket's path is too long";
    std::memcpy(addr.sun_path + (abstract ? 1 : 0), path.data(), path.size());
    const auto length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + path.size() + (abstract ? 1 : 0));
    return connectTo(reinterpret_cast<const sockaddr*>(&addr), length, AF_UNIX);
}

// An X11 display name: [host]:number[.screen]. Local: its socket (abstract first, as Xlib);
// a host: TCP port 6000 + number.
std::string connectX11(const std::string& display) {
    const auto colon = display.rfind(':');
    if (colon == std::string::npos) return fmt::format("'{}' is not a display name (host:number)", display);
    const auto host = display.substr(0, colon);
    const auto number = std::atoi(display.c_str() + colon + 1);
    if (host.empty() || host == "unix") {
        const auto socket = fmt::format("/tmp/.X11-unix/X{}", number);
        if (connectUnix(socket, true).empty()) return "";
        const auto why = connectUnix(socket, false);
        return why.empty() ? "" : fmt::format("{}: {}", socket, why);
    }
    addrinfo hints{};
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    if (const int rc = ::getaddrinfo(host.c_str(), std::to_string(6000 + number).c_str(), &hints, &found); rc != 0) return ::gai_strerror(rc);
    std::string why = "no address";
    for (auto* a = found; a != nullptr && !why.empty(); a = a->ai_next) why = connectTo(a->ai_addr, a->ai_addrlen, a->ai_family);
    ::freeaddrinfo(found);
    return why.empty() ? "" : fmt::format("{} port {}: {}", host, 6000 + number, why);
}

}  // namespace

RdmaAccessFacts readRdmaAccess(bool verbsLink, const selftest::HardwareFacts& hardware) {
    RdmaAccessFacts facts;
    facts.verbsLink = verbsLink;
    facts.rdmaBuilt = hardware.rdmaBuilt;
    std::set<std::string> devices;
    for (const auto& p : hardware.rdmaPorts) devices.insert(p.device);
    facts.devices.assign(devices.begin(), devices.end());
    std::error_code ec;
    // The nodes the link opens: the verbs devices and the connection manager. Never issm*: opening
    // one tells the subnet manager that an SM runs here.
    for (const auto& entry : std::filesystem::directory_iterator("/dev/infiniband", ec)) {
        const auto name = entry.path().filename().string();
        if (!name.starts_with("uverbs") && name != "rdma_cm") continue;
        DeviceNodeFacts node{entry.path().string(), {}};
        const int fd = ::open(node.path.c_str(), O_RDWR | O_CLOEXEC);
        if (fd < 0) node.openError = std::strerror(errno);
        else ::close(fd);
        facts.nodes.push_back(std::move(node));
    }
    std::sort(facts.nodes.begin(), facts.nodes.end(), [](const auto& a, const auto& b) { return a.path < b.path; });
    if (const group* g = ::getgrnam(kRdmaGroup)) {
        facts.groupExists = true;
        std::array<gid_t, 256> groups{};
        const int n = ::getgroups(static_cast<int>(groups.size()), groups.data());
        facts.inGroup = ::getegid() == g->gr_gid || std::find(groups.begin(), groups.begin() + std::max(n, 0), g->gr_gid) != groups.begin() + std::max(n, 0);
    }
    return facts;
}

QtPluginFacts readQtPlugin() {
    QtPluginFacts facts;
    // Qt looks in QT_QPA_PLATFORM_PLUGIN_PATH first, then its own plugins folder.
    const auto overridden = env("QT_QPA_PLATFORM_PLUGIN_PATH");
    const std::filesystem::path folder = overridden.empty() ? std::filesystem::path(SONOLINK_QT_PLUGIN_DIR) / "platforms" : std::filesystem::path(overridden);
    facts.pluginPath = (folder / "libqxcb.so").string();
    std::error_code ec;
    facts.present = std::filesystem::is_regular_file(facts.pluginPath, ec);
    if (!facts.present) return facts;
    // RTLD_NOW: every library and symbol it needs resolved now, as when Qt loads it.
    if (void* handle = ::dlopen(facts.pluginPath.c_str(), RTLD_NOW | RTLD_LOCAL)) {
        ::dlclose(handle);
    } else {
        const char* why = ::dlerror();
        facts.loadError = why ? why : "dlopen failed";
    }
    return facts;
}

DisplayFacts readDisplay() {
    DisplayFacts facts{env("DISPLAY"), env("WAYLAND_DISPLAY"), {}};
    if (!facts.x11Display.empty()) {
        facts.connectError = connectX11(facts.x11Display);
    } else if (!facts.waylandDisplay.empty()) {
        const auto runtime = env("XDG_RUNTIME_DIR");
        const auto path = facts.waylandDisplay.front() == '/' ? facts.waylandDisplay : runtime + "/" + facts.waylandDisplay;
        if (facts.waylandDisplay.front() != '/' && runtime.empty()) facts.connectError = "XDG_RUNTIME_DIR is not set";
        else if (const auto why = connectUnix(path, false); !why.empty()) facts.connectError = fmt::format("{}: {}", path, why);
    }
    return facts;
}

FontFacts readFonts() {
    FontFacts facts;
    FILE* pipe = ::popen("fc-list :lang=zh family 2>&1", "r");
    if (pipe == nullptr) {
        facts.listError = std::strerror(errno);
        return facts;
    }
    std::string text;
    std::array<char, 4096> buffer{};
    while (const auto n = std::fread(buffer.data(), 1, buffer.size(), pipe)) text.append(buffer.data(), n);
    const int status = ::pclose(pipe);
    if (status != 0) {
        facts.listError = status == 127 * 256 ? "fc-list not found (fontconfig is not installed)" : fmt::format("fc-list: {}", text.substr(0, 200));
        return facts;
    }
    facts.listed = true;
    std::set<std::string> families;
    for (std::size_t start = 0; start < text.size();) {
        auto end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        auto line = text.substr(start, end - start);
        if (const auto comma = line.find(','); comma != std::string::npos) line.resize(comma);  // its first name
        if (!line.empty()) families.insert(line);
        start = end + 1;
    }
    facts.chineseFamilies.assign(families.begin(), families.end());
    return facts;
}

ClockFacts readClock() {
    ClockFacts facts;
    timex tx{};
    const int state = ::adjtimex(&tx);  // modes 0: read only
    if (state < 0) {
        facts.readError = std::strerror(errno);
        return facts;
    }
    facts.readable = true;
    facts.synchronised = state != TIME_ERROR && (tx.status & STA_UNSYNC) == 0;
    facts.maxErrorUs = static_cast<double>(tx.maxerror);
    return facts;
}

}  // namespace sonolink::doctor
