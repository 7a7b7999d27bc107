// The verbs link and the verbs front-end port against each other on a real RDMA device
// (Soft-RoCE in the CI guest: RDMA_DEV / RDMA_IP from tests/rdma/softroce_vm.sh). Without a
// device every test but the memlock check skips, saying why.
#include <linux/capability.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <array>
#include <cstdlib>
#include <cstring>
#include <thread>

#include <gtest/gtest.h>

#include "sonolink/transport/host_handshake.h"
#include "sonolink/util/crc32c.h"
#include "sonolink/transport/rdma/verbs_front_end_port.h"
#include "sonolink/transport/rdma/rdma_devices.h"
#include "sonolink/transport/rdma/verbs_link.h"

namespace sonolink::transport::rdma {
namespace {

const char* rdmaIp() { return std::getenv("RDMA_IP"); }

#define REQUIRE_RDMA_DEVICE()                                                               \
    if (!rdmaIp()) {                                                                        \
        GTEST_SKIP() << "no RDMA device here (RDMA_IP unset): runs in the Soft-RoCE guest"; \
    }

int nextPort() {
    static int port = 20000;
    return ++port;
}

// A host link and a front-end port connected to it, handshake done, ring advertised.
struct Pair {
    std::unique_ptr<VerbsLink> host;
    std::unique_ptr<VerbsFrontEndPort> frontEnd;
    RingAdvert advert;
};

Pair connectPair(std::uint32_t slotBytes = 16384, std::uint32_t slots = 16) {
    Pair pair;
    const int port = nextPort();
    auto host = VerbsLink::create({rdmaIp(), port, slotBytes, slots, false, std::chrono::milliseconds(2000)});
    EXPECT_TRUE(host) << host.error().describe();
    if (!host) return pair;
    pair.host = std::move(*host);
    Result<std::unique_ptr<VerbsFrontEndPort>> frontEnd = fail(ErrorCode::Internal, "not run");
    std::thread connector([&] {
        frontEnd = VerbsFrontEndPort::connect({rdmaIp(), port, std::chrono::milliseconds(5000), 64});
        if (frontEnd) {
            Hello hello;
            hello.role = Role::FrontEnd;
            EXPECT_TRUE((*frontEnd)->sendControl(hello));
        }
    });
    auto info = pair.host->accept(std::chrono::milliseconds(10000));
    connector.join();
    EXPECT_TRUE(info) << info.error().describe();
    EXPECT_TRUE(frontEnd) << frontEnd.error().describe();
    if (!info || !frontEnd) return pair;
    pair.frontEnd = std::move(*frontEnd);
    EXPECT_EQ(info->backend, "verbs");
    EXPECT_EQ(info->protocolVersion, kProtocolVersion);
    EXPECT_TRUE(pair.host->advertiseRing());
    for (int i = 0; i < 20; ++i) {
        auto message = pair.frontEnd->receiveControl(std::chrono::milliseconds(100));
        EXPECT_TRUE(message);
        if (message && *message && std::holds_alternative<RingAdvert>(**message)) {
            pair.advert = std::get<RingAdvert>(**message);
            break;
        }
    }
    EXPECT_EQ(pair.advert.slotCount, slots);
    return pair;
}

// CAP_IPC_LOCK taken out of this process's effective capabilities while it lives (root keeps it
// permitted, so it comes back): the memlock limit applies to it as to any station user.
class WithoutIpcLock {
public:
    WithoutIpcLock() {
        if (syscall(SYS_capget, &header_, data_) != 0) return;
        had_ = (data_[0].effective >> CAP_IPC_LOCK) & 1u;
        data_[0].effective &= ~(1u << CAP_IPC_LOCK);
        if (had_) had_ = syscall(SYS_capset, &header_, data_) == 0;
    }
    ~WithoutIpcLock() {
        if (!had_) return;
        data_[0].effective |= 1u << CAP_IPC_LOCK;
        (void)syscall(SYS_capset, &header_, data_);
    }
    WithoutIpcLock(const WithoutIpcLock&) = delete;
    WithoutIpcLock& operator=(const WithoutIpcLock&) = delete;

private:
    __user_cap_header_struct header_{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct data_[2]{};
    bool had_ = false;
};

TEST(VerbsLinkTest, MemlockLimitIsCheckedWithTheFix) {
    rlimit saved{};
    getrlimit(RLIMIT_MEMLOCK, &saved);
    rlimit low{64 * 1024, saved.rlim_max};
    ASSERT_EQ(setrlimit(RLIMIT_MEMLOCK, &low), 0);
    Result<std::unique_ptr<VerbsLink>> link = fail(ErrorCode::Internal, "not made");
    MemlockStatus capable;
    {
        WithoutIpcLock dropped;
        link = VerbsLink::create({"127.0.0.1", nextPort(), 1 << 20, 64, false, std::chrono::milliseconds(1000)});
    }
    capable = checkMemlock(64u << 20);  // CAP_IPC_LOCK back (root): the limit does not bind it
    const bool root = geteuid() == 0;
    setrlimit(RLIMIT_MEMLOCK, &saved);
    ASSERT_FALSE(link);
    EXPECT_EQ(link.error().code(), ErrorCode::FailedPrecondition);
    EXPECT_NE(link.error().message().find("ulimit -l"), std::string::npos) << link.error().message();
    if (root) {
        EXPECT_TRUE(capable.capIpcLock);
        EXPECT_TRUE(capable.sufficient);
    }
}

TEST(VerbsLinkTest, WrongAddressSaysWhatToCheck) {
    REQUIRE_RDMA_DEVICE();
    auto link = VerbsLink::create({"192.0.2.77", nextPort(), 16384, 16, false, std::chrono::milliseconds(1000)});
    ASSERT_FALSE(link);
    EXPECT_NE(link.error().message().find("rdma link show"), std::string::npos) << link.error().message();
}

TEST(VerbsLinkTest, ControlMessagesBothWays) {
    REQUIRE_RDMA_DEVICE();
    auto pair = connectPair();
    ASSERT_TRUE(pair.frontEnd);
    for (std::uint32_t i = 0; i < 200; ++i) {  // more than the posted receive buffers
        ASSERT_TRUE(pair.frontEnd->sendControl(Trigger{0, i, 1000 + i}));
        auto message = pair.host->receiveControl(std::chrono::milliseconds(1000));
        ASSERT_TRUE(message) << message.error().describe();
        ASSERT_TRUE(*message);
        EXPECT_EQ(std::get<Trigger>(**message).shotId, i);
        ASSERT_TRUE(pair.host->returnCredits(i));
        auto credit = pair.frontEnd->receiveControl(std::chrono::milliseconds(1000));
        ASSERT_TRUE(credit);
        ASSERT_TRUE(*credit);
        EXPECT_EQ(std::get<CreditReturn>(**credit).freedThrough, i);
    }
}

TEST(VerbsLinkTest, WriteWithImmediateLandsInTheRingInBatches) {
    REQUIRE_RDMA_DEVICE();
    auto pair = connectPair();
    ASSERT_TRUE(pair.frontEnd);
    std::vector<std::byte> payload(8000);
    for (std::size_t i = 0; i < payload.size(); ++i) payload[i] = static_cast<std::byte>(i * 7);
    ASSERT_TRUE(pair.frontEnd->registerPayloadMemory(payload));
    std::array<std::byte, 64> header{};
    for (std::uint32_t k = 0; k < 12; ++k) {
        header[0] = static_cast<std::byte>(k);
        NicWrite write{pair.advert.address + k * pair.advert.slotBytes, pair.advert.rkey, header, payload, 0xABC000 + k, {}, false, true};
        ASSERT_TRUE(pair.frontEnd->postWrite(write));
        if (k % 4 == 3) {
            ASSERT_TRUE(pair.frontEnd->ringDoorbell());  // batches of 4
        }
    }
    std::array<Completion, 16> completions{};
    std::size_t got = 0;
    for (int tries = 0; tries < 100 && got < 12; ++tries) {
        got += pair.host->pollCompletions(std::span(completions).subspan(got), std::chrono::milliseconds(50));
    }
    ASSERT_EQ(got, 12u);
    const auto ring = pair.host->ring();
    for (std::uint32_t k = 0; k < 12; ++k) {
        EXPECT_EQ(completions[k].immediate, 0xABC000 + k);
        EXPECT_EQ(completions[k].byteCount, 64u + 8000u);
        EXPECT_EQ(completions[k].status, CompletionStatus::Ok);
        const auto slot = ring.slot(k);
        EXPECT_EQ(slot[0], static_cast<std::byte>(k));
        EXPECT_EQ(std::memcmp(slot.data() + 64, payload.data(), payload.size()), 0);
    }
}

void expectRejectedWrite(std::uint64_t addressOffset, std::uint32_t rkeyXor) {
    auto pair = connectPair();
    ASSERT_TRUE(pair.frontEnd);
    std::vector<std::byte> payload(4096, std::byte{1});
    ASSERT_TRUE(pair.frontEnd->registerPayloadMemory(payload));
    std::array<std::byte, 64> header{};
    NicWrite write{pair.advert.address + addressOffset, pair.advert.rkey ^ rkeyXor, header, payload, 1, {}, false, true};
    ASSERT_TRUE(pair.frontEnd->postWrite(write));
    auto posted = pair.frontEnd->ringDoorbell();
    // The front end learns it from its send completion...
    Status frontEndSaw = posted;
    for (int i = 0; i < 50 && frontEndSaw; ++i) {
        auto message = pair.frontEnd->receiveControl(std::chrono::milliseconds(20));
        if (!message) frontEndSaw = fail(std::move(message.error()));
    }
    ASSERT_FALSE(frontEndSaw);
    EXPECT_NE(frontEndSaw.error().message().find("the host rejected a block write"), std::string::npos) << frontEndSaw.error().describe();
    // ...and the host from its data queue pair going into error.
    std::array<Completion, 4> completions{};
    std::size_t got = 0;
    for (int i = 0; i < 20; ++i) got += pair.host->pollCompletions(completions, std::chrono::milliseconds(20));
    EXPECT_EQ(got, 0u);
    auto hostSaw = pair.host->receiveControl(std::chrono::milliseconds(100));
    ASSERT_FALSE(hostSaw);
    EXPECT_EQ(hostSaw.error().code(), ErrorCode::Unavailable);
    EXPECT_NE(hostSaw.error().message().find("data connection failed"), std::string::npos) << hostSaw.error().describe();
}

TEST(VerbsLinkTest, WrongRkeyFailsOnBothSides) {
    REQUIRE_RDMA_DEVICE();
    expectRejectedWrite(0, 0x5A5A);
}

TEST(VerbsLinkTest, WriteBeyondTheRegisteredRingFailsOnBothSides) {
    REQUIRE_RDMA_DEVICE();
    expectRejectedWrite(16ull * 16384 - 1000, 0);  // the last 1000 bytes are not enough
}

TEST(VerbsLinkTest, PeerThatLeavesIsReportedAndTheLinkListensAgain) {
    REQUIRE_RDMA_DEVICE();
    auto pair = connectPair();
    ASSERT_TRUE(pair.frontEnd);
    pair.frontEnd.reset();  // disconnects
    Status seen;
    for (int i = 0; i < 100 && seen; ++i) {
        auto message = pair.host->receiveControl(std::chrono::milliseconds(20));
        if (!message) seen = fail(std::move(message.error()));
    }
    ASSERT_FALSE(seen);
    EXPECT_NE(seen.error().message().find("disconnected"), std::string::npos) << seen.error().describe();
    ASSERT_TRUE(pair.host->reset());
}

TEST(VerbsLinkTest, CreateAndDestroyRepeatedly) {
    REQUIRE_RDMA_DEVICE();
    for (int i = 0; i < 10; ++i) {
        auto pair = connectPair(4096, 8);
        ASSERT_TRUE(pair.frontEnd);
    }
}

}  // namespace
}  // namespace sonolink::transport::rdma
