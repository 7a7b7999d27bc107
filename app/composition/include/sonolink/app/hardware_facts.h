// The station's hardware as the self-test's diagnostics read it (selftest/hardware_diagnostics.h):
// the GPUs and RDMA ports of probeHardware(), each RDMA device's NUMA node from sysfs, and every
// PTP clock (/sys/class/ptp) with its offset from the system clock by linuxptp's phc_ctl where
// it is installed. sysRoot: "/sys", or a test's tree laid out as sysfs.
// Thread contract: thread-safe; may take ~100 ms (driver start-up) and one phc_ctl per clock.
#pragma once

#include <filesystem>

#include "sonolink/selftest/hardware_diagnostics.h"

namespace sonolink::app {

[[nodiscard]] selftest::HardwareFacts readHardwareFacts();
// The NUMA nodes and PTP clocks under sysRoot added to facts (phc_ctl run on each clock's /dev node when found).
void readSysfsFacts(const std::filesystem::path& sysRoot, selftest::HardwareFacts& facts);

}  // namespace sonolink::app
