// Verification jobs through the facade (what the GUI's "Test connection" and `dicom echo` run):
// a node that is not configured and a node that does not answer each end the job Failed with
// the reason and its code (NotFound: fix the configuration; Unavailable: a retry may help).
#include "engine_fixture.h"

namespace sonolink::engine::testing {
namespace {

DicomSetup oneNodeOnAClosedPort() {
    DicomSetup d;
    d.forwarder.association.connectTimeoutS = 2;
    d.stationAeTitle = d.forwarder.association.callingAeTitle = "SONOLINK_T";
    d.forwarder.destinations.push_back({"down", {"NOBODY", "127.0.0.1", 1, false}, false});  // nothing listens on port 1
    return d;
}

std::optional<JobUpdate> endOf(EventLog& log, JobId job) {
    return log.waitFor<JobUpdate>([&](const JobUpdate& u) { return u.id == job && u.status != JobStatus::Running; });
}

TEST_F(EngineTest, VerifyingANodeThatIsNotConfiguredNamesTheConfiguredOnes) {
    auto engine = make(oneNodeOnAClosedPort());
    EventLog log;
    auto subscription = engine->subscribe(std::ref(log));
    const auto end = endOf(log, engine->verifyNode("archive"));
    ASSERT_TRUE(end);
    EXPECT_EQ(end->kind, JobKind::NodeVerification);
    EXPECT_EQ(end->status, JobStatus::Failed);
    EXPECT_EQ(end->code, ErrorCode::NotFound);
    EXPECT_NE(end->message.find("no node 'archive'"), std::string::npos) << end->message;
    EXPECT_NE(end->message.find("down"), std::string::npos) << "the configured names: " << end->message;
}

TEST_F(EngineTest, VerifyingANodeThatDoesNotAnswerSaysWhereAndThatARetryMayHelp) {
    auto engine = make(oneNodeOnAClosedPort());
    EventLog log;
    auto subscription = engine->subscribe(std::ref(log));
    const auto job = engine->verifyNode("down");
    const auto running = log.waitFor<JobUpdate>([&](const JobUpdate& u) { return u.id == job && u.status == JobStatus::Running; });
    ASSERT_TRUE(running);
    EXPECT_NE(running->message.find("NOBODY at 127.0.0.1:1"), std::string::npos) << running->message;
    const auto end = endOf(log, job);
    ASSERT_TRUE(end);
    EXPECT_EQ(end->status, JobStatus::Failed);
    EXPECT_EQ(end->code, ErrorCode::Unavailable);
    EXPECT_NE(end->message.find("127.0.0.1:1"), std::string::npos) << end->message;
    EXPECT_EQ(engine->state(), EngineState::Idle) << "a verification touches no session";
}

// Settings… tests a node before it is kept: its values checked first, then asked as a configured one.
TEST_F(EngineTest, ANodeNotYetConfiguredIsCheckedThenAskedAsTyped) {
    auto engine = make(oneNodeOnAClosedPort());
    EventLog log;
    auto subscription = engine->subscribe(std::ref(log));
    auto end = endOf(log, engine->verifyNode(NodeToVerify{"new-node", "BAD\\AE", "127.0.0.1", 104, false, {}, {}, {}, {}}));
    ASSERT_TRUE(end);
    EXPECT_EQ(end->code, ErrorCode::InvalidArgument);
    EXPECT_NE(end->message.find("node 'new-node' cannot be asked: its AE title"), std::string::npos) << end->message;
    end = endOf(log, engine->verifyNode(NodeToVerify{"new-node", "NEW", "127.0.0.1", 70000, false, {}, {}, {}, {}}));
    ASSERT_TRUE(end);
    EXPECT_NE(end->message.find("port 70000"), std::string::npos) << end->message;
    const auto job = engine->verifyNode(NodeToVerify{"new-node", "NEWPACS", "127.0.0.1", 2, false, "EDITED_AE", {}, {}, {}});
    const auto running = log.waitFor<JobUpdate>([&](const JobUpdate& u) { return u.id == job && u.status == JobStatus::Running; });
    ASSERT_TRUE(running);
    EXPECT_NE(running->message.find("NEWPACS at 127.0.0.1:2"), std::string::npos) << "as typed, not a configured node: " << running->message;
    end = endOf(log, job);
    ASSERT_TRUE(end);
    EXPECT_EQ(end->code, ErrorCode::Unavailable) << end->message;
}

// The start-up self-test echoes every node (issue 14): one that does not answer fails the PACS
// step, naming the node and the failure's class, but does not block streaming (studies queue).
TEST_F(EngineTest, APacsThatDoesNotAnswerFailsItsSelfTestStepWithoutBlockingStreaming) {
    selfTest = LinkBerTest{};
    selfTest->limit = 1e-7;
    const auto t = connectThroughSelfTest(oneNodeOnAClosedPort());
    ASSERT_EQ(t.steps.size(), 4u);
    EXPECT_EQ(t.steps[1].verdict, SelfTestVerdict::Pass) << t.steps[1].figures;
    const auto& pacs = t.steps[3];
    EXPECT_EQ(pacs.step, "PACS");
    EXPECT_EQ(pacs.verdict, SelfTestVerdict::Fail);
    EXPECT_FALSE(pacs.blocksStreaming);
    EXPECT_NE(pacs.figures.find("C-ECHO to 1 nodes, 0 answered: down (NOBODY at 127.0.0.1:1): nothing listening"), std::string::npos) << pacs.figures;
    EXPECT_FALSE(pacs.fix.empty());
    EXPECT_TRUE(t.engine->stats().selfTestBlock.empty()) << t.engine->stats().selfTestBlock;
    t.engine->startStreaming();
    ASSERT_TRUE(t.log->waitForState(EngineState::Streaming));
}

// A site whose steps file makes the PACS step block streaming: the same unanswered node now
// blocks it, naming the step, until an engineer overrides it.
TEST_F(EngineTest, ASiteCanMakeThePacsStepBlockStreaming) {
    selfTest = LinkBerTest{};
    selfTest->limit = 1e-7;
    selfTestBlocking = {{"PACS", true}};
    const auto t = connectThroughSelfTest(oneNodeOnAClosedPort());
    ASSERT_EQ(t.steps.size(), 4u);
    EXPECT_EQ(t.steps[3].step, "PACS");
    EXPECT_EQ(t.steps[3].verdict, SelfTestVerdict::Fail);
    EXPECT_TRUE(t.steps[3].blocksStreaming);
    EXPECT_NE(t.engine->stats().selfTestBlock.find("PACS"), std::string::npos) << t.engine->stats().selfTestBlock;
    t.engine->startStreaming();
    EXPECT_TRUE(t.log->waitFor<EngineError>([](const EngineError& e) { return e.source == "startStreaming" && e.message.find("PACS") != std::string::npos; }));
}

}  // namespace
}  // namespace sonolink::engine::testing
