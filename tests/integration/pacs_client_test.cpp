// C-ECHO and C-STORE against dcmtk's storescp, started by the test on loopback and stopped by
// its PID: an echo and a store succeed and the object arrives; nothing listening, a refusing
// PACS, one that aborts during the transfer and one that stalls each fail with the node named
// and the right kind (retry or not), and a stall ends at the DIMSE timeout. The forwarder sends
// what is queued and forgets it, with its copy, once the retention has passed. The file-level use
// cases (sendFiles, exportObjects) report each file in order and audit what they did.
#include "sonolink/dicom/pacs_client.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
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
#include "sonolink/dicom/uid_generator.h"
#include "sonolink/dicom/us_image_writer.h"

namespace sonolink::dicom {
namespace {

int freeLoopbackPort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
    socklen_t length = sizeof address;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
    ::close(fd);
    return ntohs(address.sin_port);
}

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
        o.context.series = {uids->next(), 1, "ABDOMEN"};
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
