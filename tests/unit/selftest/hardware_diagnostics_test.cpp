// Each hardware diagnostic with its condition present and absent: no GPU, a GPU without ECC, a
// good one; the link's RDMA port missing, down, at a small MTU, with error counts, clean; the
// NIC and the GPU on one NUMA node or two; PTP clocks absent, in step, far off, not measured.
#include <gtest/gtest.h>

#include "sonolink/selftest/hardware_diagnostics.h"

namespace sonolink::selftest {
namespace {

RdmaPortFacts port(std::string state = "ACTIVE", int mtu = 4096) {
    RdmaPortFacts p;
    p.device = "mlx5_0";
    p.state = std::move(state);
    p.activeMtuBytes = mtu;
    p.linkLayer = "Ethernet";
    p.rate = "100 Gb/sec (4X EDR)";
    p.gids = {"0 fe80:0000:0000:0000:5054:00ff:fe12:3456 RoCE v2", "1 0000:0000:0000:0000:0000:ffff:0a00:0002 RoCE v2"};  // as sysfs shows them
    p.counters = {{"port_rcv_packets", 123456}, {"symbol_error", 0}};
    p.numaNode = 0;
    return p;
}

TEST(HardwareDiagnosticsTest, TheGpuIsPresentWithEccOrSaidWhyNot) {
    HardwareFacts facts;
    facts.cudaBuilt = true;
    facts.gpuStatus = "no CUDA driver";
    auto d = checkGpu(facts);
    EXPECT_EQ(d.verdict, DiagnosticVerdict::Warn);
    EXPECT_NE(d.figures.find("no usable GPU: no CUDA driver"), std::string::npos) << d.figures;
    EXPECT_NE(d.fix.find("nvidia-smi"), std::string::npos);
    facts.gpuStatus = "1 device, driver 13.0";
    facts.gpus = {{"NVIDIA H200", false, 0}};
    d = checkGpu(facts);
    EXPECT_EQ(d.verdict, DiagnosticVerdict::Warn);
    EXPECT_NE(d.figures.find("NVIDIA H200 (ECC off)"), std::string::npos) << d.figures;
    facts.gpus[0].eccEnabled = true;
    d = checkGpu(facts);
    EXPECT_EQ(d.verdict, DiagnosticVerdict::Pass) << d.figures;
    EXPECT_NE(d.figures.find("1 device, driver 13.0: NVIDIA H200 (ECC on)"), std::string::npos) << d.figures;
}

TEST(HardwareDiagnosticsTest, TheLinksRdmaPortIsFoundByItsAddressAndHeldToItsState) {
    HardwareFacts facts;
    facts.rdmaStatus = "no RDMA device";
    auto d = checkRdmaPort(facts, "10.0.0.2");
    EXPECT_EQ(d.verdict, DiagnosticVerdict::Fail);
    EXPECT_NE(d.figures.find("no RDMA port: no RDMA device"), std::string::npos) << d.figures;
    facts.rdmaPorts = {port()};
    d = checkRdmaPort(facts, "10.0.0.9");
    EXPECT_EQ(d.verdict, DiagnosticVerdict::Fail);
    EXPECT_NE(d.figures.find("no RDMA port has 10.0.0.9 among its addresses; ports: mlx5_0 port 1 (ACTIVE)"), std::string::npos) << d.figures;
    d = checkRdmaPort(facts, "10.0.0.2");
    EXPECT_EQ(d.verdict, DiagnosticVerdict::Pass) << d.figures;
    EXPECT_EQ(d.figures, "mlx5_0 port 1: ACTIVE, Ethernet, 100 Gb/sec (4X EDR), MTU 4096; error counters at 0");
    facts.rdmaPorts = {port("DOWN")};
    d = checkRdmaPort(facts, "10.0.0.2");
    EXPECT_EQ(d.verdict, DiagnosticVerdict::Fail);
    EXPECT_NE(d.fix.find("cable"), std::string::npos);
    facts.rdmaPorts = {port("ACTIVE", 1024)};
    d = checkRdmaPort(facts, "10.0.0.2");
    EXPECT_EQ(d.verdict, DiagnosticVerdict::Warn);
    EXPECT_NE(d.fix.find("MTU to 9000"), std::string::npos);
    facts.rdmaPorts = {port()};
    facts.rdmaPorts[0].counters["symbol_error"] = 3;
    facts.rdmaPorts[0].counters["link_downed"] = 1;
    d = checkRdmaPort(facts, "10.0.0.2");
    EXPECT_EQ(d.verdict, DiagnosticVerdict::Warn);
    EXPECT_NE(d.figures.find("error counters: link_downed 1, symbol_error 3"), std::string::npos) << d.figures;
    facts.rdmaPorts = {port("DOWN"), port("active")};  // as libibverbs names the state
    facts.rdmaPorts[0].gids = {};
    EXPECT_EQ(checkRdmaPort(facts, "").verdict, DiagnosticVerdict::Pass) << "no address: the first port that is up";
    EXPECT_EQ(checkRdmaPort(facts, "10.0.0.2").verdict, DiagnosticVerdict::Pass);
}

TEST(HardwareDiagnosticsTest, TheNicAndTheGpuShareANumaNodeOrAWarningSaysNot) {
    HardwareFacts facts;
    facts.rdmaPorts = {port()};
    facts.gpus = {{"NVIDIA H200", true, 0}};
    auto d = checkNumaLocality(facts, "10.0.0.2");
    EXPECT_EQ(d.verdict, DiagnosticVerdict::Pass) << d.figures;
    EXPECT_EQ(d.figures, "mlx5_0 on node 0, NVIDIA H200 on node 0");
    facts.gpus[0].numaNode = 1;
    d = checkNumaLocality(facts, "10.0.0.2");
    EXPECT_EQ(d.verdict, DiagnosticVerdict::Warn);
    EXPECT_NE(d.fix.find("link.rx_cpu"), std::string::npos);
    EXPECT_EQ(checkNumaLocality(facts, std::nullopt).verdict, DiagnosticVerdict::Pass) << "no NIC (a simulated link): one GPU alone";
    facts.gpus[0].numaNode = -1;
    facts.rdmaPorts[0].numaNode = -1;
    d = checkNumaLocality(facts, "10.0.0.2");
    EXPECT_EQ(d.verdict, DiagnosticVerdict::Pass);
    EXPECT_NE(d.figures.find("not visible"), std::string::npos) << d.figures;
}

TEST(HardwareDiagnosticsTest, APtpClockIsHeldToTheSystemClockWhereOneIsPresent) {
    HardwareFacts facts;
    auto d = checkPtp(facts);
    EXPECT_EQ(d.verdict, DiagnosticVerdict::Pass);
    EXPECT_NE(d.figures.find("no PTP clock"), std::string::npos);
    facts.ptpClocks = {{"/dev/ptp0", "mlx5_ptp", 1200.0, {}}};
    d = checkPtp(facts);
    EXPECT_EQ(d.verdict, DiagnosticVerdict::Pass) << d.figures;
    EXPECT_EQ(d.figures, "/dev/ptp0 (mlx5_ptp): 1.2 us from the system clock");
    facts.ptpClocks[0].offsetNs = -37e9;  // TAI against UTC: phc2sys is not running
    d = checkPtp(facts);
    EXPECT_EQ(d.verdict, DiagnosticVerdict::Warn);
    EXPECT_NE(d.fix.find("phc2sys"), std::string::npos);
    facts.ptpClocks[0].offsetNs.reset();
    facts.ptpClocks[0].why = "linuxptp's phc_ctl is not installed";
    d = checkPtp(facts);
    EXPECT_EQ(d.verdict, DiagnosticVerdict::Warn);
    EXPECT_NE(d.figures.find("offset not measured (linuxptp's phc_ctl is not installed)"), std::string::npos) << d.figures;
}

TEST(HardwareDiagnosticsTest, PhcCtlsOffsetIsRead) {
    EXPECT_EQ(parsePhcCtlOffset("phc_ctl[1234.567]: offset from CLOCK_REALTIME is -37000000008ns\n"), -37000000008.0);
    EXPECT_EQ(parsePhcCtlOffset("phc_ctl[1.2]: offset from CLOCK_REALTIME is 512ns"), 512.0);
    EXPECT_FALSE(parsePhcCtlOffset("phc_ctl: cannot open /dev/ptp0: Permission denied"));
}

}  // namespace
}  // namespace sonolink::selftest
