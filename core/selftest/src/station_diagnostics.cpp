// Station diagnostics: the checks as pure functions of the facts, and the facts read from
// getrlimit, /proc (capabilities), /proc/meminfo, /sys cpufreq and statvfs.
#include "sonolink/selftest/station_diagnostics.h"

#include <sys/resource.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sonolink/util/process_capabilities.h"

namespace sonolink::selftest {
namespace {

constexpr std::uint64_t kMiB = 1 << 20;

double mib(std::uint64_t bytes) { return static_cast<double>(bytes) / kMiB; }

}  // namespace

Diagnostic makeDiagnostic(std::string check, DiagnosticVerdict verdict, std::string figures, std::string limit, std::string fix) {
    return {std::move(check), verdict, std::move(figures), std::move(limit), verdict == DiagnosticVerdict::Pass ? std::string() : std::move(fix)};
}

std::string_view toString(DiagnosticVerdict verdict) noexcept {
    switch (verdict) {
        case DiagnosticVerdict::Pass: return "pass";
        case DiagnosticVerdict::Warn: return "warn";
        case DiagnosticVerdict::Fail: return "fail";
    }
    return "?";
}

StationFacts readStationFacts() {
    StationFacts facts;
    rlimit memlock{};
    if (::getrlimit(RLIMIT_MEMLOCK, &memlock) == 0 && memlock.rlim_cur != RLIM_INFINITY) facts.memlockBytes = memlock.rlim_cur;
    facts.canLockWithoutLimit = hasEffectiveCapability(kCapIpcLock);
    std::ifstream meminfo("/proc/meminfo");
    for (std::string key; meminfo >> key;) {
        std::uint64_t value = 0;
        meminfo >> value;
        if (key == "HugePages_Total:") facts.hugePagesTotal = value;
        if (key == "HugePages_Free:") facts.hugePagesFree = value;
        if (key == "Hugepagesize:") facts.hugePageBytes = value * 1024;  // kB
        meminfo.ignore(256, '\n');
    }
    for (long cpu = 0, n = ::sysconf(_SC_NPROCESSORS_CONF); cpu < n; ++cpu) {
        std::ifstream governor(fmt::format("/sys/devices/system/cpu/cpu{}/cpufreq/scaling_governor", cpu));
        if (std::string name; governor >> name) facts.governors.push_back(name);
    }
    return facts;
}

FolderFacts readFolderFacts(const std::filesystem::path& folder) {
    std::error_code ec;
    FolderFacts facts{std::filesystem::absolute(folder, ec), std::nullopt, {}};
    std::filesystem::create_directories(folder, ec);
    if (ec) {
        facts.writeError = fmt::format("cannot create the folder: {}", ec.message());
        return facts;
    }
    if (struct statvfs fs{}; ::statvfs(folder.c_str(), &fs) == 0) facts.freeBytes = std::uint64_t{fs.f_bavail} * fs.f_frsize;
    const auto probe = folder / fmt::format(".sonolink-write-check-{}", ::getpid());
    {
        std::ofstream file(probe, std::ios::binary);
        if (!(file << "check" << std::flush)) facts.writeError = fmt::format("cannot write a file there: {}", std::strerror(errno));
    }
    std::filesystem::remove(probe, ec);
    return facts;
}

Diagnostic checkMemlock(const StationFacts& facts, std::uint64_t ringBytes) {
    const auto needed = ringBytes + 16 * kMiB;
    const auto limit =
        fmt::format(">= {:.0f} MiB (the {:.0f} MiB ring, its queues and work requests), unlimited, or CAP_IPC_LOCK", mib(needed), mib(ringBytes));
    if (!facts.memlockBytes) return makeDiagnostic("memlock limit", DiagnosticVerdict::Pass, "locked memory: unlimited", limit);
    const auto figures =
        fmt::format("locked memory limit {:.1f} MiB{}", mib(*facts.memlockBytes), facts.canLockWithoutLimit ? " (CAP_IPC_LOCK: it does not apply)" : "");
    const bool enough = facts.canLockWithoutLimit || *facts.memlockBytes >= needed;
    return makeDiagnostic("memlock limit", enough ? DiagnosticVerdict::Pass : DiagnosticVerdict::Fail, figures, limit,
                          fmt::format("the ring cannot be registered: raise the limit to at least {:.0f} MiB. The package's "
                                      "/etc/security/limits.d/99-sonolink-memlock.conf lifts it for the sonolink group: `sudo adduser $USER "
                                      "sonolink`, then log in again (a build tree: install installer/limits.d/99-sonolink-memlock.conf there; a "
                                      "systemd unit: LimitMEMLOCK=infinity)",
                                      mib(needed)));
}

Diagnostic checkHugePages(const StationFacts& facts, bool ringWantsThem, std::uint64_t ringBytes) {
    const auto figures = fmt::format("{} huge pages of {:.0f} MiB, {} free", facts.hugePagesTotal, mib(facts.hugePageBytes), facts.hugePagesFree);
    if (!ringWantsThem)
        return makeDiagnostic("huge pages", DiagnosticVerdict::Pass, figures + "; the ring does not use them (link.huge_pages off)", "none needed");
    const auto pages = facts.hugePageBytes == 0 ? 0 : (ringBytes + facts.hugePageBytes - 1) / facts.hugePageBytes;
    const auto limit = fmt::format(">= {} free huge pages for the {:.0f} MiB ring", pages, mib(ringBytes));
    if (facts.hugePageBytes == 0) {
        return makeDiagnostic("huge pages", DiagnosticVerdict::Fail, "this kernel has no huge pages", limit,
                              "set link.huge_pages to false, or use a kernel with huge pages");
    }
    const bool enough = facts.hugePagesFree >= pages;
    return makeDiagnostic("huge pages", enough ? DiagnosticVerdict::Pass : DiagnosticVerdict::Fail, figures, limit,
                          fmt::format("reserve them: echo {} > /proc/sys/vm/nr_hugepages (vm.nr_hugepages in /etc/sysctl.d to keep it), or set "
                                      "link.huge_pages to false",
                                      facts.hugePagesTotal + pages - facts.hugePagesFree));
}

Diagnostic checkGovernor(const StationFacts& facts) {
    const auto limit = std::string("every CPU at the \"performance\" governor");
    if (facts.governors.empty()) {
        return makeDiagnostic("CPU governor", DiagnosticVerdict::Pass, "no CPU frequency scaling visible (a virtual machine, or a fixed clock)", limit);
    }
    std::map<std::string, int> counts;
    for (const auto& g : facts.governors) ++counts[g];
    std::vector<std::string> parts;
    for (const auto& [name, n] : counts) parts.push_back(fmt::format("{} CPUs {}", n, name));
    const bool all = counts.size() == 1 && counts.begin()->first == "performance";
    return makeDiagnostic("CPU governor", all ? DiagnosticVerdict::Pass : DiagnosticVerdict::Warn, fmt::format("{}", fmt::join(parts, ", ")), limit,
                          "a clock that steps down between frames adds latency: cpupower frequency-set -g performance (package "
                          "linux-cpupower), or the BIOS's performance profile");
}

Diagnostic checkFreeDisk(const FolderFacts& folder, std::uint64_t neededBytes, std::string_view what) {
    const auto check = fmt::format("free disk ({})", what);
    const auto limit = fmt::format(">= {:.0f} MiB (warn under {:.0f} MiB)", mib(neededBytes), mib(4 * neededBytes));
    if (!folder.freeBytes) {
        return makeDiagnostic(check, DiagnosticVerdict::Fail, fmt::format("cannot tell the free space of {}", folder.path.string()), limit,
                              "check that the folder exists and is on a mounted disk");
    }
    const auto free = *folder.freeBytes;
    const auto verdict = free < neededBytes ? DiagnosticVerdict::Fail : free < 4 * neededBytes ? DiagnosticVerdict::Warn : DiagnosticVerdict::Pass;
    return makeDiagnostic(check, verdict, fmt::format("{:.0f} MiB free in {}", mib(free), folder.path.string()), limit,
                          "free space there (send and delete finished recordings) or choose a folder on a larger disk");
}

Diagnostic checkWritable(const FolderFacts& folder, std::string_view what) {
    const auto check = fmt::format("writable folder ({})", what);
    if (folder.writeError.empty()) return makeDiagnostic(check, DiagnosticVerdict::Pass, fmt::format("{} is writable", folder.path.string()), "writable");
    return makeDiagnostic(check, DiagnosticVerdict::Fail, fmt::format("{}: {}", folder.path.string(), folder.writeError), "writable",
                          "give the station user write access to the folder, or choose another in the configuration");
}

}  // namespace sonolink::selftest
