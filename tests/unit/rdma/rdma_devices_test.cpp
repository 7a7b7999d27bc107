#include "sonolink/transport/rdma/rdma_devices.h"

#include <filesystem>

#include <gtest/gtest.h>

namespace sonolink::transport::rdma {
namespace {

// Real libibverbs on whatever this host has: no device is a valid, empty answer.
TEST(RdmaDevicesTest, ListsWhatTheKernelHas) {
    auto devices = listRdmaDevices();
    ASSERT_TRUE(devices) << devices.error().describe();
    const bool kernelHasDevices = std::filesystem::exists("/sys/class/infiniband") && !std::filesystem::is_empty("/sys/class/infiniband");
    if (!kernelHasDevices) {
        EXPECT_TRUE(devices->empty());
        GTEST_SKIP() << "no RDMA device on this host (/sys/class/infiniband is empty): "
                        "port details are checked in the Soft-RoCE guest";
    }
    ASSERT_FALSE(devices->empty());
    for (const auto& device : *devices) {
        EXPECT_FALSE(device.name.empty());
        EXPECT_EQ(device.nodeGuid.size(), 19u) << device.nodeGuid;
        if (!device.error.empty()) continue;
        ASSERT_FALSE(device.ports.empty()) << device.name;
        for (const auto& port : device.ports) {
            EXPECT_GE(port.activeMtuBytes, 256);
            EXPECT_LE(port.activeMtuBytes, 4096);
            EXPECT_FALSE(port.state.empty());
        }
    }
}

}  // namespace
}  // namespace sonolink::transport::rdma
