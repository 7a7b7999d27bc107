#include "sonolink/engine/engine.h"

#include <filesystem>
#include <future>
#include <map>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "acquisition.h"
#include "display_pipeline.h"
#include "metrics_server.h"
#include "recording_tap.h"
#include "work_queue.h"
#include "sonolink/dicom/dicom_time.h"
#include "sonolink/dicom/us_image_writer.h"
#include "sonolink/util/log.h"

namespace sonolink::engine {

std::string_view toString(EngineState state) {
    switch (state) {
        case EngineState::Idle: return "idle";
        case EngineState::Connecting: return "connecting";
        case EngineState::SelfTest: return "self-test";
        case EngineState::Ready: return "ready";
        case EngineState::Streaming: return "streaming";
        case EngineState::Frozen: return "frozen";
        case EngineState::Error: return "error";
    }
    return "?";
}

std::string_view toString(JobStatus status) {
    switch (status) {
        case JobStatus::Running: return "running";
        case JobStatus::Done: return "done";
        case JobStatus::Failed: return "failed";
        case JobStatus::Cancelled: return "cancelled";
    }
    return "?";
}

namespace {

// A value the front end sent, made a valid DICOM LO: at most 64 characters, none a backslash or
// a control character (each such replaced by '_').
std::string dicomLongString(std::string text) {
    if (text.size() > 64) text.resize(64);
    for (auto& c : text) {
        if (static_cast<unsigned char>(c) < 0x20 || c == '\\' || c == 0x7f) c = '_';
    }
    return text;
}

log::Category& logCategory() {
    static auto& category = log::category("engine");
    return category;
}

}  // namespace

struct Engine::Impl : std::enable_shared_from_this<Impl> {
    EngineConfig config;
    Backends backends;
    std::atomic<EngineState> state{EngineState::Idle};

    std::mutex sinksMutex;
    std::mutex emitMutex;  // one emission at a time; unsubscribe from another thread waits for it
    std::atomic<std::thread::id> emittingThread{};  // the thread inside emit(), if any
    std::map<std::uint64_t, EventSink> sinks;
    std::uint64_t nextSink = 1;

    std::unique_ptr<DisplayPipeline> display;
    RecordingTap recording;
    std::unique_ptr<Acquisition> acquisition;  // ctl thread only
    std::uint64_t generation = 0;              // of the acquisition; callbacks of older ones are stale
    std::atomic<std::uint64_t> sessions{0};

    mutable std::mutex statsMutex;             // the ingest counters (the rx thread takes it per progress report)
    mutable std::mutex samplingMutex;          // the marks of stats()' rates, read from /proc outside statsMutex
    mutable ThreadCpuMeter cpuMeter;           // under samplingMutex
    mutable double lastImagerSeconds = 0;      // under samplingMutex: the imager's time at the last stats()
    mutable std::chrono::steady_clock::time_point lastStatsTime = std::chrono::steady_clock::now();
    ingest::IngestStats finished;             // sessions that ended
    ingest::SessionSummary current;           // the streaming session's last progress
    std::chrono::nanoseconds finishedElapsed{0};
    std::uint64_t recordedBefore = 0, refusedBefore = 0;

    std::unique_ptr<dicom::StoreQueue> queue;
    std::unique_ptr<dicom::AuditTrail> audit;
    std::unique_ptr<dicom::StoreForwarder> forwarder;
    std::unique_ptr<dicom::CommitmentListener> listener;
    std::optional<dicom::UidGenerator> uids;

    std::mutex jobsMutex;
    std::string frontEndSerial;        // under jobsMutex: of the last session opened
    std::atomic<bool> closing{false};  // the engine goes: queued items stay queued for the next start
    std::map<JobId, std::shared_ptr<std::atomic<bool>>> cancels;
    JobId nextJob = 1;

    std::unique_ptr<MetricsServer> metrics;

    // Declared last: destroyed first, so no work runs on the members above once they go.
    std::unique_ptr<WorkQueue> jobs;
    std::unique_ptr<WorkQueue> ctl;

    // Events reach sinks one at a time, in order, with no other engine lock held; a sink may drop
    // subscriptions (its own too): one dropped during this event is not called for it.
    void emit(const EngineEvent& event) {
        std::lock_guard emitting(emitMutex);
        emittingThread = std::this_thread::get_id();
        struct Done {
            std::atomic<std::thread::id>& thread;
            ~Done() { thread = std::thread::id{}; }  // also when a sink throws
        } done{emittingThread};
        std::vector<std::pair<std::uint64_t, EventSink>> copy;
        {
            std::lock_guard lock(sinksMutex);
            copy.assign(sinks.begin(), sinks.end());
        }
        for (const auto& [id, sink] : copy) {
            {
                std::lock_guard lock(sinksMutex);
                if (!sinks.contains(id)) continue;
            }
            sink(event);
        }
    }

    // The one place the display's freeze follows the state: held only while Frozen.
    void setState(EngineState to, std::string reason) {
        const auto from = state.exchange(to);
        display->setFrozen(to == EngineState::Frozen);
        if (from == to && to != EngineState::Error) return;
        log::info(logCategory(), "{} -> {}{}{}", toString(from), toString(to), reason.empty() ? "" : ": ", reason);
        emit(StateChanged{from, to, std::move(reason)});
    }

    void error(ErrorCode code, std::string message) {
        log::error(logCategory(), "{}", message);
        emit(EngineError{code, std::move(message)});
    }

    // ctl thread from here on.
    void openSession() {
        setState(EngineState::Connecting, "bringing the link up");
        auto link = backends.makeLink();
        if (!link) return setState(EngineState::Error, link.error().message());
        display->newSession(sessions.fetch_add(1) + 1);
        std::weak_ptr<Impl> self = weak_from_this();
        const auto gen = ++generation;
        Acquisition::Callbacks callbacks;
        callbacks.opened = [self, gen](const Result<std::string>& opened) {
            if (auto impl = self.lock()) impl->ctl->post([impl, gen, opened] { impl->onOpened(gen, opened); });
        };
        callbacks.progress = [self](const ingest::SessionSummary& progress) {
            if (auto impl = self.lock()) {
                std::lock_guard lock(impl->statsMutex);
                impl->current = progress;
            }
        };
        callbacks.ended = [self, gen](const Result<ingest::SessionSummary>& ended) {
            if (auto impl = self.lock()) impl->ctl->post([impl, gen, ended] { impl->onEnded(gen, ended); });
        };
        acquisition = std::make_unique<Acquisition>(std::move(*link), config.session, config.imaging.enabled ? display.get() : nullptr, recording,
                                                    std::move(callbacks));
    }

    void onOpened(std::uint64_t gen, const Result<std::string>& opened) {
        if (gen != generation || state != EngineState::Connecting) return;  // closed meanwhile
        if (!opened) {
            acquisition.reset();
            return setState(EngineState::Error, opened.error().message());
        }
        {
            std::lock_guard lock(jobsMutex);
            frontEndSerial = *opened;
        }
        // The start-up self-tests (link BER, memory) run here once they exist.
        setState(EngineState::SelfTest, "start-up self-tests: none configured");
        setState(EngineState::Ready, "link up, front end configured");
    }

    void onEnded(std::uint64_t gen, const Result<ingest::SessionSummary>& ended) {
        {
            std::lock_guard lock(statsMutex);
            finished += ended ? ended->stats : current.stats;
            finishedElapsed += ended ? ended->elapsed : current.elapsed;
            current = {};
        }
        if (gen != generation) return;  // closed on purpose: nothing else to do
        acquisition.reset();
        if (!ended) {
            setState(EngineState::Error, ended.error().message());
        } else if (state == EngineState::Streaming || state == EngineState::Frozen) {
            openSession();  // the front end finished on its own: bring it up again
        }
    }

    // Stops and joins the acquisition; its ended callback, already posted, only counts.
    void closeSession() {
        if (!acquisition) return;
        ++generation;
        acquisition->stop();
        acquisition.reset();
    }

    // Export jobs (jobs thread): write and queue, then follow the item in short delayed checks,
    // so that a job waiting on a PACS never holds up the jobs queued after it.
    void runExport(JobId id, CineExportRequest request, std::shared_ptr<std::atomic<bool>> cancelled);
    void followDelivery(JobId id, std::string file, std::string itemId, std::shared_ptr<std::atomic<bool>> cancelled);
    void jobUpdate(JobId id, JobStatus status, double progress, std::string message) {
        emit(JobUpdate{id, "dicom-export", status, progress, std::move(message)});
    }
    void jobFinish(JobId id, JobStatus status, double progress, std::string message) {
        jobUpdate(id, status, progress, std::move(message));
        std::lock_guard lock(jobsMutex);
        cancels.erase(id);
    }
    [[nodiscard]] EngineStats snapshot(bool sampleRates) const;
};

Subscription& Subscription::operator=(Subscription&& other) noexcept {
    if (this != &other) {
        Subscription dropped(std::move(*this));
        impl_ = std::move(other.impl_);
        id_ = std::exchange(other.id_, 0);
    }
    return *this;
}

Subscription::~Subscription() {
    auto impl = impl_.lock();
    if (!impl || !id_) return;
    if (impl->emittingThread.load() == std::this_thread::get_id()) {  // from inside a sink: emit() skips it
        std::lock_guard lock(impl->sinksMutex);
        impl->sinks.erase(id_);
        return;
    }
    std::lock_guard emitting(impl->emitMutex);  // once this returns, the sink is not running and never will
    std::lock_guard lock(impl->sinksMutex);
    impl->sinks.erase(id_);
}

Result<std::unique_ptr<Engine>> Engine::create(EngineConfig config, Backends backends) {
    if (!backends.makeLink) return fail(ErrorCode::InvalidArgument, "the engine needs a link backend");
    if (auto ok = config.imaging.grid.validate(); !ok) return fail(std::move(ok.error()));
    auto impl = std::make_shared<Impl>();
    impl->config = std::move(config);
    impl->backends = std::move(backends);
    impl->display = std::make_unique<DisplayPipeline>(impl->config.geometry, impl->config.imaging, impl->config.cineFrames,
                                                      std::move(impl->backends.imager));
    auto& d = impl->config.dicom;
    auto uids = dicom::UidGenerator::create(d.uidRoot.empty() ? std::nullopt : std::optional(d.uidRoot));
    if (!uids) return fail(std::move(uids.error()));
    impl->uids.emplace(std::move(*uids));
    if (!d.queueDirectory.empty()) {
        auto queue = dicom::StoreQueue::open(d.queueDirectory, d.retry);
        if (!queue) return fail(std::move(queue.error()));
        impl->queue = std::move(*queue);
        impl->audit = std::make_unique<dicom::AuditTrail>(d.audit);
        impl->forwarder = std::make_unique<dicom::StoreForwarder>(*impl->queue, d.forwarder, *impl->uids, impl->audit.get());
        const bool commitment = std::any_of(d.forwarder.destinations.begin(), d.forwarder.destinations.end(),
                                            [](const auto& destination) { return destination.storageCommitment; });
        if (commitment) {
            auto* forwarder = impl->forwarder.get();
            auto listener = dicom::CommitmentListener::start(d.listenPort, d.forwarder.association.callingAeTitle,
                                                             [forwarder](const dicom::CommitmentReport& r) { forwarder->applyReport(r); });
            if (!listener) return fail(std::move(listener.error()));
            impl->listener = std::move(*listener);
        }
        impl->forwarder->start();
    }
    impl->ctl = std::make_unique<WorkQueue>("ctl");
    impl->jobs = std::make_unique<WorkQueue>("jobs");
    std::unique_ptr<Engine> engine(new Engine(std::move(impl)));
    if (engine->impl_->config.metricsPort >= 0) {
        auto* e = engine.get();
        auto server = MetricsServer::start(engine->impl_->config.metricsPort, [e] { return e->metricsText(); });
        if (!server) return fail(std::move(server.error()));
        engine->impl_->metrics = std::move(*server);
    }
    return engine;
}

Engine::~Engine() {
    impl_->metrics.reset();  // no scrape reads the engine while it goes
    impl_->closing = true;  // a running export stops between steps; a delivery being followed is left queued
    // ctl closes the session (joining rx) before the pipeline and the queue go.
    std::promise<void> closed;
    impl_->ctl->post([impl = impl_.get(), &closed] {
        impl->closeSession();
        closed.set_value();
    });
    closed.get_future().wait();
    impl_->jobs->stop();  // joined: no job runs, or re-posts itself, once the queue goes
    impl_->jobs.reset();
    impl_->ctl.reset();
    if (auto recorder = impl_->recording.take()) (void)recorder->stop();
    if (impl_->forwarder) impl_->forwarder->stop();
    impl_->listener.reset();
}

void Engine::connect() {
    impl_->ctl->post([impl = impl_.get()] {
        if (impl->state != EngineState::Idle && impl->state != EngineState::Error) return;
        impl->closeSession();
        impl->openSession();
    });
}

void Engine::startStreaming() {
    impl_->ctl->post([impl = impl_.get()] {
        if (impl->state == EngineState::Frozen) {
            return impl->setState(EngineState::Streaming, "live again");
        }
        if (impl->state != EngineState::Ready || !impl->acquisition) {
            return impl->error(ErrorCode::FailedPrecondition, fmt::format("cannot stream while {}", toString(impl->state)));
        }
        impl->acquisition->go();
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
    impl_->ctl->post([impl = impl_.get(), path] {
        if (impl->recording.current()) return impl->error(ErrorCode::FailedPrecondition, "already recording");
        auto recorder = record::Recorder::start(path, impl->config.geometry);
        if (!recorder) return impl->error(recorder.error().code(), recorder.error().message());
        impl->recording.set(std::shared_ptr<record::Recorder>(std::move(*recorder)));
    });
}

void Engine::stopRecording() {
    impl_->ctl->post([impl = impl_.get()] {
        auto recorder = impl->recording.take();
        if (!recorder) return;
        auto stopped = recorder->stop();
        {
            std::lock_guard lock(impl->statsMutex);
            impl->recordedBefore += recorder->framesRecorded();
            impl->refusedBefore += recorder->framesRefused();
        }
        if (!stopped) impl->error(stopped.error().code(), "recording failed: " + stopped.error().message());
    });
}

void Engine::setRfChannels(std::vector<int> channels) { impl_->display->setRfChannels(std::move(channels)); }

std::shared_ptr<const RfLines> Engine::latestRf() const { return impl_->display->latestRf(); }

JobId Engine::exportCine(CineExportRequest request) {
    auto cancelled = std::make_shared<std::atomic<bool>>(false);
    JobId id = 0;
    {
        std::lock_guard lock(impl_->jobsMutex);
        id = impl_->nextJob++;
        impl_->cancels[id] = cancelled;
    }
    impl_->jobs->post([impl = impl_.get(), id, request = std::move(request), cancelled] { impl->runExport(id, request, cancelled); });
    return id;
}

void Engine::cancel(JobId job) {
    std::lock_guard lock(impl_->jobsMutex);
    if (auto it = impl_->cancels.find(job); it != impl_->cancels.end()) it->second->store(true);
}

void Engine::Impl::runExport(JobId id, CineExportRequest request, std::shared_ptr<std::atomic<bool>> cancelledByUser) {
    auto cancelled = [&] { return cancelledByUser->load() || closing.load(); };
    if (cancelled()) return jobFinish(id, JobStatus::Cancelled, 0, "cancelled before it started");
    jobUpdate(id, JobStatus::Running, 0, "collecting the cine");
    const auto frames = display->cine();
    if (frames.empty()) return jobFinish(id, JobStatus::Failed, 0, "the cine is empty: stream first");
    dicom::UsCineObject cine;
    auto& c = cine.context;
    c.patient = request.patient;
    c.study = {uids->next(), "1", "", "", "", "", ""};
    c.series = {uids->next(), 1, "ABDOMEN"};
    c.equipment = config.dicom.equipment;
    if (c.equipment.deviceSerialNumber.empty()) {
        std::lock_guard lock(jobsMutex);
        c.equipment.deviceSerialNumber = dicomLongString(frontEndSerial);  // the system's serial is its front end's
    }
    c.sopInstanceUid = uids->next();
    const auto now = dicom::dicomDateTimeNow();
    c.study.date = c.contentDate = now.date;
    c.study.time = c.contentTime = now.time;
    for (const auto& f : frames) {
        if (cancelled()) return jobFinish(id, JobStatus::Cancelled, 0.1, "cancelled");
        cine.frames.push_back({f->rows, f->columns, f->pixels, f->cmPerPixelX, f->cmPerPixelY, "ABDOMINAL", 1});
    }
    const double spanMs = frames.size() > 1 ? static_cast<double>(frames.back()->readyNs - frames.front()->readyNs) / 1e6 / static_cast<double>(frames.size() - 1) : 0;
    cine.frameTimeMs = request.frameTimeMs > 0 ? request.frameTimeMs : spanMs > 0 ? spanMs : 1000.0 / 30;
    jobUpdate(id, JobStatus::Running, 0.3, fmt::format("writing {} frames", frames.size()));
    if (auto ok = dicom::writeUsCine(request.file, cine); !ok) return jobFinish(id, JobStatus::Failed, 0.3, ok.error().message());
    if (cancelled()) {
        std::filesystem::remove(request.file);
        return jobFinish(id, JobStatus::Cancelled, 0.6, "cancelled");
    }
    if (request.node.empty()) return jobFinish(id, JobStatus::Done, 1, request.file);
    if (!queue) return jobFinish(id, JobStatus::Failed, 0.6, "no PACS queue is configured");
    auto item = queue->enqueue(request.file, request.node,
                               std::any_of(config.dicom.forwarder.destinations.begin(), config.dicom.forwarder.destinations.end(),
                                           [&](const auto& d) { return d.name == request.node && d.storageCommitment; }));
    if (!item) return jobFinish(id, JobStatus::Failed, 0.6, item.error().message());
    forwarder->wake();
    jobUpdate(id, JobStatus::Running, 0.7, fmt::format("queued for {} as item {}", request.node, item->id));
    followDelivery(id, request.file, item->id, std::move(cancelledByUser));
}

// Until the PACS has it (and committed it, where asked), it fails, or the user gives up.
void Engine::Impl::followDelivery(JobId id, std::string file, std::string itemId, std::shared_ptr<std::atomic<bool>> cancelled) {
    if (closing) return;  // not a user's cancel: the item stays queued
    const auto item = queue->item(itemId);
    if (!item) return jobFinish(id, JobStatus::Failed, 0.7, fmt::format("item {} is no longer in the queue", itemId));
    const bool done = item->state == dicom::ItemState::Committed || (item->state == dicom::ItemState::Sent && !item->commitmentRequired);
    if (done) return jobFinish(id, JobStatus::Done, 1, fmt::format("{} ({} {})", file, item->node, dicom::toString(item->state)));
    if (item->state == dicom::ItemState::Failed) return jobFinish(id, JobStatus::Failed, 0.7, item->lastError);
    if (cancelled->load()) {
        if (queue->withdraw(itemId)) return jobFinish(id, JobStatus::Cancelled, 0.7, fmt::format("cancelled; item {} withdrawn from the queue", itemId));
        if (item->state == dicom::ItemState::Sent) {  // at the PACS, awaiting its commitment: nothing to take back
            cancelled->store(false);
            jobUpdate(id, JobStatus::Running, 0.8, fmt::format("too late to cancel: item {} is already at {}", itemId, item->node));
        }
        // Being sent: the cancel waits; a failed attempt puts the item back in the queue and the
        // next check withdraws it, a successful one ends the job as done.
    }
    jobs->postAfter(std::chrono::milliseconds(50), [this, id, file = std::move(file), itemId = std::move(itemId), cancelled = std::move(cancelled)] {
        followDelivery(id, file, itemId, cancelled);
    });
}

Subscription Engine::subscribe(EventSink sink) {
    std::lock_guard lock(impl_->sinksMutex);
    const auto id = impl_->nextSink++;
    impl_->sinks[id] = std::move(sink);
    return Subscription(impl_, id);
}

EngineState Engine::state() const { return impl_->state.load(); }

std::shared_ptr<const DisplayFrame> Engine::latestFrame() const { return impl_->display->latest(); }

std::vector<std::shared_ptr<const DisplayFrame>> Engine::cine() const { return impl_->display->cine(); }

EngineStats Engine::stats() const { return impl_->snapshot(/*sampleRates=*/true); }

// sampleRates: also the shares since the previous sampling call (thread CPU, imager busy), which
// moves that call's mark; a Prometheus scrape does not, so it never shortens a GUI's interval.
EngineStats Engine::Impl::snapshot(bool sampleRates) const {
    EngineStats s;
    s.state = state.load();
    ingest::IngestStats total;
    std::chrono::nanoseconds elapsed{0};
    {
        std::lock_guard lock(statsMutex);
        total = finished;
        total += current.stats;
        elapsed = finishedElapsed + current.elapsed;
        s.framesRecorded = recordedBefore;
        s.framesRecordRefused = refusedBefore;
    }
    if (sampleRates) {
        std::lock_guard lock(samplingMutex);
        s.threads = cpuMeter.sample();
        const auto now = std::chrono::steady_clock::now();
        const double imagerSeconds = display->imagerSeconds();
        const double wall = std::chrono::duration<double>(now - lastStatsTime).count();
        s.imagerBusyPercent = wall > 0 ? 100.0 * (imagerSeconds - lastImagerSeconds) / wall : 0;
        lastImagerSeconds = imagerSeconds;
        lastStatsTime = now;
    }
    s.imager = display->imagerName();
    if (const auto imaged = display->imagedFrames(); imaged > 0) s.imagerMsPerFrame = 1e3 * display->imagerSeconds() / static_cast<double>(imaged);
    if (auto recorder = recording.current()) {
        s.framesRecorded += recorder->framesRecorded();
        s.framesRecordRefused += recorder->framesRefused();
    }
    s.framesDelivered = total.framesDelivered;
    s.framesIncomplete = total.framesIncomplete;
    s.framesMissing = total.framesMissing;
    s.framesDroppedNoBuffer = total.framesDroppedNoBuffer;
    s.crcErrors = total.payloadCrcErrors;
    s.headerErrors = total.headerErrors;
    s.bytes = total.bytesOk;
    s.framesDisplayed = display->displayed();
    s.displaySkipped = display->skipped();
    const double seconds = std::chrono::duration<double>(elapsed).count();
    s.throughputGbps = seconds > 0 ? static_cast<double>(total.bytesOk) * 8 / seconds / 1e9 : 0;
    s.displayFps = seconds > 0 ? static_cast<double>(s.framesDisplayed) / seconds : 0;
    const auto latency = display->latency();
    s.latencyP50Us = latency.percentile(0.5) / 1e3;
    s.latencyP99Us = latency.percentile(0.99) / 1e3;
    s.sessions = sessions.load();
    return s;
}

std::optional<int> Engine::metricsPort() const {
    if (!impl_->metrics) return std::nullopt;
    return impl_->metrics->port();
}

std::string Engine::metricsText() const {
    const auto s = impl_->snapshot(/*sampleRates=*/false);
    std::string out;
    auto metric = [&](const char* name, const char* type, const char* help, double value) {
        out += fmt::format("# HELP sonolink_{0} {1}\n# TYPE sonolink_{0} {2}\nsonolink_{0} {3}\n", name, help, type, value);
    };
    metric("frames_delivered_total", "counter", "Frames delivered intact by ingest.", static_cast<double>(s.framesDelivered));
    metric("frames_incomplete_total", "counter", "Frames with blocks missing or rejected.", static_cast<double>(s.framesIncomplete));
    metric("frames_missing_total", "counter", "Frames of which no block arrived.", static_cast<double>(s.framesMissing));
    metric("frames_dropped_no_buffer_total", "counter", "Frames dropped because consumers held every buffer.", static_cast<double>(s.framesDroppedNoBuffer));
    metric("crc_errors_total", "counter", "Blocks whose payload failed its CRC-32C.", static_cast<double>(s.crcErrors));
    metric("header_errors_total", "counter", "Blocks whose header failed its checks.", static_cast<double>(s.headerErrors));
    metric("payload_bytes_total", "counter", "Payload bytes of intact blocks.", static_cast<double>(s.bytes));
    metric("frames_displayed_total", "counter", "Frames beamformed and published.", static_cast<double>(s.framesDisplayed));
    metric("display_skipped_total", "counter", "Frames a newer one replaced before the display took them (lossy by design).", static_cast<double>(s.displaySkipped));
    metric("frames_recorded_total", "counter", "Frames written to the recording.", static_cast<double>(s.framesRecorded));
    metric("frames_record_refused_total", "counter", "Frames the recorder could not take (recording failed).", static_cast<double>(s.framesRecordRefused));
    metric("latency_p50_seconds", "gauge", "Last block written to image published, median.", s.latencyP50Us / 1e6);
    metric("latency_p99_seconds", "gauge", "Last block written to image published, 99th percentile.", s.latencyP99Us / 1e6);
    metric("sessions_total", "counter", "Link sessions (a reconnect adds one).", static_cast<double>(s.sessions));
    metric("imager_seconds_total", "counter", "Time the display imager (CPU or GPU) spent on frames.", impl_->display->imagerSeconds());
    out += "# HELP sonolink_state The engine's state (1 for the current one).\n# TYPE sonolink_state gauge\n";
    for (auto state : {EngineState::Idle, EngineState::Connecting, EngineState::SelfTest, EngineState::Ready, EngineState::Streaming,
                       EngineState::Frozen, EngineState::Error}) {
        out += fmt::format("sonolink_state{{state=\"{}\"}} {}\n", toString(state), state == s.state ? 1 : 0);
    }
    out += "# HELP sonolink_thread_cpu_seconds_total CPU time per named thread.\n# TYPE sonolink_thread_cpu_seconds_total counter\n";
    for (const auto& t : threadCpuTimes()) out += fmt::format("sonolink_thread_cpu_seconds_total{{thread=\"{}\"}} {}\n", t.name, t.cpuSeconds);
    if (impl_->queue) {
        std::map<std::string, int> byState;
        for (const auto& item : impl_->queue->items()) ++byState[std::string(dicom::toString(item.state))];
        out += "# HELP sonolink_dicom_queue_items PACS queue items by state.\n# TYPE sonolink_dicom_queue_items gauge\n";
        for (const auto& [state, count] : byState) out += fmt::format("sonolink_dicom_queue_items{{state=\"{}\"}} {}\n", state, count);
    }
    return out;
}

std::vector<dicom::QueueItem> Engine::dicomQueue() const {
    if (!impl_->queue) return {};
    return impl_->queue->items();
}

}  // namespace sonolink::engine
