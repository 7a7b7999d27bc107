// Station diagnostics, each with its condition present and absent: the locked-memory limit under
// and over the ring (and read back after setrlimit lowers it, as prlimit does), huge pages asked
// for and missing, governors that step, a full and a nearly full disk, a folder that cannot be
// written; every verdict but pass carries a fix.
#include "sonolink/selftest/station_diagnostics.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>

#include <gtest/gtest.h>

namespace sonolink::selftest {
namespace {

constexpr std::uint64_t kMiB = 1 << 20;

TEST(StationDiagnosticsTest, TheMemlockLimitMustHoldTheRing) {
    StationFacts facts;
    EXPECT_EQ(checkMemlock(facts, 64 * kMiB).verdict, DiagnosticVerdict::Pass) << "unlimited";
    facts.memlockBytes = 8 * kMiB;
    const auto low = checkMemlock(facts, 64 * kMiB);
    EXPECT_EQ(low.verdict, DiagnosticVerdict::Fail);
    EXPECT_NE(low.figures.find("locked memory limit 8.0 MiB"), std::string::npos) << low.figures;
    EXPECT_NE(low.limit.find(">= 80 MiB"), std::string::npos) << low.limit;
    EXPECT_NE(low.fix.find("memlock"), std::string::npos) << low.fix;
    facts.memlockBytes = 80 * kMiB;
    EXPECT_EQ(checkMemlock(facts, 64 * kMiB).verdict, DiagnosticVerdict::Pass);
    facts.memlockBytes = 8 * kMiB;
    facts.canLockWithoutLimit = true;
    const auto capable = checkMemlock(facts, 64 * kMiB);
    EXPECT_EQ(capable.verdict, DiagnosticVerdict::Pass);
    EXPECT_TRUE(capable.fix.empty());
    EXPECT_NE(capable.figures.find("CAP_IPC_LOCK"), std::string::npos) << capable.figures;
}

// What prlimit --memlock does to a process, done by the process itself: the facts read it back.
TEST(StationDiagnosticsTest, ALoweredMemlockLimitIsReadBack) {
    const auto pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        const rlimit lowered{kMiB, kMiB};
        if (::setrlimit(RLIMIT_MEMLOCK, &lowered) != 0) ::_exit(2);
        const auto facts = readStationFacts();
        if (facts.memlockBytes != kMiB) ::_exit(3);
        const auto verdict = checkMemlock(facts, 64 * kMiB).verdict;
        ::_exit(verdict == (facts.canLockWithoutLimit ? DiagnosticVerdict::Pass : DiagnosticVerdict::Fail) ? 0 : 4);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0) << "2: setrlimit failed, 3: the limit was not read back, 4: wrong verdict";
}

TEST(StationDiagnosticsTest, HugePagesAreCheckedOnlyWhenTheRingAsksForThem) {
    StationFacts facts;
    facts.hugePageBytes = 2 * kMiB;
    facts.hugePagesTotal = 64;
    facts.hugePagesFree = 10;
    EXPECT_EQ(checkHugePages(facts, false, 64 * kMiB).verdict, DiagnosticVerdict::Pass);
    const auto short_ = checkHugePages(facts, true, 64 * kMiB);
    EXPECT_EQ(short_.verdict, DiagnosticVerdict::Fail);
    EXPECT_NE(short_.limit.find(">= 32 free huge pages"), std::string::npos) << short_.limit;
    EXPECT_NE(short_.fix.find("echo 86 > /proc/sys/vm/nr_hugepages"), std::string::npos) << short_.fix;
    facts.hugePagesFree = 32;
    EXPECT_EQ(checkHugePages(facts, true, 64 * kMiB).verdict, DiagnosticVerdict::Pass);
    facts.hugePageBytes = 0;
    EXPECT_EQ(checkHugePages(facts, true, 64 * kMiB).verdict, DiagnosticVerdict::Fail);
}

TEST(StationDiagnosticsTest, AGovernorThatStepsIsAWarning) {
    StationFacts facts;
    EXPECT_EQ(checkGovernor(facts).verdict, DiagnosticVerdict::Pass) << "not visible";
    facts.governors = {"performance", "performance"};
    EXPECT_EQ(checkGovernor(facts).verdict, DiagnosticVerdict::Pass);
    facts.governors = {"performance", "powersave", "powersave"};
    const auto stepping = checkGovernor(facts);
    EXPECT_EQ(stepping.verdict, DiagnosticVerdict::Warn);
    EXPECT_EQ(stepping.figures, "1 CPUs performance, 2 CPUs powersave");
    EXPECT_NE(stepping.fix.find("cpupower"), std::string::npos);
}

TEST(StationDiagnosticsTest, FreeDiskFailsUnderWhatIsNeededAndWarnsNearIt) {
    FolderFacts folder{"/data/recordings", 100 * kMiB, {}};
    EXPECT_EQ(checkFreeDisk(folder, 1024 * kMiB, "recordings").verdict, DiagnosticVerdict::Fail);
    folder.freeBytes = 2048 * kMiB;
    EXPECT_EQ(checkFreeDisk(folder, 1024 * kMiB, "recordings").verdict, DiagnosticVerdict::Warn);
    folder.freeBytes = 8192 * kMiB;
    const auto ok = checkFreeDisk(folder, 1024 * kMiB, "recordings");
    EXPECT_EQ(ok.verdict, DiagnosticVerdict::Pass);
    EXPECT_EQ(ok.figures, "8192 MiB free in /data/recordings");
    folder.freeBytes.reset();
    EXPECT_EQ(checkFreeDisk(folder, 1024 * kMiB, "recordings").verdict, DiagnosticVerdict::Fail);
}

TEST(StationDiagnosticsTest, AFolderThatCannotBeWrittenFailsNamingItAndWhy) {
    const auto dir = std::filesystem::temp_directory_path() / ("sonolink_diag_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const auto good = readFolderFacts(dir / "recordings");
    EXPECT_EQ(checkWritable(good, "recordings").verdict, DiagnosticVerdict::Pass) << good.writeError;
    ASSERT_TRUE(good.freeBytes);
    EXPECT_GT(*good.freeBytes, 0u);
    std::ofstream(dir / "a-file") << "not a folder";
    const auto bad = readFolderFacts(dir / "a-file" / "recordings");  // under a file: cannot be created, even by root
    const auto verdict = checkWritable(bad, "recordings");
    EXPECT_EQ(verdict.verdict, DiagnosticVerdict::Fail);
    EXPECT_NE(verdict.figures.find("a-file/recordings: cannot create the folder"), std::string::npos) << verdict.figures;
    EXPECT_FALSE(verdict.fix.empty());
    EXPECT_EQ(checkFreeDisk(bad, kMiB, "recordings").verdict, DiagnosticVerdict::Fail);
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace sonolink::selftest
