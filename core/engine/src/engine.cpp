// The facade's commands, the state machine and the link sessions (ctl thread), and the engine's
// construction. Recording, export jobs and statistics have their own files.
#include "sonolink/engine/engine.h"

#include <algorithm>
#include <future>

#include <fmt/format.h>

#include "self_test_runner.h"
#include "sonolink/util/log.h"

namespace sonolink::engine {
namespace {

QueueItemState toFacade(dicom::ItemState state) {
    switch (state) {
        case dicom::ItemState::Queued: return QueueItemState::Queued;
        case dicom::ItemState::Sending: return QueueItemState::Sending;
        case dicom::ItemState::Sent: return QueueItemState::Sent;
        case dicom::ItemState::Committed: return QueueItemState::Committed;
        case dicom::ItemState::Failed: return QueueItemState::Failed;
    }
    return QueueItemState::Failed;
}

}  // namespace

log::Category& engineLog() {
    static auto& category = log::category("engine");
    return category;
}

// The one place the display's freeze follows the state: held only while Frozen.
void Engine::Impl::setState(EngineState to, std::string reason) {
    const auto from = state.exchange(to);
    display->setFrozen(to == EngineState::Frozen);
    if (shots) shots->setFrozen(to == EngineState::Frozen);  // freeze holds both kinds
    if (from == to && to != EngineState::Error) return;
    log::info(engineLog(), "{} -> {}{}{}", toString(from), toString(to), reason.empty() ? "" : ": ", reason);
    emit(StateChanged{from, to, std::move(reason)});
}

void Engine::Impl::report(ErrorOrigin origin, Severity severity, const Error& error, std::string source) {
    EngineError e{origin, severity, error.code(), error.message(), std::move(source), error.context(), error.details()};
    if (severity == Severity::Warning) {
        log::warn(engineLog(), "{}", e.describe());
    } else {
        log::error(engineLog(), "{}", e.describe());
    }
    emit(std::move(e));
}

// The link for the next session: the kept one, reset when its session closed, or a new one.
Result<transport::Link*> Engine::Impl::sessionLink() {
    if (!link || !linkFresh) {
        link.reset();
        auto made = backends.makeLink();
        if (!made) return fail(std::move(made.error()));
        link = std::move(*made);
    }
    linkFresh = false;  // this session uses it
    return link->link.get();
}

void Engine::Impl::openSession() {
    if (backends.clusterFeed) return openClusterSession();
    setState(EngineState::Connecting, "bringing the link up");
    if (selfTest->due()) return selfTest->start();  // first the start-up self-test, in a session of its own
    if (nextAcquisition) {                          // new acquisition settings: this session runs them, the imager rebuilt for them
        config.session.configure = nextAcquisition->configure;
        config.geometry = std::move(nextAcquisition->geometry);
        config.shotGeometry = std::move(nextAcquisition->shotGeometry);
        nextAcquisition.reset();
        const auto imaging = settingsBoard.imaging.get();
        const auto setup = imagingSetupFor(imaging, config.geometry, config.beamformThreads, config.session.configure.centerFrequencyHz);
        display->reconfigure(config.geometry, setup, imagerFor(setup));
        reconfigureShots(imaging, true);
    }
    auto sessionLinkMade = sessionLink();
    if (!sessionLinkMade) {
        setState(EngineState::Error, sessionLinkMade.error().message());
        return report(ErrorOrigin::Link, Severity::Error, sessionLinkMade.error());
    }
    const auto session = tally.beginSession();
    display->newSession(session);
    if (shots) shots->newSession(session);
    std::weak_ptr<Impl> self = weak_from_this();
    const auto gen = ++generation;
    Acquisition::Callbacks callbacks;
    callbacks.opened = [self, gen](const Result<transport::LinkInfo>& opened) {
        if (auto impl = self.lock()) impl->ctl->post([impl, gen, opened] { impl->onOpened(gen, opened); });
    };
    callbacks.progress = [self](const ingest::SessionSummary& progress) {
        if (auto impl = self.lock()) {
            impl->display->setClockOffset(progress.clock.offsetNs);
            if (impl->shots) impl->shots->setClockOffset(progress.clock.offsetNs);
            impl->tally.progress(progress);
        }
    };
    callbacks.frontEndError = [self](const transport::ErrorReport& r) {
        if (auto impl = self.lock()) {
            impl->tally.frontEndError(r.text);
            const auto code = r.code <= static_cast<std::uint16_t>(ErrorCode::Internal) ? static_cast<ErrorCode>(r.code) : ErrorCode::Internal;
            impl->ctl->post([impl, code, text = r.text] {  // one event: an error whose origin is the front end
                impl->report(ErrorOrigin::FrontEnd, Severity::Warning, Error(code, "the front end reports: " + text), "front end");
            });
        }
    };
    callbacks.ended = [self, gen](const Result<ingest::SessionSummary>& ended, const ingest::SessionSummary& accounted) {
        if (auto impl = self.lock()) {
            impl->tally.account(accounted);  // before the thread ends: a closed session is counted once it is joined
            impl->ctl->post([impl, gen, ended] { impl->onEnded(gen, ended); });
        }
    };
    Acquisition::Consumers consumers;
    consumers.display = config.display ? display.get() : nullptr;
    consumers.shots = config.display && config.shotGeometry ? shots.get() : nullptr;
    consumers.recording = &recording;
    acquisition = std::make_unique<Acquisition>(**sessionLinkMade, config.session, config.rxCpu, consumers, std::move(callbacks));
}

void Engine::Impl::onOpened(std::uint64_t gen, const Result<transport::LinkInfo>& opened) {
    if (gen != generation || state != EngineState::Connecting) return;  // closed meanwhile
    if (!opened) {
        closeSession();
        setState(EngineState::Error, opened.error().message());
        return report(ErrorOrigin::Link, Severity::Error, opened.error());
    }
    jobsDesk.setFrontEndSerial(opened->peerHello.serial);
    {
        const auto& c = opened->capabilities;
        auto description = opened->localDevice.empty()
                               ? fmt::format("{}, {}", opened->backend, opened->peer)
                               : fmt::format("{} (firmware {}), {} {} MTU {}, {} WRs/QP, {} CQEs, CQ moderation {}, completion timestamps {}", c.device,
                                             c.firmware, c.linkLayer, c.rate, c.activeMtuBytes, c.maxQueuePairWorkRequests, c.maxCompletionQueueEntries,
                                             c.completionModeration ? "yes" : "no", c.completionTimestamps ? "yes" : "no");
        tally.update([&](SessionTotals& t) {
            t.linkDevice = opened->localDevice;
            t.frontEndIdentity = {opened->peerHello.serial, opened->peerHello.firmware};
            t.linkDescription = std::move(description);
        });
    }
    if (!config.selfTest) setState(EngineState::SelfTest, "start-up self-tests: none configured");
    const auto blocked = tally.streamingBlock();
    setState(EngineState::Ready, blocked.empty() ? "link up, front end configured" : "link up, front end configured; streaming blocked: " + blocked);
}

void Engine::Impl::onEnded(std::uint64_t gen, const Result<ingest::SessionSummary>& ended) {
    if (gen != generation) return;  // closed on purpose: counted already
    closeSession();
    if (!ended) {
        setState(EngineState::Error, ended.error().message());
        report(ErrorOrigin::Link, Severity::Error, ended.error());
    } else if (state == EngineState::Streaming || state == EngineState::Frozen) {
        const auto frames = ended->frontEnd.framesAcquired;
        if (config.reopenAfterSession) {
            openSession();  // the front end finished on its own: bring it up again
        } else {
            setState(EngineState::Idle, fmt::format("the front end finished its session ({} frames)", frames));
        }
    }
}

// Stops and joins the acquisition (it has counted itself by then; its ended callback, already
// posted, is stale). A reusable link is reset at once, before anyone hears that the session is
// over, so a front end that attaches from then on finds a fresh one; any other link goes.
void Engine::Impl::closeSession() {
    stopClusterFeed();
    if (acquisition) {
        ++generation;
        acquisition->stop();
        acquisition.reset();
    }
    if (!link || linkFresh) return;
    if (link->reusable && link->link->reset()) {
        linkFresh = true;
    } else {
        link.reset();
    }
}

void Engine::Impl::watchQueue() {
    if (closing) return;
    if (const auto version = queue->version(); version != queueVersionSeen) {
        queueVersionSeen = version;
        emit(QueueChanged{version});
    }
    ctl->postAfter(std::chrono::milliseconds(100), [this] { watchQueue(); });
}

// The PACS side of the configuration: the station (queue, forwarder, commitment listener) when a
// queue is configured; the audit trail whenever a file or syslog is.
Status Engine::Impl::startPacsSide() {
    const auto& d = config.dicom;
    if (!d.audit.file.empty() || !d.audit.syslogHost.empty()) audit = std::make_unique<dicom::AuditTrail>(d.audit);
    if (d.queueDirectory.empty()) return {};
    auto station = dicom::PacsStation::open({d.queueDirectory, d.retry, d.forwarder, d.stationAeTitle, d.listenPort}, *uids, audit.get());
    if (!station) return fail(std::move(station.error()));
    pacs = std::move(*station);
    queue = &pacs->queue();
    forwarder = &pacs->forwarder();
    pacs->start();
    return {};
}

Engine::Impl::Impl() : selfTest(std::make_unique<SelfTestRunner>(*this)) {}

Engine::Impl::~Impl() = default;

Result<std::unique_ptr<Engine>> createEngine(EngineConfig config, Backends backends) {
    if (!backends.makeLink && !backends.clusterFeed) return fail(ErrorCode::InvalidArgument, "the engine needs a link backend or a cluster feed");
    if (auto reasons = problems(config.imaging); !reasons.empty()) {
        Error error(ErrorCode::InvalidArgument, "the imaging settings are out of range");
        for (auto& r : reasons) error.addDetail(std::move(r));
        return fail(std::move(error));
    }
    if (auto ok = config.geometry.validate(); !ok) return fail(std::move(ok.error()).addContext("checking the acquisition geometry"));
    auto impl = std::make_shared<Engine::Impl>();
    impl->config = std::move(config);
    impl->config.session.ingest.checkTestPatterns = true;  // a test pattern's bit errors are the link's BER
    impl->backends = std::move(backends);
    impl->settingsBoard.imaging.replace(impl->config.imaging);
    impl->settingsBoard.acquisition.replace(impl->config.acquisition);
    impl->settingsBoard.photoacoustic.replace(impl->config.photoacoustic);
    if (auto reasons = problems(impl->config.photoacoustic); !reasons.empty()) {
        Error error(ErrorCode::InvalidArgument, "the photoacoustic display settings are out of range");
        for (auto& r : reasons) error.addDetail(std::move(r));
        return fail(std::move(error));
    }
    if (impl->config.shotGeometry) {
        if (auto ok = impl->config.shotGeometry->validate(); !ok) return fail(std::move(ok.error()).addContext("checking the laser shots' geometry"));
    }
    const auto setup =
        imagingSetupFor(impl->config.imaging, impl->config.geometry, impl->config.beamformThreads, impl->config.session.configure.centerFrequencyHz);
    if (auto ok = setup.grid.validate(); !ok) return fail(std::move(ok.error()));
    auto* raw = impl.get();
    auto threadFailed = [raw](const std::string& thread) {
        return [raw, thread](const std::string& what) {
            raw->report(ErrorOrigin::Engine, Severity::Critical, Error(ErrorCode::Internal, fmt::format("{} thread: {}", thread, what)), thread);
        };
    };
    impl->display = std::make_unique<DisplayPipeline>(impl->config.geometry, setup, impl->config.cineFrames,
                                                      impl->config.display ? impl->imagerFor(setup) : nullptr, threadFailed("bf"));
    // Always made: a later acquisition may bring the laser in (its frames reach it only then).
    const auto& shotGeometry = impl->config.shotGeometry ? *impl->config.shotGeometry : impl->config.geometry;
    const auto shotSetup = impl->shotSetupFor(impl->config.imaging, impl->config.photoacoustic);
    impl->shots = std::make_unique<DisplayPipeline>(shotGeometry, shotSetup, impl->config.cineFrames,
                                                    impl->config.display && impl->config.shotGeometry ? impl->imagerFor(shotGeometry, shotSetup) : nullptr,
                                                    threadFailed("bf-shots"));
    impl->dualMode = impl->config.shotGeometry.has_value();
    const auto& root = impl->config.dicom.uidRoot;
    auto uids = dicom::UidGenerator::create(root.empty() ? std::nullopt : std::optional(root));
    if (!uids) return fail(std::move(uids.error()));
    impl->uids.emplace(std::move(*uids));
    if (auto ok = impl->startPacsSide(); !ok) return fail(std::move(ok.error()));
    if (impl->backends.archiveClient && !impl->config.archive.queueDirectory.empty()) {
        auto archive = ArchiveService::start(impl->config.archive, impl->backends.archiveClient);
        if (!archive) return fail(std::move(archive.error()).addContext("starting the archive queue"));
        impl->archive = std::move(*archive);
    }
    impl->ctl = std::make_unique<WorkQueue>("ctl", threadFailed("ctl"));
    impl->jobs = std::make_unique<WorkQueue>("jobs", threadFailed("jobs"));
    impl->queries = std::make_unique<WorkQueue>("queries", threadFailed("queries"));
    if (impl->queue) impl->ctl->post([raw] { raw->watchQueue(); });
    return std::unique_ptr<Engine>(new Engine(std::move(impl)));
}

Engine::~Engine() {
    impl_->closing = true;  // a running export stops between steps; a delivery being followed is left queued
    // ctl closes the session (joining rx) before the pipeline and the queue go.
    std::promise<void> closed;
    impl_->ctl->post([impl = impl_.get(), &closed] {
        impl->closeSession();
        closed.set_value();
    });
    closed.get_future().wait();
    impl_->link.reset();     // after the session: nothing uses it now
    impl_->queries->stop();  // a query in flight ends with its DIMSE timeout at the latest
    impl_->jobs->stop();     // joined: no job runs, or re-posts itself, once the queue goes
    impl_->ctl->stop();
    impl_->queries.reset();
    impl_->jobs.reset();
    impl_->ctl.reset();
    if (auto recorder = impl_->recording.take()) (void)recorder->stop();
    impl_->archive.reset();  // an upload in flight cancelled: its journal resumes it at the next start
    impl_->pacs.reset();     // the forwarder stopped, then the listener
}

void Engine::connect() {
    impl_->ctl->post([impl = impl_.get()] {
        if (impl->state != EngineState::Idle && impl->state != EngineState::Error) return;
        impl->closeSession();
        impl->selfTest->arm(impl->config.selfTest.has_value(), impl->config.selfTestSteps);  // at every start, every step configured
        impl->tally.clearSelfTestBlocks();
        impl->openSession();
    });
}

void Engine::startStreaming(std::uint32_t frames) {
    impl_->ctl->post([impl = impl_.get(), frames] {
        if (impl->state == EngineState::Frozen) return impl->setState(EngineState::Streaming, "live again");
        if (impl->state != EngineState::Ready || (!impl->acquisition && !impl->backends.clusterFeed)) {
            return impl->refuse("startStreaming", ErrorCode::FailedPrecondition, fmt::format("cannot stream while {}", toString(impl->state)));
        }
        if (const auto blocked = impl->tally.streamingBlock(); !blocked.empty()) {
            return impl->refuse("startStreaming", ErrorCode::FailedPrecondition, blocked + "; an engineer may override it, with a reason (overrideSelfTest)");
        }
        if (impl->backends.clusterFeed) return impl->startClusterFeed();
        impl->acquisition->go(frames);
        impl->setState(EngineState::Streaming, "");
    });
}

void Engine::freeze() {
    impl_->ctl->post([impl = impl_.get()] {
        if (impl->state != EngineState::Streaming) return;
        impl->setState(EngineState::Frozen, "image and cine held for review");
    });
}

void Engine::stopStreaming() {
    impl_->ctl->post([impl = impl_.get()] {
        if (impl->state != EngineState::Streaming && impl->state != EngineState::Frozen) return;
        impl->closeSession();
        impl->openSession();
    });
}

void Engine::disconnect() {
    impl_->ctl->post([impl = impl_.get()] {
        impl->closeSession();
        impl->setState(EngineState::Idle, "disconnected");
    });
}

void Engine::startRecording(std::string path) {
    impl_->ctl->post([impl = impl_.get(), path = std::move(path)] { impl->startRecording(path); });
}

void Engine::stopRecording() {
    impl_->ctl->post([impl = impl_.get()] { impl->stopRecording(); });
}

void Engine::setRfChannels(std::vector<int> channels) { impl_->display->setRfChannels(std::move(channels)); }

void Engine::retryQueueItem(std::string id) {
    impl_->jobs->post([impl = impl_.get(), id = std::move(id)] {
        if (!impl->queue) return impl->refuse("retryQueueItem", ErrorCode::FailedPrecondition, "no PACS queue is configured");
        if (auto ok = impl->queue->retry(id); !ok) return impl->report(ErrorOrigin::Command, Severity::Error, ok.error(), "retryQueueItem");
        impl->forwarder->wake();
    });
}

void Engine::withdrawQueueItem(std::string id) {
    impl_->jobs->post([impl = impl_.get(), id = std::move(id)] {
        if (!impl->queue) return impl->refuse("withdrawQueueItem", ErrorCode::FailedPrecondition, "no PACS queue is configured");
        if (auto ok = impl->queue->withdraw(id); !ok) impl->report(ErrorOrigin::Command, Severity::Error, ok.error(), "withdrawQueueItem");
    });
}

Subscription Engine::subscribe(EventSink sink) { return Subscription(impl_->hub, impl_->hub->add(std::move(sink))); }

EngineState Engine::state() const { return impl_->state.load(); }

std::shared_ptr<const DisplayFrame> Engine::latestFrame() const { return impl_->display->latest(); }

std::vector<std::shared_ptr<const DisplayFrame>> Engine::cine() const { return impl_->display->cine(); }

std::shared_ptr<const RfLines> Engine::latestRf() const { return impl_->display->latestRf(); }

EngineStats Engine::stats() const { return impl_->snapshot(); }

std::vector<QueueItem> Engine::dicomQueue() const {
    if (!impl_->queue) return {};
    std::vector<QueueItem> out;
    for (const auto& i : impl_->queue->items()) {
        out.push_back({i.id, i.node, i.sourceFile, i.object.patientName, i.object.sopInstanceUid, toFacade(i.state), i.attempts, i.enqueuedAtMs,
                       i.nextAttemptAtMs, i.sentAtMs, i.committedAtMs, i.lastError, i.commitmentRequired});
    }
    return out;
}

void Engine::retryArchiveItem(std::int64_t id) {
    impl_->ctl->post([impl = impl_.get(), id] {
        if (!impl->archive) return impl->refuse("retryArchiveItem", ErrorCode::FailedPrecondition, "no archive is configured");
        if (auto ok = impl->archive->retry(id); !ok) impl->refuse("retryArchiveItem", ok.error().code(), ok.error().message());
    });
}

namespace {
ArchiveItemState toFacade(archive::ArchiveState state) {
    switch (state) {
        case archive::ArchiveState::Queued: return ArchiveItemState::Queued;
        case archive::ArchiveState::Uploading: return ArchiveItemState::Uploading;
        case archive::ArchiveState::Verified: return ArchiveItemState::Verified;
        case archive::ArchiveState::Failed: return ArchiveItemState::Failed;
    }
    return ArchiveItemState::Queued;
}
}  // namespace

bool Engine::hasArchive() const { return impl_->archive != nullptr; }

std::vector<ArchiveItem> Engine::archiveQueue() const {
    if (!impl_->archive) return {};
    std::vector<ArchiveItem> out;
    for (const auto& i : impl_->archive->items()) {
        out.push_back({i.id, i.file, i.object.url(), i.kind, toFacade(i.state), i.attempts, i.sizeBytes, i.enqueuedAtMs, i.nextAttemptAtMs, i.verifiedAtMs,
                       i.localDeletedAtMs, i.lastError});
    }
    return out;
}

void Engine::Impl::archiveFile(const std::string& file, const std::string& kind) {
    if (!archive || (kind == "recording" && !config.archive.recordings) || (kind == "study" && !config.archive.studies)) return;
    if (auto item = archive->enqueue(file, kind); !item) {
        report(ErrorOrigin::Export, Severity::Warning, Error(item.error()).addContext(fmt::format("queuing {} for the archive", file)), file);
    }
}

}  // namespace sonolink::engine
