// The forwarder that drains the PACS queue, without a PACS: a node that is down (a closed
// loopback port) leaves each item queued with its back-off by the policy, doubling, every
// attempt audited; an item whose node is no longer configured fails with the reason; a report
// of a transaction nobody asked for changes nothing; wake() runs a pass on the worker thread and
// stop() ends it. The forwarder's clock is the test's, so nothing sleeps through a back-off.
// (The sends that succeed, commitments and retention are in pacs_client_test, against storescp.)
#include "sonolink/dicom/store_forwarder.h"

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>

#include <gtest/gtest.h>

#include "dicom_test_support.h"
#include "loopback_port.h"
#include "sonolink/dicom/pacs_client.h"
#include "sonolink/dicom/uid_generator.h"

namespace sonolink::dicom {
namespace {

namespace fs = std::filesystem;

using sonolink::testing::closedLoopbackPort;

std::size_t linesIn(const std::string& file) {
    std::ifstream in(file);
    return static_cast<std::size_t>(std::count(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>(), '\n'));
}

class StoreForwarderTest : public ::testing::Test {
protected:
    fs::path dir = fs::temp_directory_path() / ("sonolink_forwarder_" + std::to_string(::getpid()));
    UidGenerator uids = *UidGenerator::create(std::nullopt);
    RetryPolicy policy{2.0, 16.0, 0.5, 60.0};
    std::int64_t clock = 1'800'000'000'000;  // the forwarder's time, moved by the test
    std::unique_ptr<StoreQueue> queue;

    void SetUp() override {
        fs::remove_all(dir);
        fs::create_directories(dir / "exam");
        auto opened = StoreQueue::open((dir / "queue").string(), policy);
        ASSERT_TRUE(opened) << opened.error().message();
        queue = std::move(*opened);
    }
    void TearDown() override {
        queue.reset();
        fs::remove_all(dir);
    }

    std::string enqueue(int n, const std::string& node) {
        const auto path = (dir / "exam" / ("img" + std::to_string(n) + ".dcm")).string();
        EXPECT_FALSE(writeSmallUsImage(path, uids, n).empty());
        auto item = queue->enqueue(path, node, false);
        EXPECT_TRUE(item) << item.error().message();
        return item ? item->id : "";
    }

    ForwarderSettings settings(int port) {
        ForwarderSettings s;
        s.destinations = {{"pacs", PacsNode{"PACS", "127.0.0.1", port, false}, false}};
        s.association.connectTimeoutS = 2;
        s.clockMs = [this] { return clock; };
        return s;
    }
};

TEST_F(StoreForwarderTest, ANodeThatIsDownBacksOffByThePolicyDoublingAndEachAttemptIsAudited) {
    const auto first = enqueue(1, "pacs");
    const auto second = enqueue(2, "pacs");
    AuditSettings auditSettings;
    auditSettings.file = (dir / "audit.log").string();
    AuditTrail audit(auditSettings);
    StoreForwarder forwarder(*queue, settings(closedLoopbackPort()), uids, &audit);

    forwarder.runOnce();
    for (const auto& id : {first, second}) {
        const auto item = queue->item(id);
        ASSERT_TRUE(item);
        EXPECT_EQ(item->state, ItemState::Queued) << "a node that is down is worth another try";
        EXPECT_EQ(item->attempts, 1);
        EXPECT_FALSE(item->lastError.empty());
        EXPECT_GE(item->nextAttemptAtMs, clock + 1000);  // 2 s less up to half of it
        EXPECT_LE(item->nextAttemptAtMs, clock + 2000);
    }
    const auto audited = linesIn((dir / "audit.log").string());
    EXPECT_GE(audited, 1u) << "the failed transfer is audited";
    const auto due = forwarder.nextDueMs();
    ASSERT_TRUE(due);
    EXPECT_EQ(*due, std::min(queue->item(first)->nextAttemptAtMs, queue->item(second)->nextAttemptAtMs));

    clock = *due - 1;  // not yet
    forwarder.runOnce();
    EXPECT_EQ(queue->item(first)->attempts + queue->item(second)->attempts, 2) << "an item was tried before its back-off ended";

    const auto secondTry = clock = clock + 2001;  // both due
    forwarder.runOnce();
    for (const auto& id : {first, second}) {
        const auto item = queue->item(id);
        EXPECT_EQ(item->attempts, 2);
        EXPECT_GE(item->nextAttemptAtMs, secondTry + 2000);  // 4 s less up to half of it
        EXPECT_LE(item->nextAttemptAtMs, secondTry + 4000);
    }
    EXPECT_GT(linesIn((dir / "audit.log").string()), audited) << "the second attempt is audited too";
}

TEST_F(StoreForwarderTest, EachOutcomeIsToldAsAnEvent) {
    const auto waiting = enqueue(1, "pacs");
    enqueue(2, "decommissioned");
    std::vector<ForwardEvent> told;
    auto s = settings(closedLoopbackPort());
    s.onEvent = [&told](const ForwardEvent& e) { told.push_back(e); };
    StoreForwarder forwarder(*queue, s, uids);
    forwarder.runOnce();
    ASSERT_EQ(told.size(), 2u);
    EXPECT_EQ(told[0].kind, ForwardEvent::Kind::NodeGone);
    EXPECT_EQ(told[0].count, 1u);
    EXPECT_EQ(told[1].kind, ForwardEvent::Kind::AssociationFailed);
    EXPECT_EQ(toString(told[1].kind), "association_failed");
    EXPECT_EQ(told[1].node, "pacs");
    EXPECT_EQ(told[1].count, 1u) << "the items that waited for it";
    ASSERT_TRUE(told[1].error);
    EXPECT_EQ(told[1].error->code(), ErrorCode::Unavailable);
    EXPECT_EQ(classifyEchoFailure(*told[1].error), EchoFailure::NothingListening) << told[1].error->message();
    EXPECT_TRUE(told[1].retry);
    EXPECT_EQ(queue->item(waiting)->attempts, 1);
    forwarder.applyReport({"1.2.826.0.1.3680043.10.543.998", "PACS", {}, {{"1.2.3", "no such object"}}});
    ASSERT_EQ(told.size(), 3u);
    EXPECT_EQ(told[2].kind, ForwardEvent::Kind::CommitmentReported);
    EXPECT_EQ((std::pair{told[2].count, told[2].failedCount}), (std::pair<std::size_t, std::size_t>{0, 1}));
}

TEST_F(StoreForwarderTest, AnItemForANodeNoLongerConfiguredFailsWithTheReason) {
    const auto orphan = enqueue(1, "decommissioned");
    StoreForwarder forwarder(*queue, settings(closedLoopbackPort()), uids);
    forwarder.runOnce();
    const auto item = queue->item(orphan);
    ASSERT_TRUE(item);
    EXPECT_EQ(item->state, ItemState::Failed);
    EXPECT_NE(item->lastError.find("node 'decommissioned' is no longer configured"), std::string::npos) << item->lastError;
    EXPECT_TRUE(queue->settled());
}

TEST_F(StoreForwarderTest, AReportOfATransactionNobodyAskedForChangesNothing) {
    const auto id = enqueue(1, "pacs");
    StoreForwarder forwarder(*queue, settings(closedLoopbackPort()), uids);
    const auto before = *queue->item(id);
    forwarder.applyReport({"1.2.826.0.1.3680043.10.543.999", "PACS", {before.object.sopInstanceUid}, {}});
    const auto after = queue->item(id);
    ASSERT_TRUE(after);
    EXPECT_EQ(after->state, before.state);
    EXPECT_EQ(after->attempts, before.attempts);
    EXPECT_EQ(after->committedAtMs, 0);
}

TEST_F(StoreForwarderTest, WakeRunsAPassOnTheWorkerAndStopEndsIt) {
    queue.reset();  // a back-off of minutes: a stop() that waited it out would show
    auto reopened = StoreQueue::open((dir / "queue").string(), RetryPolicy{300.0, 600.0, 0.5, 60.0});
    ASSERT_TRUE(reopened) << reopened.error().message();
    queue = std::move(*reopened);
    auto s = settings(closedLoopbackPort());
    s.clockMs = nullptr;  // the worker sleeps by the wall clock until something is due
    StoreForwarder forwarder(*queue, s, uids);
    forwarder.start();
    const auto id = enqueue(1, "pacs");
    auto seen = queue->version();
    forwarder.wake();
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (queue->item(id)->attempts == 0 && std::chrono::steady_clock::now() < deadline) {  // looked at once a change
        while (queue->version() == seen && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
        seen = queue->version();
    }
    EXPECT_EQ(queue->item(id)->attempts, 1) << "wake() ran no pass";
    const auto stopping = std::chrono::steady_clock::now();
    forwarder.stop();
    EXPECT_LT(std::chrono::steady_clock::now() - stopping, std::chrono::seconds(30)) << "stop() waited out the back-off (150 s or more)";
}

}  // namespace
}  // namespace sonolink::dicom
