// C-ECHO and C-STORE against dcmtk's storescp, started by the test on loopback and stopped by
// its PID: an echo and a store succeed and the object arrives; nothing listening, a refusing
// PACS, one that aborts during the transfer and one that stalls each fail with the node named
// and the right kind (retry or not), and a stall ends at the DIMSE timeout. The forwarder sends
// what is queued and forgets it, with its copy, once the retention has passed. The file-level use
// cases (sendFiles, exportObjects) report each file in order and audit what they did.
#include "sonolink/dicom/pacs_client.h"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <fstream>
#include <future>
#include <iterator>
#include <mutex>
#include <thread>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sonolink/dicom/file_transfer.h"
#include "sonolink/dicom/media_export.h"
#include "sonolink/dicom/store_forwarder.h"
#include "loopback_port.h"
#include "sonolink/dicom/uid_generator.h"
#include "sonolink/dicom/us_image_writer.h"

namespace sonolink::dicom {
namespace {

int freeLoopbackPort() { return sonolink::testing::closedLoopbackPort(); }

// storescp on 127.0.0.1, killed by PID when the test ends.
class StoreScp {
public:
    StoreScp(const std::filesystem::path& inbox, std::vector<std::string> faults) : port_(freeLoopbackPort()) {
        std::filesystem::create_directories(inbox);
        std::vector<std::string> args{"storescp", "-aet", "STORESCP", "-od", inbox.string()};
        args.insert(args.end(), faults.begin(), faults.end());
        args.push_back(std::to_string(port_));
        pid_ = ::fork();
        if (pid_ == 0) {
            std::vector<char*> argv;
            for (auto& a : args) argv.push_back(a.data());
            argv.push_back(nullptr);
            ::execvp("storescp", argv.data());
            ::_exit(127);
        }
    }
    ~StoreScp() {
        if (pid_ > 0) {
            ::kill(pid_, SIGTERM);
            ::waitpid(pid_, nullptr, 0);
        }
    }
    StoreScp(const StoreScp&) = delete;
    StoreScp& operator=(const StoreScp&) = delete;
    [[nodiscard]] PacsNode node() const { return {"STORESCP", "127.0.0.1", port_}; }
    // Ready once it listens (a TCP connection succeeds).
    [[nodiscard]] bool waitUntilListening() const {
        for (int i = 0; i < 100; ++i) {
            const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
            sockaddr_in address{};
            address.sin_family = AF_INET;
            address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
            address.sin_port = htons(static_cast<std::uint16_t>(port_));
            const bool up = ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
            ::close(fd);
            if (up) return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        return false;
    }

private:
    int port_;
    pid_t pid_ = -1;
};

// A peer that misbehaves on purpose, on 127.0.0.1: each connection it accepts is handed to
// behave(fd, stop) on its own thread; stopped and joined when the test ends.
class MisbehavingPeer {
public:
    using Behaviour = std::function<void(int fd, const std::atomic<bool>& stop)>;
    explicit MisbehavingPeer(Behaviour behave) : behave_(std::move(behave)) {
        listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        const int one = 1;
        ::setsockopt(listener_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        ::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof address);
        ::listen(listener_, 8);
        socklen_t length = sizeof address;
        ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length);
        port_ = ntohs(address.sin_port);
        acceptor_ = std::thread([this] {
            for (;;) {
                const int fd = ::accept(listener_, nullptr, nullptr);
                if (fd < 0 || stop_) {
                    if (fd >= 0) ::close(fd);
                    return;
                }
                connections_.emplace_back([this, fd] {
                    behave_(fd, stop_);
                    ::close(fd);
                });
            }
        });
    }
    ~MisbehavingPeer() {
        stop_ = true;
        ::shutdown(listener_, SHUT_RDWR);
        ::close(listener_);
        acceptor_.join();
        for (auto& t : connections_) t.join();
    }
    MisbehavingPeer(const MisbehavingPeer&) = delete;
    MisbehavingPeer& operator=(const MisbehavingPeer&) = delete;
    [[nodiscard]] PacsNode node() const { return {"MISBEHAVING", "127.0.0.1", port_}; }

    // Sleeps up to seconds, in short steps, unless the test ends first.
    static void idle(const std::atomic<bool>& stop, double seconds) {
        const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
        while (!stop && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }

private:
    Behaviour behave_;
    int listener_ = -1;
    int port_ = 0;
    std::atomic<bool> stop_{false};
    std::thread acceptor_;
    std::vector<std::thread> connections_;
};

class PacsClientTest : public ::testing::Test {
protected:
    std::filesystem::path dir = std::filesystem::temp_directory_path() / ("sonolink_pacs_" + std::to_string(::getpid()));
    std::string file = (dir / "us.dcm").string();
    std::string sopInstanceUid;
    void SetUp() override {
        std::filesystem::create_directories(dir);
        auto uids = UidGenerator::create(std::nullopt);
        ASSERT_TRUE(uids);
        UsImageObject o;
        o.context.patient = {"Test^Patient", "SL-1", "19800101", "F"};
        o.context.study = {uids->next(), "S1", "A1", "20261130", "120000", "", ""};
        o.context.series = {uids->next(), 1, "ABDOMEN", {}};
        o.context.sopInstanceUid = sopInstanceUid = uids->next();
        o.context.contentDate = "20261130";
        o.context.contentTime = "120001";
        o.frame.rows = 64;
        o.frame.columns = 48;
        o.frame.cmPerPixelX = o.frame.cmPerPixelY = 0.05;
        o.frame.pixels.assign(64 * 48, 100);
        ASSERT_TRUE(writeUsImage(file, o));
    }
    void TearDown() override { std::filesystem::remove_all(dir); }
};

TEST_F(PacsClientTest, EchoAndStoreReachThePacs) {
    StoreScp pacs(dir / "inbox", {});
    ASSERT_TRUE(pacs.waitUntilListening());
    ASSERT_TRUE(echo(pacs.node())) << echo(pacs.node()).error().describe();
    auto stored = store(pacs.node(), file);
    ASSERT_TRUE(stored) << stored.error().describe();
    EXPECT_EQ(stored->status, 0x0000);
    EXPECT_TRUE(std::filesystem::exists(dir / "inbox" / ("US." + sopInstanceUid))) << "storescp did not write the object";
}

TEST_F(PacsClientTest, NothingListeningIsNamedAndRetryable) {
    const PacsNode nobody{"NOBODY", "127.0.0.1", freeLoopbackPort()};
    auto result = echo(nobody);
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().code(), ErrorCode::Unavailable);
    EXPECT_NE(result.error().message().find(fmt::format("PACS NOBODY at 127.0.0.1:{}", nobody.port)), std::string::npos) << result.error().message();
}

// The self-test's PACS step names why a node did not answer: each class from a real peer.
TEST_F(PacsClientTest, AFailedEchoIsClassedAsNothingListeningRejectedTimeoutOrTls) {
    const PacsNode nobody{"NOBODY", "127.0.0.1", freeLoopbackPort()};
    auto refused = echo(nobody);
    ASSERT_FALSE(refused);
    EXPECT_EQ(classifyEchoFailure(refused.error()), EchoFailure::NothingListening) << refused.error().message();
    StoreScp pacs(dir / "inbox", {"--refuse"});
    ASSERT_TRUE(pacs.waitUntilListening());
    auto rejected = echo(pacs.node());
    ASSERT_FALSE(rejected);
    EXPECT_EQ(classifyEchoFailure(rejected.error()), EchoFailure::Rejected) << rejected.error().message();
    MisbehavingPeer silent([](int, const std::atomic<bool>& stop) { MisbehavingPeer::idle(stop, 120); });
    AssociationSettings quick;
    quick.connectTimeoutS = 1;
    quick.acseTimeoutS = 1;
    quick.dimseTimeoutS = 1;
    auto unanswered = echo(silent.node(), quick);
    ASSERT_FALSE(unanswered);
    EXPECT_EQ(classifyEchoFailure(unanswered.error()), EchoFailure::Timeout) << unanswered.error().message();
    StoreScp plain(dir / "inbox2", {});
    ASSERT_TRUE(plain.waitUntilListening());
    auto tlsNode = plain.node();
    tlsNode.tls = true;  // TLS asked of a plain port, with no certificate of ours
    auto tls = echo(tlsNode, quick);
    ASSERT_FALSE(tls);
    EXPECT_EQ(classifyEchoFailure(tls.error()), EchoFailure::Tls) << tls.error().message();
    EXPECT_EQ(toString(EchoFailure::NothingListening), "nothing listening");
}

TEST_F(PacsClientTest, ARefusingPacsIsNotRetried) {
    StoreScp pacs(dir / "inbox", {"--refuse"});
    ASSERT_TRUE(pacs.waitUntilListening());
    auto result = store(pacs.node(), file);
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().code(), ErrorCode::FailedPrecondition) << result.error().message();
    EXPECT_NE(result.error().message().find("Rejected"), std::string::npos) << result.error().message();
}

TEST_F(PacsClientTest, AbortAndStallFailWithinTheTimeouts) {
    {
        StoreScp pacs(dir / "inbox", {"--abort-during"});
        ASSERT_TRUE(pacs.waitUntilListening());
        auto result = store(pacs.node(), file);
        ASSERT_FALSE(result);
        EXPECT_EQ(result.error().code(), ErrorCode::Unavailable) << result.error().message();
    }
    StoreScp pacs(dir / "inbox2", {"--sleep-during", "30"});
    ASSERT_TRUE(pacs.waitUntilListening());
    AssociationSettings quick;
    quick.dimseTimeoutS = 1;
    quick.acseTimeoutS = 2;
    const auto start = std::chrono::steady_clock::now();
    auto result = store(pacs.node(), file, quick);
    const auto waited = std::chrono::steady_clock::now() - start;
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().code(), ErrorCode::Unavailable) << result.error().message();
    // The PACS sleeps 30 s: a DIMSE timeout that did not fire would wait for it.
    EXPECT_LT(waited, std::chrono::seconds(15)) << result.error().message();
}

// `dicom send`'s use case: every file's outcome in the order given (one that is not DICOM among
// them, named), one association for the rest, the transfer audited (110104) for the patient.
TEST_F(PacsClientTest, SendFilesReportsEachFileInOrderAndAuditsTheTransfer) {
    StoreScp pacs(dir / "inbox", {});
    ASSERT_TRUE(pacs.waitUntilListening());
    const auto notDicom = (dir / "notes.txt").string();
    { std::ofstream(notDicom) << "not a DICOM file"; }
    AuditTrail audit(AuditSettings{(dir / "audit.log").string(), "", 514, "SONOLINK"});
    const auto report = sendFiles(pacs.node(), {}, {notDicom, file}, audit);
    ASSERT_EQ(report.files.size(), 2u);
    EXPECT_EQ(report.files[0].file, notDicom);
    ASSERT_FALSE(report.files[0].result);
    EXPECT_NE(report.files[0].result.error().message().find("notes.txt"), std::string::npos) << report.files[0].result.error().message();
    ASSERT_TRUE(report.files[1].result) << report.files[1].result.error().describe();
    EXPECT_EQ(report.files[1].result->status, 0x0000);
    EXPECT_TRUE(std::filesystem::exists(dir / "inbox" / ("US." + sopInstanceUid)));
    EXPECT_FALSE(report.auditFailure);
    std::ifstream in(dir / "audit.log");
    const std::string audited((std::istreambuf_iterator<char>(in)), {});
    EXPECT_NE(audited.find("csd-code=\"110104\""), std::string::npos) << audited;
    EXPECT_NE(audited.find("SL-1"), std::string::npos) << "the patient whose data left";
}

// A node that cannot be reached: each file "not sent" with the reason, none lost from the list.
TEST_F(PacsClientTest, SendFilesToANodeThatIsDownReportsEveryFileRetryable) {
    const PacsNode nobody{"NOBODY", "127.0.0.1", freeLoopbackPort()};
    AuditTrail audit(AuditSettings{(dir / "audit.log").string(), "", 514, "SONOLINK"});
    const auto report = sendFiles(nobody, {}, {file, file}, audit);
    ASSERT_EQ(report.files.size(), 2u);
    for (const auto& [name, result] : report.files) {
        ASSERT_FALSE(result);
        EXPECT_EQ(result.error().code(), ErrorCode::Unavailable) << result.error().message();
    }
}

// `dicom export`'s use case: the object copied as <SOP Instance UID>.dcm, re-encoded on request,
// audited (110106); a file that is not DICOM fails alone, named.
TEST_F(PacsClientTest, ExportObjectsWritesEachObjectByItsUidAndAuditsTheExport) {
    const auto notDicom = (dir / "notes.txt").string();
    { std::ofstream(notDicom) << "not a DICOM file"; }
    AuditTrail audit(AuditSettings{(dir / "audit.log").string(), "", 514, "SONOLINK"});
    const MediaExport request{(dir / "media").string(), std::nullopt, Compression::Rle, "SONOLINK_T"};
    auto report = exportObjects(request, {file, notDicom}, audit);
    ASSERT_TRUE(report) << report.error().message();
    ASSERT_EQ(report->objects.size(), 2u);
    ASSERT_TRUE(report->objects[0].output) << report->objects[0].output.error().message();
    EXPECT_EQ(*report->objects[0].output, (dir / "media" / (sopInstanceUid + ".dcm")).string());
    auto info = inspectObject(*report->objects[0].output);
    ASSERT_TRUE(info) << info.error().message();
    EXPECT_EQ(info->transferSyntaxUid, transferSyntaxUid(Compression::Rle));
    EXPECT_FALSE(report->objects[1].output);
    std::ifstream in(dir / "audit.log");
    const std::string audited((std::istreambuf_iterator<char>(in)), {});
    EXPECT_NE(audited.find("csd-code=\"110106\""), std::string::npos) << audited;
    EXPECT_NE(audited.find("SONOLINK_T"), std::string::npos);
}

// A directory that cannot be made (a file is in its place): refused at once, nothing written.
TEST_F(PacsClientTest, ExportObjectsIntoAFileIsRefusedWithTheReason) {
    AuditTrail audit(AuditSettings{(dir / "audit.log").string(), "", 514, "SONOLINK"});
    auto report = exportObjects({file + "/media", std::nullopt, std::nullopt, "SONOLINK_T"}, {file}, audit);
    ASSERT_FALSE(report);
    EXPECT_EQ(report.error().code(), ErrorCode::FailedPrecondition);
    EXPECT_NE(report.error().message().find("cannot create"), std::string::npos) << report.error().message();
}

// Peers that keep DCMTK's per-read timeouts from ever firing: every operation still ends
// within its deadline (connect + ACSE to associate), named, retryable; none hangs. The reported
// bug: a peer sending one byte every 2 s kept `dicom echo --timeout 5` waiting past 300 s, and a
// half PDU stalled for a hidden 60 s.
TEST_F(PacsClientTest, TricklingStallingAndSilentPeersCannotOutlastTheDeadline) {
    const std::vector<std::pair<const char*, MisbehavingPeer::Behaviour>> peers{
        {"one byte every 0.5 s",
         [](int fd, const std::atomic<bool>& stop) {
             const char pdu[] = "\x02\x00\x00\x00\x01\x00garbage that never ends";
             for (std::size_t i = 0; !stop; i = (i + 1) % (sizeof pdu - 1)) {
                 if (::send(fd, pdu + i, 1, MSG_NOSIGNAL) != 1) return;
                 MisbehavingPeer::idle(stop, 0.5);
             }
         }},
        {"half a PDU, then silence",
         [](int fd, const std::atomic<bool>& stop) {
             const unsigned char header[] = {0x02, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x01, 0x00, 0x00};  // A-ASSOCIATE-AC of 4096 bytes
             (void)::send(fd, header, sizeof header, MSG_NOSIGNAL);
             MisbehavingPeer::idle(stop, 120);
         }},
        {"accepts and never answers", [](int, const std::atomic<bool>& stop) { MisbehavingPeer::idle(stop, 120); }},
        {"garbage at once",
         [](int fd, const std::atomic<bool>& stop) {
             std::vector<unsigned char> noise(8192);
             for (std::size_t i = 0; i < noise.size(); ++i) noise[i] = static_cast<unsigned char>(i * 2654435761u >> 13);
             (void)::send(fd, noise.data(), noise.size(), MSG_NOSIGNAL);
             MisbehavingPeer::idle(stop, 120);
         }},
    };
    AssociationSettings quick;
    quick.connectTimeoutS = 1;
    quick.acseTimeoutS = 2;
    quick.dimseTimeoutS = 2;
    for (const auto& [what, behaviour] : peers) {
        MisbehavingPeer peer(behaviour);
        const auto start = std::chrono::steady_clock::now();
        auto echoed = echo(peer.node(), quick);
        auto stored = store(peer.node(), file, quick);
        const auto waited = std::chrono::steady_clock::now() - start;
        ASSERT_FALSE(echoed) << what;
        ASSERT_FALSE(stored) << what;
        EXPECT_EQ(echoed.error().code(), ErrorCode::Unavailable) << what << ": " << echoed.error().message();
        EXPECT_NE(echoed.error().message().find("MISBEHAVING at 127.0.0.1"), std::string::npos) << what << ": " << echoed.error().message();
        // Two operations, each at most connect + ACSE (3 s) and the abort: well under 10 s.
        EXPECT_LT(waited, std::chrono::seconds(10)) << what << ": " << echoed.error().message();
    }
}

// A stop asked for (SIGTERM in `dicom queue run`) ends an exchange with a trickling peer at once.
TEST_F(PacsClientTest, AStopRequestEndsAnExchangeWithinAFractionOfASecond) {
    std::promise<void> trickling;  // the exchange is under way: the peer sent its first byte
    std::once_flag first;
    MisbehavingPeer peer([&](int fd, const std::atomic<bool>& stop) {
        for (char c = 2; !stop; c = 0) {
            if (::send(fd, &c, 1, MSG_NOSIGNAL) != 1) return;
            std::call_once(first, [&] { trickling.set_value(); });
            MisbehavingPeer::idle(stop, 0.2);
        }
    });
    AssociationSettings patient;  // the defaults: 5 s connect, 10 s ACSE
    std::chrono::steady_clock::time_point asked;
    std::thread stopper([&, mid = trickling.get_future()] {
        mid.wait_for(std::chrono::seconds(30));
        asked = std::chrono::steady_clock::now();
        requestStop();
    });
    auto echoed = echo(peer.node(), patient);
    const auto ended = std::chrono::steady_clock::now();
    stopper.join();
    clearStopRequest();
    ASSERT_FALSE(echoed);
    EXPECT_EQ(echoed.error().code(), ErrorCode::Cancelled) << echoed.error().message();
    EXPECT_LT(ended - asked, std::chrono::milliseconds(2000)) << "the exchange outlived the stop request";
}

TEST_F(PacsClientTest, TheForwarderSendsWhatIsQueuedAndForgetsItAfterTheRetention) {
    StoreScp pacs(dir / "inbox", {});
    ASSERT_TRUE(pacs.waitUntilListening());
    auto queue = StoreQueue::open((dir / "queue").string());
    ASSERT_TRUE(queue) << queue.error().message();
    const auto item = (*queue)->enqueue(file, "pacs", false);
    ASSERT_TRUE(item) << item.error().message();
    ForwarderSettings settings;
    settings.destinations = {{"pacs", pacs.node(), false}};
    settings.retentionS = 3;
    std::int64_t clock = nowMs();  // the forwarder's time: moved by the test, never slept through
    settings.clockMs = [&clock] { return clock; };
    StoreForwarder forwarder(**queue, settings, *UidGenerator::create(std::nullopt));
    forwarder.runOnce();
    const auto sent = (*queue)->item(item->id);
    ASSERT_TRUE(sent) << "forgotten before its retention";
    ASSERT_EQ(sent->state, ItemState::Sent) << sent->lastError;
    EXPECT_TRUE(std::filesystem::exists(dir / "inbox" / ("US." + sopInstanceUid)));
    EXPECT_TRUE(std::filesystem::exists(item->object.file)) << "kept through the retention: the node does not commit";
    clock += 2999;
    forwarder.runOnce();
    ASSERT_TRUE((*queue)->item(item->id)) << "forgotten a millisecond before its retention ends";
    clock += 2;
    forwarder.runOnce();
    EXPECT_FALSE((*queue)->item(item->id));
    EXPECT_FALSE(std::filesystem::exists(item->object.file));
}

// A local copy damaged on disk (cut short) is our problem, not the network's: DataLoss, and the
// queue fails it with the reason at its first attempt instead of retrying it for ever; the
// object after it in the batch still goes (the reported bug: exit 3 and endless retries).
TEST_F(PacsClientTest, ADamagedLocalFileIsNoNetworkFailureAndTheQueueFailsItAtOnce) {
    StoreScp pacs(dir / "inbox", {});
    ASSERT_TRUE(pacs.waitUntilListening());
    auto queue = StoreQueue::open((dir / "queue").string());
    ASSERT_TRUE(queue) << queue.error().message();
    const auto damaged = (*queue)->enqueue(file, "pacs", false);
    ASSERT_TRUE(damaged) << damaged.error().message();
    std::filesystem::resize_file(damaged->object.file, std::filesystem::file_size(damaged->object.file) - 1000);  // pixel data cut short
    auto direct = store(pacs.node(), damaged->object.file);
    ASSERT_FALSE(direct);
    EXPECT_EQ(direct.error().code(), ErrorCode::DataLoss) << direct.error().message();
    EXPECT_NE(direct.error().message().find("damaged"), std::string::npos) << direct.error().message();

    ForwarderSettings settings;
    settings.destinations = {{"pacs", pacs.node(), false}};
    std::int64_t clock = nowMs();
    settings.clockMs = [&clock] { return clock; };
    StoreForwarder forwarder(**queue, settings, *UidGenerator::create(std::nullopt));
    forwarder.runOnce();
    const auto after = (*queue)->item(damaged->id);
    ASSERT_TRUE(after);
    EXPECT_EQ(after->state, ItemState::Failed);
    EXPECT_EQ(after->attempts, 1);
    EXPECT_NE(after->lastError.find("damaged"), std::string::npos) << after->lastError;
    EXPECT_TRUE((*queue)->settled()) << "a queue whose items cannot succeed settles";
}

}  // namespace
}  // namespace sonolink::dicom
