// Station diagnostics for the start-up self-test: the workstation's set-up that acquisition
// depends on (the locked-memory limit against the DMA ring, huge pages, the CPU frequency
// governor, free disk for recordings, writable data folders), each pass, warn or fail with its
// figures, its limit and, when not pass, the fix. The checks are pure functions of the facts;
// readStationFacts() reads them from this process and station (/proc, /sys, getrlimit, statvfs).
// Thread contract: free functions, any thread.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sonolink::selftest {

enum class DiagnosticVerdict { Pass, Warn, Fail };
[[nodiscard]] std::string_view toString(DiagnosticVerdict verdict) noexcept;

struct Diagnostic {
    std::string check;  // "memlock limit"
    DiagnosticVerdict verdict = DiagnosticVerdict::Pass;
    std::string figures;
    std::string limit;
    std::string fix;  // not pass: what to do
};

// A diagnostic; the fix is kept only when the verdict is not pass.
[[nodiscard]] Diagnostic makeDiagnostic(std::string check, DiagnosticVerdict verdict, std::string figures, std::string limit, std::string fix = {});

// What the station is, as read; a test presents any station.
struct StationFacts {
    std::optional<std::uint64_t> memlockBytes;  // soft RLIMIT_MEMLOCK; nullopt: unlimited
    bool canLockWithoutLimit = false;           // CAP_IPC_LOCK in the effective set
    std::uint64_t hugePagesTotal = 0;
    std::uint64_t hugePagesFree = 0;
    std::uint64_t hugePageBytes = 0;     // 0: no huge pages in this kernel
    std::vector<std::string> governors;  // one per CPU with cpufreq; empty: not visible
};

struct FolderFacts {
    std::filesystem::path path;
    std::optional<std::uint64_t> freeBytes;  // for an unprivileged writer; nullopt: cannot stat
    std::string writeError;                  // empty: a file could be created and removed there
};

// Reads the facts of this process and station, and of the folders given (created when missing).
[[nodiscard]] StationFacts readStationFacts();
[[nodiscard]] FolderFacts readFolderFacts(const std::filesystem::path& folder);

// The DMA ring (and the completion queue and work requests beside it) must fit the locked-memory
// limit, or registering it fails: pass unlimited, with CAP_IPC_LOCK, or limit >= ring + 16 MiB.
[[nodiscard]] Diagnostic checkMemlock(const StationFacts& facts, std::uint64_t ringBytes);
// Huge pages: when the ring asks for them, enough free ones to hold it.
[[nodiscard]] Diagnostic checkHugePages(const StationFacts& facts, bool ringWantsThem, std::uint64_t ringBytes);
// Every CPU's governor "performance" (pass); another (warn: clocks that step add latency); not
// visible (pass, said: a virtual machine or a fixed clock).
[[nodiscard]] Diagnostic checkGovernor(const StationFacts& facts);
// Free disk for recordings: fail under `needed` bytes, warn under 4 x needed.
[[nodiscard]] Diagnostic checkFreeDisk(const FolderFacts& folder, std::uint64_t neededBytes, std::string_view what);
// A data folder we must write to (recordings, the DICOM queue, reports).
[[nodiscard]] Diagnostic checkWritable(const FolderFacts& folder, std::string_view what);

}  // namespace sonolink::selftest
