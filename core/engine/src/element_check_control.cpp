// The element check on the ctl thread, after the link BER test: a short session of the front
// end's phantom (RF frames, as fast as the link takes them), its first frames captured
// (FrameCapture), each channel's RMS, SNR and envelope correlation with its neighbours held to
// the limits (selftest::checkElements). A flagged channel fails the step, naming the channel and
// its figures, and blocks streaming. With a phantom reference (Backends::phantomReference), the
// first frame, beamformed there by the display's imager (GPU when present), is held to it: the
// phantom check. Then PACS and the acquisition session.
#include <future>

#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "self_test_runner.h"
#include "sonolink/selftest/element_check.h"
#include "sonolink/selftest/phantom_check.h"

namespace sonolink::engine {
namespace {

std::string describeFlagged(const selftest::ElementCheck& r) {
    std::vector<std::string> named;
    for (const int c : r.flagged()) {
        const auto& ch = r.channels[static_cast<std::size_t>(c)];
        switch (ch.fault) {
            case selftest::ElementFault::Dead:
            case selftest::ElementFault::Weak:
                named.push_back(fmt::format("channel {} {} (RMS {:.1f} counts, {:.1f} % of the median)", c, toString(ch.fault), ch.rms,
                                            r.medianRms > 0 ? 100 * ch.rms / r.medianRms : 0.0));
                break;
            case selftest::ElementFault::Noisy:
                named.push_back(fmt::format("channel {} noisy (SNR {:.1f} dB, {:.1f} dB under the median)", c, ch.snrDb, r.medianSnrDb - ch.snrDb));
                break;
            case selftest::ElementFault::Swapped:
                if (ch.swappedWith > c) {
                    named.push_back(
                        fmt::format("channels {} and {} swapped (their envelopes correlate {:.2f} and {:.2f} with their neighbours, "
                                    "each fits the other's place)",
                                    c, ch.swappedWith, ch.neighbourCorrelation, r.channels[static_cast<std::size_t>(ch.swappedWith)].neighbourCorrelation));
                }
                break;
            case selftest::ElementFault::Uncorrelated:
                named.push_back(fmt::format("channel {} uncorrelated with its neighbours ({:.2f})", c, ch.neighbourCorrelation));
                break;
            case selftest::ElementFault::None: break;
        }
    }
    return fmt::format("{}", fmt::join(named, "; "));
}

SelfTestStep elementStep(const FrameCapture& capture, const beamform::AcquisitionGeometry& g, const ElementCheckSetup& setup, std::uint32_t centreFrequencyHz,
                         bool timedOut, double seconds) {
    SelfTestStep step;
    step.step = "element check";
    step.seconds = seconds;
    const auto& l = setup.limits;
    step.limit = fmt::format(
        "no channel dead (RMS under {:.0f} % of the median), weak (under {:.0f} %), noisy (SNR {:.0f} dB under the "
        "median) or swapped (envelope correlation with its neighbours under {:.1f} x the median)",
        100 * l.deadRmsFraction, 100 * l.weakRmsFraction, l.noisySnrDropDb, l.neighbourCorrelationFraction);
    step.verdict = SelfTestVerdict::Fail;
    if (capture.refused()) {
        step.figures = "the phantom's frames do not fit the configured geometry: " + capture.refused()->message();
        step.fix = "the front end sends another geometry than the one configured: check its firmware and the acquisition settings";
        return step;
    }
    if (capture.captured() < setup.frames) {
        step.figures = fmt::format("{} of {} frames of the phantom arrived{}", capture.captured(), setup.frames,
                                   timedOut ? fmt::format(" in {:.0f} s", seconds) : std::string(" before the session ended"));
        step.fix = "the front end did not send its phantom's frames: check the link (sonolink-cli link diag), then connect again";
        return step;
    }
    selftest::ChannelFrames frames{static_cast<int>(capture.captured()),
                                   g.waves,
                                   g.channels,
                                   g.samples,
                                   capture.samples(),
                                   centreFrequencyHz > 0 ? g.samplingRateHz / centreFrequencyHz : 8.0};
    const auto checked = selftest::checkElements(frames, l);
    if (!checked) {
        step.figures = checked.error().message();
        return step;
    }
    const auto& r = *checked;
    for (const auto& ch : r.channels) step.elements.push_back({ch.rms, ch.snrDb, ch.neighbourCorrelation, toString(ch.fault), ch.swappedWith});
    const auto flagged = r.flagged();
    step.figures = fmt::format(
        "{} frames of the phantom, {} channels: median RMS {:.0f} counts, SNR {}, envelope correlation with the "
        "neighbours {:.2f}; {} flagged",
        frames.frames, g.channels, r.medianRms, r.snrMeasured ? fmt::format("{:.1f} dB", r.medianSnrDb) : std::string("not measured (identical frames)"),
        r.medianCorrelation, flagged.size());
    if (flagged.empty()) {
        step.verdict = SelfTestVerdict::Pass;
        return step;
    }
    step.figures += ": " + describeFlagged(r);
    step.fix =
        "dead or weak: the element, its cable or its receive channel (swap the probe to tell which); noisy: the channel's "
        "preamplifier or a ground fault; swapped: the probe's connector or cable wiring. Do not scan with this probe";
    return step;
}

SelfTestStep phantomStep(const FrameCapture& capture, const ImagingSetup& setup, const Result<PhantomReference>& reference,
                         const selftest::PhantomLimits& limits, const std::string& imager) {
    SelfTestStep step;
    step.step = "phantom check";
    step.limit = fmt::format(
        "NCC of the log envelopes (60 dB) >= {:.2f}; each point target within {:.2f} mm of the reference's peak, "
        "its lateral and axial FWHM within {:.0f} % of the reference's",
        limits.minNcc, limits.maxPositionErrorM * 1e3, 100 * limits.maxFwhmError);
    step.verdict = SelfTestVerdict::Fail;
    step.fix =
        "the image of the known phantom is not what it must be: check the probe's connector (the element order), the probe "
        "definition and sound speed in the configuration, and the front end's timing; then connect again";
    if (!reference) {
        step.figures = "no reference image of the phantom: " + reference.error().message();
        return step;
    }
    if (!capture.image()) {
        step.figures = "no frame of the phantom arrived";
        return step;
    }
    if (!*capture.image()) {
        step.figures = fmt::format("the {} imager could not beamform the phantom: {}", imager, capture.image()->error().message());
        return step;
    }
    const auto& live = **capture.image();
    const std::vector<double> x(setup.grid.x.begin(), setup.grid.x.end()), z(setup.grid.z.begin(), setup.grid.z.end());
    const auto compared = selftest::comparePhantom(
        {live.nx, live.nz, live.columns, x, z}, {reference->envelope.nx, reference->envelope.nz, reference->envelope.columns, x, z}, reference->points, limits);
    if (!compared) {
        step.figures = compared.error().message();
        return step;
    }
    const auto& r = *compared;
    const auto mm = [](double m) { return std::abs(m) < 5e-5 ? 0.0 : m * 1e3; };  // no "-0.0"
    std::vector<std::string> points;
    double worst = 0;
    for (const auto& p : r.points) {
        worst = std::max(worst, p.errorM);
        points.push_back(fmt::format("{}({:.1f}, {:.1f}) mm: {:.2f} mm off, FWHM {:.2f} x {:.2f} mm (reference {:.2f} x {:.2f})", p.passed ? "" : "FAILED ",
                                     mm(p.xM), mm(p.zM), p.errorM * 1e3, p.fwhmLateralM * 1e3, p.fwhmAxialM * 1e3, p.referenceFwhmLateralM * 1e3,
                                     p.referenceFwhmAxialM * 1e3));
    }
    step.figures = fmt::format(
        "the phantom beamformed on the {} imager ({} x {} grid): NCC {:.3f} with the reference; {} point targets, "
        "the farthest {:.2f} mm from its place: {}",
        imager, live.nx, live.nz, r.ncc, r.points.size(), worst * 1e3, fmt::join(points, "; "));
    if (r.passed(limits)) {
        step.verdict = SelfTestVerdict::Pass;
        step.fix.clear();
    }
    return step;
}

// Dual mode: the phantom's laser shot against its reference, the absorbers (the point targets)
// each where it must be; the step fails when no shot arrived or one is off.
void addShotToPhantomStep(SelfTestStep& step, const FrameCapture& shot, const ImagingSetup& setup, const Result<PhantomReference>& reference,
                          const selftest::PhantomLimits& limits) {
    step.limit += "; a laser shot of the phantom too: each absorber within the same distance of the reference shot's peak";
    const auto failed = [&](std::string why) {
        step.figures += "; laser shot: " + why;
        step.verdict = SelfTestVerdict::Fail;
        step.fix =
            "the laser shot of the phantom is not what it must be: check the laser's trigger cable and its PTP time, the "
            "photoacoustic system delay and sound speed (acquisition.photoacoustic_*), and the laser itself; then connect again";
    };
    if (!reference || !reference->shotEnvelope) return failed("no reference shot of the phantom");
    if (!shot.image()) return failed("no shot arrived during the check (the laser did not fire, or every shot was missed)");
    if (!*shot.image()) return failed("it could not be beamformed: " + shot.image()->error().message());
    const auto& live = **shot.image();
    const auto& ref = *reference->shotEnvelope;
    const std::vector<double> x(setup.grid.x.begin(), setup.grid.x.end()), z(setup.grid.z.begin(), setup.grid.z.end());
    selftest::PhantomLimits placesOnly = limits;
    placesOnly.maxFwhmError = 1e9;  // a shot's spot is judged by its place (its width is the aperture's, not the link's)
    const auto compared = selftest::comparePhantom({live.nx, live.nz, live.columns, x, z}, {ref.nx, ref.nz, ref.columns, x, z}, reference->points, placesOnly);
    if (!compared) return failed(compared.error().message());
    double worst = 0;
    for (const auto& p : compared->points) worst = std::max(worst, p.errorM);
    const auto figures = fmt::format("laser shot: NCC {:.3f} with the reference shot; {} absorbers, the farthest {:.2f} mm from its place", compared->ncc,
                                     compared->points.size(), worst * 1e3);
    if (!compared->passed(placesOnly)) return failed(figures.substr(std::string("laser shot: ").size()));
    step.figures += "; " + figures;
}

}  // namespace

void Engine::Impl::SelfTestRunner::openElementCheck() {
    const auto& setup = *e_.config.elementCheck;
    auto options = e_.config.session;
    options.configure.payloadKind = transport::PayloadKind::Rf;  // the front end's phantom
    options.configure.photoacoustic = false;
    options.configure.frameRateMilliHz = 0;  // as fast as the link takes it
    // Dual mode: the phantom check also fires the laser; the session then runs at the frame
    // rate, so that shots (the first a lead time after the start) come among its frames.
    const bool shot = e_.config.shotGeometry && e_.backends.phantomReference && wants("phantom check");
    if (shot) options.configure.frameRateMilliHz = e_.config.session.configure.frameRateMilliHz;
    else options.configure.laserRateMilliHz = 0;  // the elements are checked on ultrasound frames
    log::info(engineLog(), "start-up self-test: element check on {} frames of the phantom", setup.frames);
    underWay(wants("element check") ? "element check" : "phantom check", fmt::format("{} frames of the phantom", setup.frames));
    auto made = e_.sessionLink();
    if (!made) {
        e_.setState(EngineState::Error, made.error().message());
        return e_.report(ErrorOrigin::Link, Severity::Error, made.error());
    }
    preparePhantomCheck(shot);
    started_ = std::chrono::steady_clock::now();
    const auto gen = ++e_.generation;
    // Dual mode: frames enough for the front end's clock to be known and the laser's lead (100 ms),
    // with half a second to spare (a loaded host), and two of its periods more.
    auto frames = setup.frames;
    if (shot && options.configure.laserRateMilliHz > 0) {
        const double seconds = 0.6 + 2e3 / options.configure.laserRateMilliHz;
        frames += static_cast<std::uint32_t>(std::ceil(seconds * options.configure.frameRateMilliHz / 1e3)) + 1;
    }
    Acquisition::Consumers consumers;
    consumers.capture = elementFrames_.get();
    consumers.shotCapture = shotFrames_.get();
    e_.acquisition = std::make_unique<Acquisition>(**made, options, e_.config.rxCpu, consumers, elementCheckCallbacks(gen, frames));
    e_.ctl->postAfter(setup.timeout, [this, gen] { onElementCheckEnded(gen, true); });
}

// The phantom check's imager and its reference, computed on a thread of its own while the
// session runs; in dual mode (`shot`), the laser shot's imager and capture too.
void Engine::Impl::SelfTestRunner::preparePhantomCheck(bool shot) {
    const auto& setup = *e_.config.elementCheck;
    phantomImager_.reset();
    phantomSetup_.reset();
    if (e_.backends.phantomReference && !e_.config.session.configure.photoacoustic) {
        const auto imaging = e_.settingsBoard.imaging.get();
        phantomSetup_ = imagingSetupFor(imaging, e_.config.geometry, e_.config.beamformThreads, e_.config.session.configure.centerFrequencyHz);
        phantomImager_ = e_.imagerFor(*phantomSetup_);
        // The reference on a thread of its own while the session runs: nothing holds up the ctl
        // thread between one session's end and the next one's accept (a front end attaches at once).
        phantomReferenceDue_ = std::async(
            std::launch::async,
            [reference = e_.backends.phantomReference, configure = e_.config.session.configure, geometry = e_.config.geometry, setup = *phantomSetup_,
             shotGeometry = shot ? e_.config.shotGeometry : std::nullopt] { return reference(configure, geometry, setup, shotGeometry); });
    }
    elementFrames_ = std::make_unique<FrameCapture>(e_.config.geometry, setup.frames, phantomImager_.get());
    shotImager_.reset();
    shotFrames_.reset();
    if (shot && phantomSetup_) {
        shotImager_ = e_.imagerFor(*e_.config.shotGeometry, *phantomSetup_);
        shotFrames_ = std::make_unique<FrameCapture>(*e_.config.shotGeometry, 1, shotImager_.get());
    }
}

Acquisition::Callbacks Engine::Impl::SelfTestRunner::elementCheckCallbacks(std::uint64_t gen, std::uint32_t frames) {
    std::weak_ptr<Impl> self = e_.weak_from_this();
    Acquisition::Callbacks callbacks;
    callbacks.opened = [self, gen, frames](const Result<transport::LinkInfo>& opened) {
        if (auto impl = self.lock()) {
            impl->ctl->post([impl, gen, opened, frames] {
                if (gen != impl->generation || impl->state != EngineState::SelfTest) return;
                if (!opened) {
                    impl->closeSession();
                    impl->setState(EngineState::Error, opened.error().message());
                    return impl->report(ErrorOrigin::Link, Severity::Error, Error(opened.error()).addContext("starting the element check"));
                }
                impl->acquisition->go(frames);
            });
        }
    };
    callbacks.ended = [self, gen](const Result<ingest::SessionSummary>&, const ingest::SessionSummary& accounted) {
        if (auto impl = self.lock()) {
            impl->tally.account(accounted);
            impl->ctl->post([impl, gen] { impl->selfTest->onElementCheckEnded(gen, false); });
        }
    };
    return callbacks;
}

void Engine::Impl::SelfTestRunner::onElementCheckEnded(std::uint64_t gen, bool timedOut) {
    if (gen != e_.generation || e_.state != EngineState::SelfTest) return;
    e_.closeSession();  // joins the session: the capture is complete
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    if (wants("element check")) {
        recordStep(elementStep(*elementFrames_, e_.config.geometry, *e_.config.elementCheck, e_.config.session.configure.centerFrequencyHz, timedOut, seconds));
    }
    if (phantomImager_ && wants("phantom check")) {
        const auto started = std::chrono::steady_clock::now();
        const auto reference = phantomReferenceDue_.get();
        auto step = phantomStep(*elementFrames_, *phantomSetup_, reference, e_.config.elementCheck->phantom, phantomImager_->name());
        if (shotFrames_) addShotToPhantomStep(step, *shotFrames_, *phantomSetup_, reference, e_.config.elementCheck->phantom);
        step.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        recordStep(std::move(step));
    }
    letCheckGo();
    finish();
}

void Engine::Impl::SelfTestRunner::letCheckGo() {
    if (phantomReferenceDue_.valid()) phantomReferenceDue_.wait();  // not asked for (--step): still finished before it goes
    phantomReferenceDue_ = {};
    elementFrames_.reset();
    shotFrames_.reset();
    phantomImager_.reset();
    shotImager_.reset();
}

}  // namespace sonolink::engine
