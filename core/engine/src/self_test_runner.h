// Engine::Impl::SelfTestRunner: the start-up self-test as a service of the engine, on the ctl
// thread: whether one is due and which steps it runs; its steps in turn (the station's set-up
// and the GPU's memory, March C- over the DMA ring, the link BER test and the ring slots in a
// session of their own, the element and phantom check in another, PACS), with the imagers,
// captures and reference they need; each verdict logged, announced and, failed, added to what
// blocks streaming (in the engine's SessionTally); cancel. It drives the link and the
// acquisition through the engine it belongs to, then opens the acquisition session.
// self_test_control.cpp and element_check_control.cpp. Thread contract: ctl thread only (its
// state needs no lock; the tally it reports to has its own).
#pragma once

#include <chrono>
#include <cstdint>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine_impl.h"

namespace sonolink::engine {

class Engine::Impl::SelfTestRunner {
public:
    explicit SelfTestRunner(Impl& engine) : e_(engine) {}
    SelfTestRunner(const SelfTestRunner&) = delete;
    SelfTestRunner& operator=(const SelfTestRunner&) = delete;

    // The self-test asked for (these steps, kSelfTestSteps' names; empty: all) in the next
    // session, or not; due(): whether the next session runs it first.
    void arm(bool due, std::vector<std::string> steps) {
        due_ = due;
        selection_ = std::move(steps);
    }
    [[nodiscard]] bool due() const { return due_; }
    // From its first step (the ones that need no link, the ring's memory, the link BER test...);
    // ends by opening the acquisition session.
    void start();
    // The step under way fails as cancelled and the rest do not run; the acquisition session opens.
    void cancel();

private:
    [[nodiscard]] bool wants(std::string_view step) const;
    void runStepsWithoutLink();
    Acquisition::Callbacks linkBerTestCallbacks(std::uint64_t gen, std::uint32_t frames);
    void onLinkBerTestOpened(std::uint64_t gen, const Result<transport::LinkInfo>& opened, std::uint32_t frames);
    void onLinkBerTestEnded(std::uint64_t gen, const Result<ingest::SessionSummary>& ended);
    void linkBerTestTimedOut(std::uint64_t gen);
    void finishLinkBerTest(const ingest::IngestStats& stats, bool timedOut);
    void afterLinkBerTest();  // the element check's session, or finish()
    // The element check's session (element_check_control.cpp).
    void openElementCheck();
    void preparePhantomCheck(bool shot);
    Acquisition::Callbacks elementCheckCallbacks(std::uint64_t gen, std::uint32_t frames);
    void onElementCheckEnded(std::uint64_t gen, bool timedOut);
    void letCheckGo();  // the element and phantom check's imagers, captures and reference
    void finish();      // PACS, then the acquisition session
    void recordStep(SelfTestStep step);
    // The step under way from now (empty: none), for stats().selfTest.
    void underWay(std::string step, std::string detail = {});

    Impl& e_;
    bool due_ = false;
    std::vector<std::string> selection_;
    std::chrono::steady_clock::time_point started_;
    std::unique_ptr<FrameImager> phantomImager_;                 // the phantom check's
    std::optional<ImagingSetup> phantomSetup_;                   // the grid it beamforms on
    std::future<Result<PhantomReference>> phantomReferenceDue_;  // computed beside the element check's session
    std::unique_ptr<FrameCapture> elementFrames_;                // the element check session's sink
    std::unique_ptr<FrameImager> shotImager_;                    // dual mode's phantom check: its laser shot's imager and capture
    std::unique_ptr<FrameCapture> shotFrames_;
};

}  // namespace sonolink::engine
