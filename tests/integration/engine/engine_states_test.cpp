// The engine's state machine through its facade, one behaviour per test: commands refused in
// the wrong state (with the command named), Connecting -> SelfTest -> Ready, streaming
// calibrated images and RF traces, freeze, stop and a second session, the front end lost
// (mid-stream, while frozen) and reconnecting, a link that cannot be made, a sink dropping itself.
#include <algorithm>
#include <fstream>

#include "engine_fixture.h"

namespace sonolink::engine::testing {
namespace {

TEST_F(EngineTest, ACommandInTheWrongStateIsRefusedNamingTheCommand) {
    auto engine = make();
    EventLog log;
    auto subscription = engine->subscribe(std::ref(log));
    EXPECT_EQ(engine->state(), EngineState::Idle);
    engine->startStreaming();
    const auto refused = log.waitFor<EngineError>([](const EngineError& e) { return e.code == ErrorCode::FailedPrecondition; });
    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->origin, ErrorOrigin::Command);
    EXPECT_EQ(refused->source, "startStreaming");
    EXPECT_EQ(refused->message, "cannot stream while idle");
    EXPECT_NE(refused->describe().find("command error in startStreaming"), std::string::npos) << refused->describe();
}

TEST_F(EngineTest, ConnectGoesThroughTheSelfTestsToReady) {
    auto engine = make();
    EventLog log;
    auto subscription = engine->subscribe(std::ref(log));
    engine->connect();
    ASSERT_TRUE(log.waitForState(EngineState::Ready));
    EXPECT_EQ(log.states(), (std::vector<EngineState>{EngineState::Connecting, EngineState::SelfTest, EngineState::Ready}));
}

// The start-up link BER test (issue 14): its own session with the front end sending PRBS-31,
// the verdict as a SelfTestStep with its figures, then the acquisition session, Ready.
TEST_F(EngineTest, ConnectRunsTheLinkBerTestAndAPassLetsTheStationStream) {
    selfTest = LinkBerTest{};
    selfTest->limit = 1e-8;  // 3.0e8 bits: a fraction of a second on the built-in front end
    auto engine = make();
    EventLog log;
    auto subscription = engine->subscribe(std::ref(log));
    engine->connect();
    ASSERT_TRUE(log.waitForState(EngineState::Ready));
    EXPECT_EQ(log.states(), (std::vector<EngineState>{EngineState::Connecting, EngineState::SelfTest, EngineState::Connecting, EngineState::Ready}));
    const auto steps = log.all<SelfTestStep>();
    ASSERT_EQ(steps.size(), 3u);
    EXPECT_EQ(steps[0].step, "ring memory");  // March C- over the DMA ring, before the front end writes to it
    EXPECT_EQ(steps[0].verdict, SelfTestVerdict::Pass) << steps[0].figures;
    EXPECT_NE(steps[0].figures.find("March C- over the DMA ring, 8.0 MiB (128 slots of 64 KiB)"), std::string::npos) << steps[0].figures;
    EXPECT_EQ(steps[1].step, "link BER");
    EXPECT_EQ(steps[1].verdict, SelfTestVerdict::Pass) << steps[1].figures;
    EXPECT_EQ(steps[1].bitErrors, 0u);
    EXPECT_GE(steps[1].bitsChecked, 299'573'228u);  // -ln(0.05) / 1e-8
    EXPECT_LE(steps[1].berUpperBound, 1e-8);
    EXPECT_NE(steps[1].figures.find("bits compared"), std::string::npos);
    EXPECT_TRUE(engine->stats().selfTestBlock.empty());
    EXPECT_EQ(engine->stats().link.patternBitsChecked, steps[1].bitsChecked);
    EXPECT_EQ(steps[2].step, "ring slots (DMA path)");  // the pattern the front end wrote, checked in every slot
    EXPECT_EQ(steps[2].verdict, SelfTestVerdict::Pass) << steps[2].figures;
    EXPECT_NE(steps[2].figures.find("PRBS-31 written by the front end into 128 of 128 ring slots"), std::string::npos) << steps[2].figures;
    engine->startStreaming();
    ASSERT_TRUE(log.waitForState(EngineState::Streaming));
}

// The station's set-up is checked before the link comes up, each check a step: a ring that asks
// for more huge pages than there are blocks streaming; a data folder that cannot be written is
// a failure that does not (live imaging goes on; recording will say why it cannot).
TEST_F(EngineTest, TheStationChecksComeFirstAndOnlyThoseTheRingNeedsBlockStreaming) {
    selfTest = LinkBerTest{};
    selfTest->limit = 1e-7;
    std::ofstream(dir / "a-file") << "not a folder";
    station = StationCheck{};
    station->ringBytes = std::uint64_t{1} << 40;  // 1 TiB of huge pages: no station has them free
    station->ringHugePages = true;
    station->recordingBytesNeeded = 1 << 20;
    station->folders = {{"recordings", dir / "recordings"}, {"DICOM queue", dir / "a-file" / "queue"}};
    auto engine = make();
    EventLog log;
    auto subscription = engine->subscribe(std::ref(log));
    engine->connect();
    ASSERT_TRUE(log.waitForState(EngineState::Ready));
    std::vector<std::string> names;
    for (const auto& s : log.all<SelfTestStep>()) names.push_back(s.step);
    EXPECT_EQ(names, (std::vector<std::string>{"station: memlock limit", "station: huge pages", "station: CPU governor",
                                               "station: writable folder (recordings)", "station: free disk (recordings)",
                                               "station: writable folder (DICOM queue)", "ring memory", "link BER", "ring slots (DMA path)"}));
    const auto steps = log.all<SelfTestStep>();
    ASSERT_EQ(steps.size(), 9u);
    EXPECT_EQ(steps[1].verdict, SelfTestVerdict::Fail);
    EXPECT_NE(steps[1].limit.find("free huge pages for the 1048576 MiB ring"), std::string::npos) << steps[1].limit;
    EXPECT_NE(steps[1].fix.find("/proc/sys/vm/nr_hugepages"), std::string::npos) << steps[1].fix;
    EXPECT_EQ(steps[3].verdict, SelfTestVerdict::Pass) << steps[3].figures;
    EXPECT_EQ(steps[5].verdict, SelfTestVerdict::Fail);
    EXPECT_FALSE(steps[5].blocksStreaming);
    EXPECT_NE(steps[5].figures.find("cannot create the folder"), std::string::npos) << steps[5].figures;
    const auto block = engine->stats().selfTestBlock;
    EXPECT_NE(block.find("station: huge pages"), std::string::npos) << block;
    EXPECT_EQ(block.find("DICOM queue"), std::string::npos) << "a folder does not block streaming: " << block;
}

// The GPU memory step (March C- by the composition root's CUDA kernels; here its results as a
// station would return them): after the station's set-up and before the link; every GPU named
// with its figures; a GPU with a mismatch or one that could not be tested fails the step, which
// blocks streaming; a station without a GPU has no such step.
TEST_F(EngineTest, TheGpuMemoryStepNamesEachGpuAndAFaultBlocksStreaming) {
    selfTest = LinkBerTest{};
    selfTest->limit = 1e-7;
    int calls = 0;
    gpuMemoryTest = [&calls] {
        ++calls;
        selftest::MemoryTestResult sound, faulty;
        sound.algorithm = faulty.algorithm = selftest::MemoryAlgorithm::MarchCMinus;
        sound.bytesTested = faulty.bytesTested = std::uint64_t{1} << 30;
        sound.bytesMoved = faulty.bytesMoved = 10 * sound.bytesTested;
        sound.seconds = faulty.seconds = 0.0028;
        faulty.mismatches = 3;
        faulty.first = {{12345, 0, std::uint64_t{1} << 17}, {12345, ~0ull, ~(std::uint64_t{1} << 40)}};
        return std::vector<GpuMemoryOutcome>{{"GPU 0 (NVIDIA H200)", sound, {}},
                                             {"GPU 1 (NVIDIA H200)", faulty, {}},
                                             {"GPU 2 (NVIDIA H200)", std::nullopt, "1024 MiB of GPU memory to test: 12 MiB free"}};
    };
    auto t = connectThroughSelfTest();
    ASSERT_TRUE(t.engine);
    EXPECT_EQ(calls, 1);
    ASSERT_GE(t.steps.size(), 2u);
    const auto& step = t.steps[0];
    EXPECT_EQ(step.step, "GPU memory");
    EXPECT_EQ(step.verdict, SelfTestVerdict::Fail) << step.figures;
    EXPECT_TRUE(step.blocksStreaming);
    EXPECT_NE(step.figures.find("GPU 0 (NVIDIA H200): 1024 MiB in 0.00 s (3835 GB/s read and written), 0 mismatches"), std::string::npos) << step.figures;
    EXPECT_NE(step.figures.find("GPU 1 (NVIDIA H200): 1024 MiB in 0.00 s (3835 GB/s read and written), 3 mismatches; the first at byte 98760: "
                                "wrote 0x0000000000000000, read 0x0000000000020000"),
              std::string::npos)
        << step.figures;
    EXPECT_NE(step.figures.find("GPU 2 (NVIDIA H200): not tested: 1024 MiB of GPU memory to test: 12 MiB free"), std::string::npos) << step.figures;
    EXPECT_NE(step.fix.find("the GPU's memory is faulty"), std::string::npos) << step.fix;
    EXPECT_EQ(t.steps[1].step, "ring memory");  // the link's steps follow
    EXPECT_NE(t.engine->stats().selfTestBlock.find("GPU memory"), std::string::npos) << t.engine->stats().selfTestBlock;
    t.engine->startStreaming();
    EXPECT_TRUE(t.log->waitFor<EngineError>([](const EngineError& e) { return e.message.find("GPU memory") != std::string::npos; }));
}

TEST_F(EngineTest, AStationWithoutAGpuHasNoGpuMemoryStep) {
    selfTest = LinkBerTest{};
    selfTest->limit = 1e-7;
    gpuMemoryTest = [] { return std::vector<GpuMemoryOutcome>{}; };  // the probe found none
    auto t = connectThroughSelfTest();
    ASSERT_TRUE(t.engine);
    for (const auto& s : t.steps) EXPECT_NE(s.step, "GPU memory");
    EXPECT_TRUE(t.engine->stats().selfTestBlock.empty()) << t.engine->stats().selfTestBlock;
}

// Bit errors above the limit fail the test: streaming is refused, naming the step and its
// figures, until an engineer overrides it with a reason (who and why recorded in an event).
// The runner's progress and cancel, as the wizard shows and offers them: while the link BER test
// runs, stats().selfTest names it and counts its bits against the plan; cancelled, that step fails
// naming who, the element check after it never runs, and the station is Ready with streaming
// blocked. A cancel with no self-test running is refused.
TEST_F(EngineTest, ASelfTestShowsItsProgressAndACancelFailsTheStepUnderWay) {
    selfTest = LinkBerTest{};
    selfTest->limit = 1e-13;  // 3e13 bits: minutes on this link, so it is still running when cancelled
    selfTest->timeout = std::chrono::seconds(300);
    elementCheck = ElementCheckSetup{};
    auto engine = make();
    EventLog log;
    auto subscription = engine->subscribe(std::ref(log));
    engine->cancelSelfTest();
    ASSERT_TRUE(log.waitFor<EngineError>([](const EngineError& e) { return e.source == "cancelSelfTest"; }, std::chrono::seconds(5)));
    engine->connect();
    SelfTestProgress seen;
    ASSERT_TRUE(waitUntil(
        [&] {
            seen = engine->stats().selfTest;
            return seen.step == "link BER" && seen.fraction > 0;
        },
        std::chrono::seconds(30)))
        << "the link BER test under way: " << seen.step << " " << seen.fraction;
    EXPECT_LT(seen.fraction, 1.0);
    EXPECT_NE(seen.detail.find("bits compared"), std::string::npos) << seen.detail;
    const auto mark = log.size();
    engine->cancelSelfTest();
    ASSERT_TRUE(log.waitForState(EngineState::Ready, std::chrono::seconds(30)));
    const auto steps = log.all<SelfTestStep>();
    ASSERT_FALSE(steps.empty());
    EXPECT_EQ(steps.back().step, "link BER") << "nothing runs after the cancelled step";
    EXPECT_EQ(steps.back().verdict, SelfTestVerdict::Fail);
    EXPECT_NE(steps.back().figures.find("cancelled by"), std::string::npos) << steps.back().figures;
    for (const auto& step : steps) EXPECT_NE(step.step, "element check");
    EXPECT_NE(engine->stats().selfTestBlock.find("link BER test failed"), std::string::npos);
    EXPECT_TRUE(engine->stats().selfTest.step.empty());
    engine->startStreaming();
    ASSERT_TRUE(log.waitFor<EngineError>([](const EngineError& e) { return e.source == "startStreaming"; }, std::chrono::seconds(5), mark));
}

// An engineer re-runs one step (the wizard's "Run again"): only that step runs, its new verdict
// replaces its failure in what blocks streaming, and another step's failure stands. An unknown
// step, or a re-run while streaming, is refused naming the command.
TEST_F(EngineTest, ReRunningAStepReplacesItsVerdictAndLeavesTheOthersStanding) {
    selfTest = LinkBerTest{};
    selfTest->limit = 1e-8;
    bitErrorRate = 1e-6;
    station = StationCheck{};
    station->ringBytes = std::uint64_t{1} << 40;  // 1 TiB of huge pages: the huge-pages check fails
    station->ringHugePages = true;
    auto engine = make();
    EventLog log;
    auto subscription = engine->subscribe(std::ref(log));
    engine->connect();
    ASSERT_TRUE(log.waitForState(EngineState::Ready));
    auto block = engine->stats().selfTestBlock;
    EXPECT_NE(block.find("link BER test failed"), std::string::npos) << block;
    EXPECT_NE(block.find("station: huge pages"), std::string::npos) << block;

    bitErrorRate = 0;  // the cable replaced: the next link the engine makes is clean
    auto mark = log.size();
    engine->runSelfTest({"link BER"});
    ASSERT_TRUE(log.waitFor<StateChanged>([](const StateChanged& s) { return s.to == EngineState::SelfTest; }, std::chrono::seconds(10), mark));
    ASSERT_TRUE(log.waitForState(EngineState::Ready, std::chrono::seconds(30), mark));
    const auto rerun = log.all<SelfTestStep>(mark);
    ASSERT_EQ(rerun.size(), 1u) << "only the step asked for runs";
    EXPECT_EQ(rerun[0].step, "link BER");
    EXPECT_EQ(rerun[0].verdict, SelfTestVerdict::Pass) << rerun[0].figures;
    block = engine->stats().selfTestBlock;
    EXPECT_EQ(block.find("link BER"), std::string::npos) << "its pass replaced its failure: " << block;
    EXPECT_NE(block.find("station: huge pages"), std::string::npos) << "a step not re-run still blocks: " << block;

    mark = log.size();
    engine->runSelfTest({"link speed"});
    const auto unknown = log.waitFor<EngineError>([](const EngineError& e) { return e.source == "runSelfTest"; }, std::chrono::seconds(5), mark);
    ASSERT_TRUE(unknown);
    EXPECT_EQ(unknown->code, ErrorCode::InvalidArgument);
    EXPECT_NE(unknown->message.find("'link speed'"), std::string::npos) << unknown->message;

    engine->overrideSelfTest("bench station without huge pages; no patient data");
    ASSERT_TRUE(log.waitFor<SelfTestOverridden>([](const SelfTestOverridden&) { return true; }, std::chrono::seconds(5), mark));
    engine->startStreaming();
    ASSERT_TRUE(log.waitForState(EngineState::Streaming, std::chrono::seconds(10), mark));
    mark = log.size();
    engine->runSelfTest();
    const auto busy = log.waitFor<EngineError>([](const EngineError& e) { return e.source == "runSelfTest"; }, std::chrono::seconds(5), mark);
    ASSERT_TRUE(busy);
    EXPECT_NE(busy->message.find("stop streaming first"), std::string::npos) << busy->message;
    EXPECT_EQ(engine->state(), EngineState::Streaming);
}

TEST_F(EngineTest, ALinkWithBitErrorsFailsTheSelfTestAndStreamingWaitsForAnOverride) {
    selfTest = LinkBerTest{};
    selfTest->limit = 1e-8;
    bitErrorRate = 1e-6;
    DicomSetup audited;
    audited.stationAeTitle = "SONOLINK_T";
    audited.audit.file = (dir / "audit.log").string();
    auto engine = make(std::move(audited));
    EventLog log;
    auto subscription = engine->subscribe(std::ref(log));
    engine->connect();
    ASSERT_TRUE(log.waitForState(EngineState::Ready));
    const auto steps = log.all<SelfTestStep>();
    ASSERT_EQ(steps.size(), 3u);
    EXPECT_EQ(steps[2].verdict, SelfTestVerdict::Pass) << "line noise errs in every slot alike: no slot's fault. " << steps[2].figures;
    EXPECT_EQ(steps[1].verdict, SelfTestVerdict::Fail);
    EXPECT_GT(steps[1].bitErrors, 0u);
    EXPECT_GT(steps[1].crcErrors, 0u);
    EXPECT_GT(steps[1].ber, 1e-8);
    EXPECT_FALSE(steps[1].fix.empty());
    EXPECT_NE(log.lastReason(EngineState::Ready).find("streaming blocked"), std::string::npos);
    EXPECT_NE(engine->stats().selfTestBlock.find("link BER test failed"), std::string::npos);

    const auto mark = log.size();
    engine->startStreaming();
    const auto refused = log.waitFor<EngineError>([](const EngineError& e) { return e.source == "startStreaming"; }, std::chrono::seconds(5), mark);
    ASSERT_TRUE(refused);
    EXPECT_NE(refused->message.find("bit errors"), std::string::npos) << refused->message;
    EXPECT_NE(refused->message.find("override"), std::string::npos) << refused->message;
    EXPECT_EQ(engine->state(), EngineState::Ready);

    engine->overrideSelfTest("   ");  // no reason: refused
    ASSERT_TRUE(log.waitFor<EngineError>([](const EngineError& e) { return e.source == "overrideSelfTest"; }, std::chrono::seconds(5), mark));
    engine->overrideSelfTest("bench station, cable under test; no patient data");
    const auto overridden = log.waitFor<SelfTestOverridden>([](const SelfTestOverridden&) { return true; }, std::chrono::seconds(5), mark);
    ASSERT_TRUE(overridden);
    EXPECT_EQ(overridden->reason, "bench station, cable under test; no patient data");
    EXPECT_FALSE(overridden->by.empty());
    EXPECT_NE(overridden->blocked.find("link BER test failed"), std::string::npos);
    std::string audit;
    ASSERT_TRUE(waitUntil([&] {
        audit = readFile(dir / "audit.log");
        return audit.find("110127") != std::string::npos;
    })) << "the override is in the audit trail: "
        << audit;
    EXPECT_NE(audit.find("reason: bench station, cable under test; no patient data"), std::string::npos) << audit;
    EXPECT_NE(audit.find(R"(UserID=")" + overridden->by + R"(" UserIsRequestor="true"/>)"), std::string::npos) << audit;
    engine->startStreaming();
    ASSERT_TRUE(log.waitForState(EngineState::Streaming));
}

// The reported bug: a link that lost 1 % of its blocks passed, every bit that did arrive being
// right. Lost blocks fail the BER step with their count and what to check, and block streaming.
TEST_F(EngineTest, ALinkThatLosesBlocksFailsTheBerStepWhateverItsBits) {
    selfTest = LinkBerTest{};
    selfTest->limit = 1e-8;  // 3e8 bits: a short test, under a sanitizer too
    dropRate = 0.01;
    auto engine = make();
    EventLog log;
    auto subscription = engine->subscribe(std::ref(log));
    engine->connect();
    ASSERT_TRUE(log.waitForState(EngineState::Ready));
    const auto steps = log.all<SelfTestStep>();
    const auto ber = std::find_if(steps.begin(), steps.end(), [](const SelfTestStep& s) { return s.step == "link BER"; });
    ASSERT_NE(ber, steps.end());
    EXPECT_EQ(ber->verdict, SelfTestVerdict::Fail) << ber->figures;
    EXPECT_EQ(ber->bitErrors, 0u) << "what arrived is clean: " << ber->figures;
    EXPECT_EQ(ber->figures.find(" 0 blocks lost"), std::string::npos) << ber->figures;
    EXPECT_NE(ber->fix.find("lost"), std::string::npos) << ber->fix;
    EXPECT_NE(ber->fix.find("sonolink-cli link diag"), std::string::npos) << ber->fix;
    EXPECT_NE(engine->stats().selfTestBlock.find("link BER test failed"), std::string::npos);
}

// The link-level integrity test: a ring slot whose DMA path sets a bit in everything written
// there fails its own step, naming the slot and its figures, and blocks streaming; the link's
// BER step sees the bit errors too.
TEST_F(EngineTest, ARingSlotThatDamagesWhatTheFrontEndWritesFailsTheSlotsStepNamingIt) {
    selfTest = LinkBerTest{};
    selfTest->limit = 1e-8;
    corruptSlot = 37;
    const auto t = connectThroughSelfTest();
    ASSERT_EQ(t.steps.size(), 3u);
    const auto& slots = t.steps[2];
    EXPECT_EQ(slots.step, "ring slots (DMA path)");
    EXPECT_EQ(slots.verdict, SelfTestVerdict::Fail) << slots.figures;
    EXPECT_NE(slots.figures.find("1 slot whose errors repeat there: slot 37: "), std::string::npos) << slots.figures;
    EXPECT_NE(slots.figures.find("(the rest of the ring: 0 of "), std::string::npos) << slots.figures;
    EXPECT_NE(slots.fix.find("DMA path"), std::string::npos) << slots.fix;
    EXPECT_NE(t.engine->stats().selfTestBlock.find("ring slots (DMA path) test failed"), std::string::npos) << t.engine->stats().selfTestBlock;
}

// The element check after the BER test, on the front end's phantom: a dead element and two
// swapped channels fail the step, each named with its figures, and block streaming.
TEST_F(EngineTest, TheElementCheckNamesADeadAndTwoSwappedChannelsAndBlocksStreaming) {
    selfTest = LinkBerTest{};
    selfTest->limit = 1e-7;
    elementCheck = ElementCheckSetup{};  // a clean probe passes: ThePhantomCheckCatchesAReversedArrayThatTheElementCheckCannotSee
    channelFaults.dead = {7};
    channelFaults.swapped = {{15, 40}};
    const auto t = connectThroughSelfTest();
    ASSERT_EQ(t.steps.size(), 4u);
    const auto& check = t.steps[3];
    EXPECT_EQ(check.verdict, SelfTestVerdict::Fail) << check.figures;
    EXPECT_NE(check.figures.find("3 flagged: channel 7 dead (RMS "), std::string::npos) << check.figures;
    EXPECT_NE(check.figures.find("channels 15 and 40 swapped"), std::string::npos) << check.figures;
    EXPECT_EQ(check.elements[7].fault, "dead");
    EXPECT_EQ(check.elements[40].swappedWith, 15);
    EXPECT_NE(check.fix.find("cable"), std::string::npos) << check.fix;
    EXPECT_NE(t.engine->stats().selfTestBlock.find("element check test failed"), std::string::npos) << t.engine->stats().selfTestBlock;
}

// The phantom check after the element check: the first frame of the phantom, beamformed by the
// display's imager, against the composition root's reference. Both pass on the built-in front
// end (the element check with every channel's figures); with the array's order reversed (a connector the wrong way round) the element check
// still passes, but the phantom check fails with its figures and blocks streaming.
TEST_F(EngineTest, ThePhantomCheckCatchesAReversedArrayThatTheElementCheckCannotSee) {
    selfTest = LinkBerTest{};
    selfTest->limit = 1e-7;
    elementCheck = ElementCheckSetup{};
    phantomCheck = true;
    {
        const auto t = connectThroughSelfTest();
        ASSERT_EQ(t.steps.size(), 5u);
        const auto& check = t.steps[3];
        EXPECT_EQ(check.step, "element check");
        EXPECT_EQ(check.verdict, SelfTestVerdict::Pass) << check.figures;
        EXPECT_NE(check.figures.find("4 frames of the phantom, 64 channels"), std::string::npos) << check.figures;
        ASSERT_EQ(check.elements.size(), 64u);
        EXPECT_EQ(check.elements[10].fault, "ok");
        EXPECT_GT(check.elements[10].snrDb, 20);
        const auto& phantom = t.steps[4];
        EXPECT_EQ(phantom.step, "phantom check");
        EXPECT_EQ(phantom.verdict, SelfTestVerdict::Pass) << phantom.figures;
        EXPECT_NE(phantom.figures.find("on the CPU imager (48 x "), std::string::npos) << phantom.figures;
        EXPECT_TRUE(t.engine->stats().selfTestBlock.empty()) << t.engine->stats().selfTestBlock;
    }
    channelFaults.reversed = true;
    const auto t = connectThroughSelfTest();
    ASSERT_EQ(t.steps.size(), 5u);
    EXPECT_EQ(t.steps[3].verdict, SelfTestVerdict::Pass) << "every neighbour is still a neighbour: " << t.steps[3].figures;
    const auto& phantom = t.steps[4];
    EXPECT_EQ(phantom.verdict, SelfTestVerdict::Fail) << phantom.figures;
    EXPECT_NE(phantom.figures.find("FAILED ("), std::string::npos) << phantom.figures;
    EXPECT_NE(phantom.fix.find("element order"), std::string::npos) << phantom.fix;
    EXPECT_NE(t.engine->stats().selfTestBlock.find("phantom check test failed"), std::string::npos) << t.engine->stats().selfTestBlock;
}

// Dual mode: the phantom check also fires the laser and checks the shot's absorbers (the point
// targets) against a reference shot, which is what a front end with the configured system delay
// sends. It passes on the built-in front end; with a system delay configured that the front end
// does not have, every absorber is drawn deeper and the check fails naming how far; with a laser
// that never fires, it fails saying no shot arrived. Either way streaming is blocked.
TEST_F(EngineTest, InDualModeThePhantomCheckFiresTheLaserAndChecksTheAbsorbers) {
    selfTest = LinkBerTest{};
    selfTest->limit = 1e-7;
    elementCheck = ElementCheckSetup{};
    phantomCheck = true;
    laserRateHz = 50;
    {
        const auto t = connectThroughSelfTest();
        ASSERT_EQ(t.steps.size(), 5u);
        const auto& phantom = t.steps[4];
        EXPECT_EQ(phantom.verdict, SelfTestVerdict::Pass) << phantom.figures;
        EXPECT_NE(phantom.figures.find("laser shot: NCC "), std::string::npos) << phantom.figures;
        EXPECT_NE(phantom.figures.find(" absorbers, the farthest 0.0"), std::string::npos) << phantom.figures;
        EXPECT_NE(phantom.limit.find("a laser shot of the phantom too"), std::string::npos) << phantom.limit;
    }
    shotSystemDelayUs = 2;  // 3 mm deeper: the configuration is wrong for this front end
    {
        const auto t = connectThroughSelfTest();
        ASSERT_EQ(t.steps.size(), 5u);
        const auto& phantom = t.steps[4];
        EXPECT_EQ(phantom.verdict, SelfTestVerdict::Fail) << phantom.figures;
        EXPECT_NE(phantom.figures.find("laser shot: NCC "), std::string::npos) << phantom.figures;
        EXPECT_NE(phantom.fix.find("system delay"), std::string::npos) << phantom.fix;
        EXPECT_NE(t.engine->stats().selfTestBlock.find("phantom check test failed"), std::string::npos) << t.engine->stats().selfTestBlock;
    }
    shotSystemDelayUs = 0;
    laserMissEvery = 1;  // every shot misfires
    const auto t = connectThroughSelfTest();
    ASSERT_EQ(t.steps.size(), 5u);
    EXPECT_EQ(t.steps[4].verdict, SelfTestVerdict::Fail) << t.steps[4].figures;
    EXPECT_NE(t.steps[4].figures.find("laser shot: no shot arrived"), std::string::npos) << t.steps[4].figures;
}

TEST_F(EngineTest, StreamingPublishesCalibratedImages) {
    auto engine = make();
    EventLog log;
    auto subscription = engine->subscribe(std::ref(log));
    ASSERT_NO_FATAL_FAILURE(stream(*engine, log));
    EXPECT_EQ(engine->state(), EngineState::Streaming);
    const auto live = engine->latestFrame();
    ASSERT_TRUE(live);
    // 16 x 20 mm beamformed on 48 x 96 pixels, drawn in true proportions in the 512 x 512 box.
    EXPECT_EQ(live->rows, 512);
    EXPECT_EQ(live->columns, 409);
    EXPECT_EQ(live->pixels.size(), 512u * 409u);
    EXPECT_NEAR(live->cmPerPixelY, 2.0 / 511, 1e-12);
    EXPECT_EQ(live->cmPerPixelX, live->cmPerPixelY);
    EXPECT_NEAR(live->xStartCm, -0.8, 1e-12);
    EXPECT_NEAR(live->zStartCm, 0.5, 1e-12);
    EXPECT_EQ(live->imaging, engine->imaging()) << "the frame says what made it";
    const auto stats = engine->stats();
    EXPECT_EQ(stats.crcErrors + stats.headerErrors, 0u);
    EXPECT_EQ(stats.imager, "CPU");
    EXPECT_GT(stats.imagerMsPerFrame, 0);
}

TEST_F(EngineTest, RfTracesOfTheChosenChannels) {
    auto engine = make();
    EventLog log;
    auto subscription = engine->subscribe(std::ref(log));
    ASSERT_NO_FATAL_FAILURE(stream(*engine, log));
    engine->setRfChannels({0, 31, 63, 500});  // 500 is not a channel: ignored
    ASSERT_TRUE(waitUntil([&] { return engine->latestRf() != nullptr; }));
    const auto rf = engine->latestRf();
    EXPECT_EQ(rf->channels, (std::vector<int>{0, 31, 63}));
    EXPECT_EQ(rf->samples.size(), 3u * 1024u);
    EXPECT_EQ(rf->samplingRateHz, 40e6) << "the front end's rate: the RF view's time axis";
    EXPECT_GE(rf->initialTimeUs, 0.0);
    EXPECT_TRUE(std::any_of(rf->samples.begin(), rf->samples.end(), [](std::int16_t v) { return v != 0; })) << "echoes, not silence";
}

TEST_F(EngineTest, FreezeHoldsTheImageAndTheCineWhileTheLinkStreamsOn) {
    auto engine = make();
    EventLog log;
    auto subscription = engine->subscribe(std::ref(log));
    ASSERT_NO_FATAL_FAILURE(stream(*engine, log));
    engine->freeze();
    ASSERT_TRUE(log.waitForState(EngineState::Frozen));
    // The freeze is set before its event: from here on nothing is published.
    const auto frozen = engine->latestFrame();
    const auto frozenCine = engine->cine();
    const auto shown = engine->stats().framesDisplayed;
    const auto delivered = engine->stats().framesDelivered;
    ASSERT_TRUE(waitUntil([&] { return engine->stats().framesDelivered >= delivered + 20; })) << "the link streams on";
    EXPECT_EQ(engine->stats().framesDisplayed, shown);
    EXPECT_EQ(engine->latestFrame(), frozen);
    EXPECT_EQ(engine->cine(), frozenCine);
    engine->startStreaming();
    ASSERT_TRUE(waitUntil([&] { return engine->latestFrame() != frozen; }));
    EXPECT_EQ(engine->state(), EngineState::Streaming);
}

TEST_F(EngineTest, StopStreamingBringsTheFrontEndUpAgainForASecondSession) {
    auto engine = make();
    EventLog log;
    auto subscription = engine->subscribe(std::ref(log));
    ASSERT_NO_FATAL_FAILURE(stream(*engine, log));
    log.clear();
    engine->stopStreaming();
    ASSERT_TRUE(log.waitForState(EngineState::Ready));
    EXPECT_EQ(log.states(), (std::vector<EngineState>{EngineState::Connecting, EngineState::SelfTest, EngineState::Ready}));
    engine->startStreaming();
    const auto displayed = engine->stats().framesDisplayed;
    ASSERT_TRUE(waitUntil([&] { return engine->stats().framesDisplayed >= displayed + 3; }));
    EXPECT_EQ(engine->latestFrame()->session, 2u);
    engine->disconnect();
    ASSERT_TRUE(log.waitForState(EngineState::Idle));
    EXPECT_EQ(engine->stats().sessions, 2u);
}

TEST_F(EngineTest, FrontEndLostMidStreamIsAnErrorWithTheReasonAndReconnectStreamsAgain) {
    disconnectFirstAfterBlocks = 400;
    auto engine = make();
    EventLog log;
    auto subscription = engine->subscribe(std::ref(log));
    ASSERT_NO_FATAL_FAILURE(connectAndStart(*engine, log));
    // Images arrive in frame order, never twice, while the front end streams and after it is lost:
    // every publication is a new object, so a frame published again shows up as a repeated id.
    std::vector<std::pair<std::uint64_t, std::uint32_t>> seen;
    std::shared_ptr<const DisplayFrame> last;
    auto watch = [&] {
        if (auto f = engine->latestFrame(); f && f != last) {
            seen.emplace_back(f->session, f->frameId);
            last = std::move(f);
        }
    };
    ASSERT_TRUE(waitUntil([&] {
        watch();
        return engine->state() == EngineState::Error;
    }));
    // The state flips before its event reaches subscribers: wait for the event, which carries the reason.
    ASSERT_TRUE(log.waitForState(EngineState::Error));
    const auto reason = log.lastReason(EngineState::Error);
    EXPECT_NE(reason.find("front end"), std::string::npos) << reason;
    const auto error = log.waitFor<EngineError>([](const EngineError& e) { return e.origin == ErrorOrigin::Link; });
    ASSERT_TRUE(error) << "the link's error, with its origin";
    EXPECT_EQ(error->message, reason);
    log.clear();
    engine->connect();
    ASSERT_TRUE(log.waitForState(EngineState::Ready));
    engine->startStreaming();
    ASSERT_TRUE(waitUntil([&] {
        watch();
        return !seen.empty() && seen.back().first == 2 && engine->stats().framesDisplayed >= 10;
    }));
    EXPECT_EQ(engine->state(), EngineState::Streaming);
    ASSERT_GE(seen.size(), 3u);
    for (std::size_t i = 1; i < seen.size(); ++i) EXPECT_LT(seen[i - 1], seen[i]) << "image " << i << " out of order or repeated";
    const auto cine = engine->cine();
    for (std::size_t i = 1; i < cine.size(); ++i) {
        EXPECT_LT(std::pair(cine[i - 1]->session, cine[i - 1]->frameId), std::pair(cine[i]->session, cine[i]->frameId));
    }
    EXPECT_EQ(engine->stats().sessions, 2u);
}

TEST_F(EngineTest, FrontEndLostWhileFrozenIsAnErrorAndTheNextSessionShowsLiveImages) {
    disconnectFirstAfterBlocks = 2000;
    auto engine = make();
    EventLog log;
    auto subscription = engine->subscribe(std::ref(log));
    ASSERT_NO_FATAL_FAILURE(connectAndStart(*engine, log));
    ASSERT_TRUE(waitUntil([&] { return engine->latestFrame() != nullptr; }));
    engine->freeze();
    ASSERT_TRUE(log.waitForState(EngineState::Error));
    EXPECT_EQ(log.states(), (std::vector<EngineState>{EngineState::Connecting, EngineState::SelfTest, EngineState::Ready, EngineState::Streaming,
                                                      EngineState::Frozen, EngineState::Error}));
    log.clear();
    engine->connect();
    ASSERT_TRUE(log.waitForState(EngineState::Ready));
    const auto frozenImage = engine->latestFrame();
    engine->startStreaming();
    // The freeze ended with the session it belonged to: the new session's images are shown.
    ASSERT_TRUE(waitUntil([&] {
        const auto f = engine->latestFrame();
        return f && f != frozenImage && f->session == 2;
    })) << "the display is still frozen";
}

TEST_F(EngineTest, DisconnectFromFrozenReadyAndErrorGoesIdle) {
    firstLinkFails = true;
    auto engine = make();
    EventLog log;
    auto subscription = engine->subscribe(std::ref(log));
    engine->connect();
    ASSERT_TRUE(log.waitForState(EngineState::Error));
    engine->disconnect();  // Error -> Idle
    ASSERT_TRUE(log.waitFor<StateChanged>([](const StateChanged& s) { return s.from == EngineState::Error && s.to == EngineState::Idle; }));
    engine->connect();
    ASSERT_TRUE(log.waitForState(EngineState::Ready));
    engine->disconnect();  // Ready -> Idle
    ASSERT_TRUE(log.waitFor<StateChanged>([](const StateChanged& s) { return s.from == EngineState::Ready && s.to == EngineState::Idle; }));
    log.clear();
    ASSERT_NO_FATAL_FAILURE(stream(*engine, log));
    engine->freeze();
    ASSERT_TRUE(log.waitForState(EngineState::Frozen));
    engine->disconnect();  // Frozen -> Idle
    ASSERT_TRUE(log.waitFor<StateChanged>([](const StateChanged& s) { return s.from == EngineState::Frozen && s.to == EngineState::Idle; }));
}

TEST_F(EngineTest, ASinkMayDropItsOwnSubscriptionFromInsideTheCallback) {
    auto engine = make();
    EventLog log;
    auto kept = engine->subscribe(std::ref(log));
    std::atomic<int> calls{0};
    std::optional<Subscription> once;
    once = engine->subscribe([&](const EngineEvent&) {
        ++calls;
        once.reset();  // no deadlock, and no further call
    });
    ASSERT_NO_FATAL_FAILURE(stream(*engine, log));
    EXPECT_GE(log.states().size(), 4u) << "the other subscriber hears every event";
    EXPECT_EQ(calls.load(), 1);
}

TEST_F(EngineTest, ALinkThatCannotBeMadeIsAnErrorWithTheReasonAndConnectTriesAgain) {
    firstLinkFails = true;
    auto engine = make();
    EventLog log;
    auto subscription = engine->subscribe(std::ref(log));
    engine->connect();
    ASSERT_TRUE(log.waitForState(EngineState::Error));
    EXPECT_EQ(log.lastReason(EngineState::Error), "RDMA device mlx5_0 is down (test)");
    EXPECT_EQ(log.states(), (std::vector<EngineState>{EngineState::Connecting, EngineState::Error}));
    const auto error = log.waitFor<EngineError>([](const EngineError&) { return true; });
    ASSERT_TRUE(error);
    EXPECT_EQ(error->origin, ErrorOrigin::Link);
    EXPECT_EQ(error->code, ErrorCode::Unavailable);
    log.clear();
    engine->disconnect();
    ASSERT_TRUE(log.waitForState(EngineState::Idle));
    log.clear();
    ASSERT_NO_FATAL_FAILURE(stream(*engine, log));
    EXPECT_EQ(engine->state(), EngineState::Streaming);
}

}  // namespace
}  // namespace sonolink::engine::testing
