// The start-up self-test on the ctl thread: the station's set-up, March C- over the DMA ring's memory, then the link
// BER test in a session of its own (the front end sends the pattern as fast as the link takes it,
// ingest checks every block in its ring slot: the slots' step), a C-ECHO to every PACS node, each verdict a SelfTestStep event, then
// the acquisition session; a failed step blocks streaming (but for PACS) until an engineer's
// override (a reason, recorded as SelfTestOverridden and in the audit trail).
#include <unistd.h>

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "self_test_runner.h"
#include "sonolink/dicom/pacs_client.h"
#include "sonolink/selftest/ber_statistics.h"
#include "sonolink/selftest/memory_tests.h"
#include "sonolink/selftest/station_diagnostics.h"
#include "sonolink/transport/protocol/test_patterns.h"
#include "sonolink/util/station_user.h"

namespace sonolink::engine {
namespace {

std::uint64_t payloadBitsPerFrame(const transport::Configure& c) {
    return std::uint64_t{c.channelCount} * c.samplesPerChannel * std::max<std::size_t>(c.anglesMilliDeg.size(), 1) * 16;
}

// March C- over the DMA ring's memory (pinned and registered), before the front end is
// configured: nothing is resident in it yet, and the front end writes only once streaming.
SelfTestStep ringMemoryStep(const transport::RingView& ring) {
    const std::size_t bytes = std::size_t{ring.slotBytes} * ring.slotCount;
    selftest::WordMemory memory({reinterpret_cast<std::uint64_t*>(ring.base), bytes / 8});
    const auto r = selftest::runMemoryTest(selftest::MemoryAlgorithm::MarchCMinus, memory);
    SelfTestStep step;
    step.step = "ring memory";
    step.verdict = r.passed() ? SelfTestVerdict::Pass : SelfTestVerdict::Fail;
    step.seconds = r.seconds;
    step.limit = "no mismatch (March C-: stuck-at, transition, coupling and address-decoder faults)";
    step.figures = fmt::format("March C- over the DMA ring, {:.1f} MiB ({} slots of {} KiB), in {:.2f} s ({:.1f} GB/s read and written): {} mismatches",
                               static_cast<double>(bytes) / (1 << 20), ring.slotCount, ring.slotBytes >> 10, r.seconds,
                               r.seconds > 0 ? static_cast<double>(r.bytesMoved) / r.seconds / 1e9 : 0.0, r.mismatches);
    if (!r.passed()) {
        const auto& first = r.first.front();
        const auto offset = first.word * 8;
        step.figures += fmt::format("; the first at {} (slot {}, byte {}): wrote {:#018x}, read {:#018x}", static_cast<const void*>(ring.base + offset),
                                    offset / ring.slotBytes, offset % ring.slotBytes, first.expected, first.actual);
        step.fix =
            "the host memory under the DMA ring is faulty: do not scan; run a full memory test (memtest86+) and replace the "
            "module that fails";
    }
    return step;
}

// March C- over a block of each GPU's memory (the composition root's CUDA kernels): a fault
// there would change the live image unseen.
SelfTestStep gpuMemoryStep(const std::vector<GpuMemoryOutcome>& outcomes) {
    SelfTestStep step;
    step.step = "GPU memory";
    step.limit = "no mismatch (March C- by CUDA kernels: stuck-at, transition and address-decoder faults)";
    std::vector<std::string> figures, fixes;
    bool faulty = false, untested = false;
    for (const auto& o : outcomes) {
        if (!o.result) {
            untested = true;
            figures.push_back(fmt::format("{}: not tested: {}", o.gpu, o.error));
            continue;
        }
        const auto& r = *o.result;
        step.seconds += r.seconds;
        auto line =
            fmt::format("{}: {:.0f} MiB in {:.2f} s ({:.0f} GB/s read and written), {} mismatches", o.gpu, static_cast<double>(r.bytesTested) / (1 << 20),
                        r.seconds, r.seconds > 0 ? static_cast<double>(r.bytesMoved) / r.seconds / 1e9 : 0.0, r.mismatches);
        if (!r.passed()) {
            faulty = true;
            if (!r.first.empty()) {
                const auto& first = r.first.front();
                line += fmt::format("; the first at byte {}: wrote {:#018x}, read {:#018x}", first.word * 8, first.expected, first.actual);
            }
        }
        figures.push_back(std::move(line));
    }
    step.figures = fmt::format("March C- over {}", fmt::join(figures, "; "));
    if (faulty) {
        fixes.emplace_back(
            "the GPU's memory is faulty: do not scan on this GPU; run the vendor's diagnostics (nvidia-smi -q -d ECC, dcgmi diag) and "
            "have the card replaced");
    }
    if (untested) fixes.emplace_back("a GPU could not be tested: check the driver (nvidia-smi) and the GPU's free memory, then connect again");
    if (faulty || untested) {
        step.verdict = SelfTestVerdict::Fail;
        step.fix = fmt::format("{}", fmt::join(fixes, "; "));
    }
    return step;
}

// The link-level integrity test: the front end wrote the BER test's pattern into the ring's
// slots over the DMA path and ingest checked each block in place. A slot whose errors repeat
// there (not line noise, which spreads over every slot) is a fault of its memory or its path.
SelfTestStep ringSlotsStep(const ingest::RingSlotCounts& r, transport::PayloadKind pattern) {
    SelfTestStep step;
    step.step = "ring slots (DMA path)";
    step.limit = "every slot written by the front end and checked in place; no slot whose errors repeat there";
    const auto faults = r.repeatedFaults();
    const auto name = fmt::format("PRBS-{}", transport::prbsSpec(pattern).order);
    step.figures = fmt::format(
        "{} written by the front end into {} of {} ring slots ({} blocks, {:.1f} a slot) and checked in place: {} blocks "
        "with errors; {} {} whose errors repeat there",
        name, r.slotsReached, r.slots, r.blocks, r.slotsReached > 0 ? static_cast<double>(r.blocks) / r.slotsReached : 0.0, r.erroredBlocks, faults.size(),
        faults.size() == 1 ? "slot" : "slots");
    std::vector<std::string> named;
    for (const auto& f : faults) {
        named.push_back(fmt::format("slot {}: {} of {} blocks with errors ({} bit errors)", f.slot, f.erroredBlocks, f.blocks, f.bitErrors));
    }
    if (!named.empty()) {
        const auto restBlocks = r.blocks - faults.front().blocks;
        step.figures +=
            fmt::format(": {} (the rest of the ring: {} of {} blocks)", fmt::join(named, "; "), r.erroredBlocks - faults.front().erroredBlocks, restBlocks);
    }
    if (!faults.empty()) {
        step.verdict = SelfTestVerdict::Fail;
        step.fix =
            "the host memory under those slots, or the DMA path to them (the NIC, its PCIe slot, the IOMMU), damages what the "
            "front end writes: do not scan; run a full memory test, reseat the NIC, then connect again";
    } else if (r.slotsReached < r.slots) {
        step.verdict = SelfTestVerdict::Warn;
        step.fix = "the test's pattern did not reach every slot: a longer BER test (sonolink-cli selftest --full) covers the ring";
    }
    return step;
}

// The station's set-up, each check a step.
std::vector<SelfTestStep> stationSteps(const StationCheck& check) {
    std::vector<SelfTestStep> steps;
    for (auto& [d, blocks] : stationDiagnostics(check)) {
        SelfTestStep step;
        step.step = "station: " + d.check;
        step.verdict = d.verdict == selftest::DiagnosticVerdict::Pass   ? SelfTestVerdict::Pass
                       : d.verdict == selftest::DiagnosticVerdict::Warn ? SelfTestVerdict::Warn
                                                                        : SelfTestVerdict::Fail;
        step.figures = std::move(d.figures);
        step.limit = std::move(d.limit);
        step.fix = std::move(d.fix);
        step.blocksStreaming = blocks;
        steps.push_back(std::move(step));
    }
    return steps;
}

// C-ECHO to every configured PACS node, each failure with its class. Not answered, studies wait
// in the store-and-forward queue: the step fails without blocking streaming.
SelfTestStep pacsStep(const std::vector<dicom::Destination>& destinations, const dicom::AssociationSettings& association) {
    SelfTestStep step;
    step.step = "PACS";
    step.blocksStreaming = false;
    step.limit = "every configured node answers a C-ECHO";
    const auto started = std::chrono::steady_clock::now();
    std::vector<std::string> answers, failures;
    for (const auto& d : destinations) {
        const auto where = fmt::format("{} ({} at {}:{}{})", d.name, d.node.aeTitle, d.node.host, d.node.port, d.node.tls ? ", TLS" : "");
        const auto echoStarted = std::chrono::steady_clock::now();
        if (auto ok = dicom::echo(d.node, association); ok) {
            answers.push_back(fmt::format("{} answered in {:.0f} ms", where,
                                          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - echoStarted).count()));
        } else {
            failures.push_back(fmt::format("{}: {}: {}", where, dicom::toString(dicom::classifyEchoFailure(ok.error())), ok.error().message()));
        }
    }
    step.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    step.verdict = failures.empty() ? SelfTestVerdict::Pass : SelfTestVerdict::Fail;
    answers.insert(answers.end(), failures.begin(), failures.end());
    step.figures = fmt::format("C-ECHO to {} nodes, {} answered: {}", destinations.size(), destinations.size() - failures.size(), fmt::join(answers, "; "));
    if (!failures.empty()) {
        step.fix =
            "studies wait in the queue until the node answers. Nothing listening: the PACS is down or its address or port is "
            "wrong; rejected: our AE title (dicom.station_ae_title) is unknown to it; timeout: a firewall or a busy PACS; "
            "TLS: the certificates, or TLS set for a plain port";
    }
    return step;
}

}  // namespace

std::vector<StationDiagnostic> stationDiagnostics(const StationCheck& check) {
    const auto facts = selftest::readStationFacts();
    std::vector<StationDiagnostic> found;
    auto memlock = selftest::checkMemlock(facts, check.ringBytes);
    if (!check.ringLocked && memlock.verdict == selftest::DiagnosticVerdict::Fail) {
        memlock.verdict = selftest::DiagnosticVerdict::Warn;
        memlock.figures += " (this link's ring is not locked memory; a verbs link's would fail)";
    }
    found.push_back({std::move(memlock), true});
    found.push_back({selftest::checkHugePages(facts, check.ringHugePages, check.ringBytes), true});
    found.push_back({selftest::checkGovernor(facts), false});
    if (check.readHardware) {
        const auto hardware = check.readHardware();
        found.push_back({selftest::checkGpu(hardware), false});
        if (check.rdmaLink) found.push_back({selftest::checkRdmaPort(hardware, check.linkAddress), true});
        found.push_back({selftest::checkNumaLocality(hardware, check.rdmaLink ? std::optional(check.linkAddress) : std::nullopt), false});
        found.push_back({selftest::checkPtp(hardware), false});
    }
    for (std::size_t i = 0; i < check.folders.size(); ++i) {
        const auto& [what, where] = check.folders[i];
        const auto folder = selftest::readFolderFacts(where);
        found.push_back({selftest::checkWritable(folder, what), false});
        if (i == 0) found.push_back({selftest::checkFreeDisk(folder, check.recordingBytesNeeded, what), false});
    }
    return found;
}

bool selfTestStepWanted(const std::vector<std::string>& selected, std::string_view step) {
    if (selected.empty()) return true;
    return std::any_of(selected.begin(), selected.end(), [&](const std::string& s) {
        return step == s || (s == "station" && step.starts_with("station: ")) || (step == "station" && s.starts_with("station"));
    });
}

bool Engine::Impl::SelfTestRunner::wants(std::string_view step) const { return selfTestStepWanted(selection_, step); }

void Engine::Impl::SelfTestRunner::start() {
    due_ = false;
    const auto& test = *e_.config.selfTest;
    auto options = e_.config.session;
    options.configure.payloadKind = test.pattern;
    options.configure.photoacoustic = false;
    options.configure.laserRateMilliHz = 0;  // a test pattern: no laser
    options.configure.frameRateMilliHz = 0;  // as fast as the link takes it
    const auto planned = selftest::bitsToShow(test.limit, test.confidence);
    // Each block locks on its first bits: 2 % more frames than the payload alone needs.
    const auto frames =
        static_cast<std::uint32_t>(std::ceil(1.02 * static_cast<double>(planned) / static_cast<double>(payloadBitsPerFrame(options.configure)))) + 1;
    e_.setState(EngineState::SelfTest, fmt::format("link BER test: PRBS-{} until {:.3g} bits show BER <= {:.0e} at {:.0f} % confidence",
                                                   transport::prbsSpec(test.pattern).order, static_cast<double>(planned), test.limit, 100 * test.confidence));
    e_.tally.update([&](SessionTotals& t) {
        t.selfTestProgress = {};
        // The steps that run now replace their earlier verdicts; the others' failures stand.
        std::erase_if(t.selfTestBlocks, [this](const auto& block) { return wants(block.first); });
        t.selfTestPlannedBits = planned;
    });
    runStepsWithoutLink();
    const bool berSession = wants("link BER") || wants("ring slots (DMA path)");
    if (!berSession && !wants("ring memory")) return afterLinkBerTest();  // the link is not needed yet
    auto made = e_.sessionLink();
    if (!made) {
        e_.setState(EngineState::Error, made.error().message());
        return e_.report(ErrorOrigin::Link, Severity::Error, made.error());
    }
    if (wants("ring memory")) {
        underWay("ring memory", "March C- over the DMA ring");
        recordStep(ringMemoryStep((*made)->ring()));
    }
    if (!berSession) {
        e_.closeSession();  // only the ring was tested: the link made ready for the next session (a new one would wait for the front end)
        return afterLinkBerTest();
    }
    underWay("link BER");  // its fraction: the bits compared against the plan
    started_ = std::chrono::steady_clock::now();
    const auto gen = ++e_.generation;
    e_.acquisition = std::make_unique<Acquisition>(**made, options, e_.config.rxCpu, Acquisition::Consumers{}, linkBerTestCallbacks(gen, frames));
    e_.ctl->postAfter(test.timeout, [this, gen] { linkBerTestTimedOut(gen); });
}

void Engine::Impl::SelfTestRunner::runStepsWithoutLink() {
    if (e_.config.station && wants("station")) {
        underWay("station", "the station's set-up");
        for (auto& step : stationSteps(*e_.config.station)) {
            if (wants(step.step)) recordStep(std::move(step));
        }
    }
    if (e_.backends.gpuMemoryTest && wants("GPU memory")) {
        underWay("GPU memory", "March C- over the GPU's memory");
        if (auto outcomes = e_.backends.gpuMemoryTest(); !outcomes.empty()) recordStep(gpuMemoryStep(outcomes));  // none: no GPU here
    }
}

Acquisition::Callbacks Engine::Impl::SelfTestRunner::linkBerTestCallbacks(std::uint64_t gen, std::uint32_t frames) {
    std::weak_ptr<Impl> self = e_.weak_from_this();
    Acquisition::Callbacks callbacks;
    callbacks.opened = [self, gen, frames](const Result<transport::LinkInfo>& opened) {
        if (auto impl = self.lock()) impl->ctl->post([impl, gen, opened, frames] { impl->selfTest->onLinkBerTestOpened(gen, opened, frames); });
    };
    callbacks.progress = [self](const ingest::SessionSummary& progress) {
        if (auto impl = self.lock()) {
            impl->tally.update([&](SessionTotals& t) {
                t.current = progress;
                t.selfTestProgress = progress.stats;
            });
        }
    };
    callbacks.ended = [self, gen](const Result<ingest::SessionSummary>& ended, const ingest::SessionSummary& accounted) {
        if (auto impl = self.lock()) {
            impl->tally.update([&](SessionTotals& t) { t.selfTestProgress = accounted.stats; });
            impl->tally.account(accounted);  // the link delivered these frames: they count
            impl->ctl->post([impl, gen, ended] { impl->selfTest->onLinkBerTestEnded(gen, ended); });
        }
    };
    return callbacks;
}

void Engine::Impl::SelfTestRunner::onLinkBerTestOpened(std::uint64_t gen, const Result<transport::LinkInfo>& opened, std::uint32_t frames) {
    if (gen != e_.generation || e_.state != EngineState::SelfTest) return;
    if (!opened) {
        e_.closeSession();
        e_.setState(EngineState::Error, opened.error().message());
        return e_.report(ErrorOrigin::Link, Severity::Error, Error(opened.error()).addContext("starting the link BER test"));
    }
    e_.acquisition->go(frames);
}

void Engine::Impl::SelfTestRunner::onLinkBerTestEnded(std::uint64_t gen, const Result<ingest::SessionSummary>& ended) {
    if (gen != e_.generation || e_.state != EngineState::SelfTest) return;
    e_.closeSession();
    if (!ended) {
        e_.setState(EngineState::Error, ended.error().message());
        return e_.report(ErrorOrigin::Link, Severity::Error, Error(ended.error()).addContext("running the link BER test"));
    }
    finishLinkBerTest(ended->stats, false);
}

void Engine::Impl::SelfTestRunner::linkBerTestTimedOut(std::uint64_t gen) {
    if (gen != e_.generation || e_.state != EngineState::SelfTest) return;
    e_.closeSession();  // joins the session: its counts are in selfTestProgress
    finishLinkBerTest(e_.tally.read([](const SessionTotals& t) { return t.selfTestProgress; }), true);
}

void Engine::Impl::SelfTestRunner::finishLinkBerTest(const ingest::IngestStats& stats, bool timedOut) {
    const auto& test = *e_.config.selfTest;
    const auto& p = stats.patterns;
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    const auto bound = selftest::estimateBer(p.bitErrors, p.bitsChecked, test.confidence);
    const auto verdict = selftest::berVerdict(p.bitErrors, p.bitsChecked, test.limit, test.confidence);
    // Blocks the link lost (never seen, refused, late) carry no bits to compare: a link that drops
    // them fails however clean the bits that did arrive.
    const std::uint64_t blocksLost = stats.sequenceGaps + stats.lateBlocks + stats.headerErrors + stats.lengthMismatches + stats.immediateMismatches +
                                     stats.completionErrors + stats.creditViolations;
    SelfTestStep step;
    step.step = "link BER";
    step.verdict = verdict == selftest::BerVerdict::Pass && blocksLost == 0 ? SelfTestVerdict::Pass : SelfTestVerdict::Fail;
    step.bitsChecked = p.bitsChecked;
    step.bitErrors = p.bitErrors;
    step.lockLosses = p.lockLosses;
    step.crcErrors = stats.payloadCrcErrors;
    step.ber = bound.rate;
    step.berUpperBound = bound.upper;
    step.seconds = seconds;
    step.limit = fmt::format("BER <= {:.0e} at {:.0f} % confidence ({:.3g} bits, PRBS-{})", test.limit, 100 * test.confidence,
                             static_cast<double>(selftest::bitsToShow(test.limit, test.confidence)), transport::prbsSpec(test.pattern).order);
    step.figures = fmt::format(
        "{:.3g} bits compared in {:.1f} s, {} bit errors, {} losses of lock, {} blocks with CRC errors, {} blocks lost: "
        "BER {:.2g}, under {:.2g} at {:.0f} % confidence{}",
        static_cast<double>(p.bitsChecked), seconds, p.bitErrors, p.lockLosses, stats.payloadCrcErrors, blocksLost, bound.rate, bound.upper,
        100 * test.confidence, timedOut ? " (stopped: out of time)" : "");
    step.limit += ", no block lost";
    if (step.verdict != SelfTestVerdict::Pass) {
        step.fix = blocksLost > 0 && p.bitErrors == 0 && p.lockLosses == 0
                       ? fmt::format(
                             "the link lost {} blocks ({} never arrived, {} refused, {} late): check the NIC's port counters for drops "
                             "and pause frames (sonolink-cli link diag), the switch between, then connect again",
                             blocksLost, stats.sequenceGaps, blocksLost - stats.sequenceGaps - stats.lateBlocks, stats.lateBlocks)
                   : p.bitErrors > 0 || p.lockLosses > 0
                       ? "bit errors on the data path: check the cable or fibre and its connectors, the transceivers and the NIC's port "
                         "counters (sonolink-cli link diag), then connect again"
                       : "too few bits compared to show the limit: the link is slower than planned, or the test's time "
                         "(selftest.ber_timeout_s) too short";
    }
    if (wants("link BER")) recordStep(std::move(step));
    if (wants("ring slots (DMA path)")) recordStep(ringSlotsStep(stats.ringSlots, test.pattern));
    afterLinkBerTest();
}

void Engine::Impl::SelfTestRunner::afterLinkBerTest() {
    if (e_.config.elementCheck && (wants("element check") || wants("phantom check"))) return openElementCheck();
    finish();
}

void Engine::Impl::SelfTestRunner::finish() {
    if (!e_.config.dicom.forwarder.destinations.empty() && wants("PACS")) {
        underWay("PACS", fmt::format("C-ECHO to {} nodes", e_.config.dicom.forwarder.destinations.size()));
        recordStep(pacsStep(e_.config.dicom.forwarder.destinations, e_.config.dicom.forwarder.association));
    }
    underWay({});
    e_.openSession();  // the acquisition session: Ready (streaming refused while blocked)
}

// A step's verdict: logged, announced, and a failure added to what blocks streaming.
void Engine::Impl::SelfTestRunner::recordStep(SelfTestStep step) {
    if (const auto site = e_.config.selfTestBlocking.find(step.step); site != e_.config.selfTestBlocking.end()) step.blocksStreaming = site->second;
    const auto level = step.verdict == SelfTestVerdict::Pass                           ? log::Level::Info
                       : step.verdict == SelfTestVerdict::Fail && step.blocksStreaming ? log::Level::Error
                                                                                       : log::Level::Warn;
    log::log(engineLog(), level, "start-up self-test, {}: {}: {} ({})", step.step, toString(step.verdict), step.figures, step.limit);
    if (step.verdict == SelfTestVerdict::Fail && step.blocksStreaming) {
        e_.tally.update(
            [&](SessionTotals& t) { t.selfTestBlocks.emplace_back(step.step, fmt::format("the start-up {} test failed: {}", step.step, step.figures)); });
    }
    e_.emit(step);
}

void Engine::Impl::SelfTestRunner::underWay(std::string step, std::string detail) { e_.tally.underWay({std::move(step), 0.0, std::move(detail)}); }

// The step under way fails as cancelled and the rest do not run: the session closed (its
// callbacks and timeouts stale from here), the station Ready with streaming blocked.
void Engine::Impl::SelfTestRunner::cancel() {
    const auto step =
        e_.tally.read([](const SessionTotals& t) { return t.selfTestUnderWay.step.empty() ? std::string("self-test") : t.selfTestUnderWay.step; });
    ++e_.generation;
    e_.closeSession();
    letCheckGo();
    SelfTestStep cancelled;
    cancelled.step = step;
    cancelled.verdict = SelfTestVerdict::Fail;
    cancelled.figures = fmt::format("cancelled by {} while it ran; the steps after it did not run", stationUser());
    cancelled.limit = "the self-test runs to its end";
    cancelled.fix = "connect again to run the self-test (or override it, with a reason)";
    recordStep(std::move(cancelled));
    underWay({});
    e_.openSession();
}

void Engine::cancelSelfTest() {
    impl_->ctl->post([impl = impl_.get()] {
        if (impl->state != EngineState::SelfTest) return impl->refuse("cancelSelfTest", ErrorCode::FailedPrecondition, "no self-test runs");
        log::warn(engineLog(), "start-up self-test cancelled by {}", stationUser());
        impl->selfTest->cancel();
    });
}

void Engine::runSelfTest(std::vector<std::string> steps) {
    impl_->ctl->post([impl = impl_.get(), steps = std::move(steps)] {
        if (!impl->config.selfTest) return impl->refuse("runSelfTest", ErrorCode::FailedPrecondition, "this station has no self-test configured");
        if (impl->state != EngineState::Ready && impl->state != EngineState::Idle && impl->state != EngineState::Error) {
            return impl->refuse("runSelfTest", ErrorCode::FailedPrecondition,
                                fmt::format("cannot run the self-test while {}: stop streaming first", toString(impl->state)));
        }
        for (const auto& step : steps) {
            if (!isSelfTestStepName(step)) return impl->refuse("runSelfTest", ErrorCode::InvalidArgument, fmt::format("no self-test step is named '{}'", step));
        }
        log::info(engineLog(), "start-up self-test run again by {}: {}", stationUser(),
                  steps.empty() ? std::string("every step") : fmt::format("{}", fmt::join(steps, ", ")));
        impl->closeSession();
        impl->selfTest->arm(true, steps.empty() ? impl->config.selfTestSteps : steps);
        impl->openSession();
    });
}

void Engine::overrideSelfTest(std::string reason) {
    impl_->ctl->post([impl = impl_.get(), reason = std::move(reason)] {
        auto blocked = impl->tally.streamingBlock();
        if (blocked.empty()) return impl->refuse("overrideSelfTest", ErrorCode::FailedPrecondition, "no failed self-test blocks streaming");
        if (reason.find_first_not_of(" \t\r\n") == std::string::npos) {
            return impl->refuse("overrideSelfTest", ErrorCode::InvalidArgument, "an override needs a reason (it is recorded with who gave it)");
        }
        const auto by = stationUser();
        log::warn(engineLog(), "self-test overridden by {}: {} (it blocked: {})", by, reason, blocked);
        if (impl->audit) {
            if (auto ok = impl->audit->record(dicom::overrideEvent(impl->config.dicom.stationAeTitle, "start-up self-test", reason, blocked)); !ok) {
                impl->report(ErrorOrigin::Engine, Severity::Warning, ok.error(), "audit trail");
            }
        }
        impl->tally.clearSelfTestBlocks();
        impl->emit(SelfTestOverridden{reason, by, std::move(blocked)});
    });
}

void Engine::recordPolicyChange(std::string subject, std::string change, std::string reason) {
    impl_->ctl->post([impl = impl_.get(), subject = std::move(subject), change = std::move(change), reason = std::move(reason)] {
        log::warn(engineLog(), "{} changed by {}: {} (reason: {})", subject, stationUser(), change, reason);
        if (!impl->audit) return;
        if (auto ok = impl->audit->record(dicom::configurationChangeEvent(impl->config.dicom.stationAeTitle, subject, change, reason)); !ok) {
            impl->report(ErrorOrigin::Engine, Severity::Warning, ok.error(), "audit trail");
        }
    });
}

}  // namespace sonolink::engine
