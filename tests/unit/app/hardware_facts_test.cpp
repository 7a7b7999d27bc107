// The sysfs facts the hardware diagnostics read, from a tree laid out as sysfs is: an RDMA
// device's NUMA node, and the PTP clocks with their names (their offsets need phc_ctl and a
// real clock: without the clock's /dev node the offset is not measured, and the step says why).
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "sonolink/app/hardware_facts.h"

namespace sonolink::app {
namespace {

namespace fs = std::filesystem;

TEST(HardwareFactsTest, NumaNodesAndPtpClocksAreReadFromSysfs) {
    const auto root = fs::temp_directory_path() / ("sonolink_sysfs_" + std::to_string(::getpid()));
    fs::create_directories(root / "class/infiniband/mlx5_0/device");
    std::ofstream(root / "class/infiniband/mlx5_0/device/numa_node") << "1\n";
    fs::create_directories(root / "class/ptp/ptp7");
    std::ofstream(root / "class/ptp/ptp7/clock_name") << "mlx5_ptp\n";
    selftest::HardwareFacts facts;
    facts.rdmaPorts.resize(2);
    facts.rdmaPorts[0].device = "mlx5_0";
    facts.rdmaPorts[1].device = "rxe0";
    readSysfsFacts(root, facts);
    EXPECT_EQ(facts.rdmaPorts[0].numaNode, 1);
    EXPECT_EQ(facts.rdmaPorts[1].numaNode, -1) << "no numa_node file: not known";
    ASSERT_EQ(facts.ptpClocks.size(), 1u);
    EXPECT_EQ(facts.ptpClocks[0].device, "/dev/ptp7");
    EXPECT_EQ(facts.ptpClocks[0].name, "mlx5_ptp");
    EXPECT_FALSE(facts.ptpClocks[0].offsetNs) << "no such clock on this station";
    EXPECT_FALSE(facts.ptpClocks[0].why.empty());
    EXPECT_EQ(selftest::checkPtp(facts).verdict, selftest::DiagnosticVerdict::Warn);
    fs::remove_all(root);

    selftest::HardwareFacts none;
    readSysfsFacts(root, none);  // the tree gone: nothing found, nothing thrown
    EXPECT_TRUE(none.ptpClocks.empty());
}

}  // namespace
}  // namespace sonolink::app
