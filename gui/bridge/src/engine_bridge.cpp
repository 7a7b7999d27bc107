#include "sonolink/gui/bridge/engine_bridge.h"

#include <QDateTime>
#include <QMetaObject>
#include <QPointer>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "sonolink/engine/shot_picture.h"
#include "sonolink/gui/views/engine_text.h"

namespace sonolink::gui {
namespace {

QString text(std::string_view view) { return QString::fromUtf8(view.data(), static_cast<qsizetype>(view.size())); }

QString originWord(engine::ErrorOrigin origin) {
    switch (origin) {
        case engine::ErrorOrigin::Command: return EngineBridge::tr("command");
        case engine::ErrorOrigin::Link: return EngineBridge::tr("link");
        case engine::ErrorOrigin::FrontEnd: return EngineBridge::tr("front end");
        case engine::ErrorOrigin::Recorder: return EngineBridge::tr("recorder");
        case engine::ErrorOrigin::Pacs: return EngineBridge::tr("PACS");
        case engine::ErrorOrigin::Export: return EngineBridge::tr("export");
        case engine::ErrorOrigin::Imager: return EngineBridge::tr("imager");
        case engine::ErrorOrigin::Engine: return EngineBridge::tr("engine");
    }
    return text(engine::toString(origin));
}

QString severityWord(engine::Severity severity) {
    switch (severity) {
        case engine::Severity::Warning: return EngineBridge::tr("warning");
        case engine::Severity::Error: return EngineBridge::tr("error");
        case engine::Severity::Critical: return EngineBridge::tr("critical");
    }
    return text(engine::toString(severity));
}

// An engine error as the status bar says it (EngineError::describe()'s order), in the user's
// language: origin, severity and the command or part it came from; the code as the engine names
// it; the message, what was being done and the details translated where the catalogue knows them.
QString problemText(const engine::EngineError& e) {
    const auto code = text(sonolink::toString(e.code)), message = engineText(QString::fromStdString(e.message));
    QString out = e.source.empty() ? EngineBridge::tr("%1 %2: %3: %4").arg(originWord(e.origin), severityWord(e.severity), code, message)
                                   : EngineBridge::tr("%1 %2 in %3: %4: %5").arg(originWord(e.origin), severityWord(e.severity),
                                                                                 QString::fromStdString(e.source), code, message);
    for (const auto& c : e.context) out += EngineBridge::tr(" (while %1)").arg(engineText(QString::fromStdString(c)));
    for (const auto& d : e.details) out += QStringLiteral("; ") + engineText(QString::fromStdString(d));
    return out;
}

SelfTestResult resultOf(const engine::SelfTestStep& s) {
    SelfTestResult r;
    r.step = QString::fromStdString(s.step);
    r.verdict = text(engine::toString(s.verdict));
    r.figures = engineText(QString::fromStdString(s.figures));
    r.limit = engineText(QString::fromStdString(s.limit));
    r.fix = engineText(QString::fromStdString(s.fix));
    r.blocksStreaming = s.blocksStreaming;
    r.seconds = s.seconds;
    r.bitsChecked = s.bitsChecked;
    r.bitErrors = s.bitErrors;
    r.lockLosses = s.lockLosses;
    r.crcErrors = s.crcErrors;
    r.ber = s.ber;
    r.berUpperBound = s.berUpperBound;
    for (const auto& e : s.elements) r.elements.push_back({e.rms, e.snrDb, e.neighbourCorrelation, QString::fromStdString(e.fault), e.swappedWith});
    return r;
}

QString q(const std::string& s) { return QString::fromStdString(s); }

engine::Exam examOf(const ExamEntry& e) {
    engine::Exam x;
    x.patient.name = pnOf(e).toStdString();
    x.patient.id = e.id.toStdString();
    x.patient.birthDate = e.birthDate.isValid() ? e.birthDate.toString("yyyyMMdd").toStdString() : std::string();
    x.patient.sex = e.sex.toStdString();
    x.studyInstanceUid = e.studyInstanceUid.toStdString();
    x.accessionNumber = e.accessionNumber.toStdString();
    x.referringPhysician = e.referringPhysician.toStdString();
    x.studyDescription = e.studyDescription.toStdString();
    x.bodyPart = e.bodyPart.toStdString();
    x.requestedProcedureId = e.requestedProcedureId.toStdString();
    x.requestedProcedureDescription = e.requestedProcedureDescription.toStdString();
    x.scheduledProcedureStepId = e.scheduledProcedureStepId.toStdString();
    x.scheduledProcedureStepDescription = e.scheduledProcedureStepDescription.toStdString();
    return x;
}

ExamEntry entryOf(const engine::Exam& x) {
    ExamEntry e = entryFromPn(q(x.patient.name));
    e.id = q(x.patient.id);
    e.birthDate = QDate::fromString(q(x.patient.birthDate), "yyyyMMdd");
    e.sex = q(x.patient.sex);
    e.studyInstanceUid = q(x.studyInstanceUid);
    e.accessionNumber = q(x.accessionNumber);
    e.referringPhysician = q(x.referringPhysician);
    e.studyDescription = q(x.studyDescription);
    e.bodyPart = q(x.bodyPart);
    e.requestedProcedureId = q(x.requestedProcedureId);
    e.requestedProcedureDescription = q(x.requestedProcedureDescription);
    e.scheduledProcedureStepId = q(x.scheduledProcedureStepId);
    e.scheduledProcedureStepDescription = q(x.scheduledProcedureStepDescription);
    return e;
}

// A display frame as the views draw it: its pixels wrapped, not copied (the frame is immutable
// once published; the image keeps it alive).
BModeImage imageOf(const std::shared_ptr<const engine::DisplayFrame>& frame) {
    auto* keep = new std::shared_ptr<const engine::DisplayFrame>(frame);
    QImage image(frame->pixels.data(), frame->columns, frame->rows, frame->columns, QImage::Format_Grayscale8,
                 [](void* held) { delete static_cast<std::shared_ptr<const engine::DisplayFrame>*>(held); }, keep);
    BModeImage out;
    out.image = std::move(image);
    out.mmPerPixel = frame->cmPerPixelX * 10;
    out.xStartMm = frame->xStartCm * 10;
    out.zStartMm = frame->zStartCm * 10;
    out.session = frame->session;
    out.frameId = frame->frameId;
    out.latencyMs = frame->latencyUs / 1000;
    out.readyNs = frame->readyNs;
    out.gainDb = frame->imaging.gainDb;
    out.dynamicRangeDb = frame->imaging.dynamicRangeDb;
    out.tgcDb = frame->imaging.tgcDb;
    out.persistence = frame->imaging.persistence;
    return out;
}

// R, G, B bytes (rows x columns x 3) as an image of its own.
QImage rgbImage(const std::vector<std::uint8_t>& rgb, int columns, int rows) {
    QImage image(columns, rows, QImage::Format_RGB888);
    const auto rowBytes = static_cast<std::size_t>(columns) * 3;
    for (int y = 0; y < rows; ++y) std::memcpy(image.scanLine(y), rgb.data() + rowBytes * static_cast<std::size_t>(y), rowBytes);
    return image;
}

engine::PhotoacousticSettings engineShotSettings(const ShotDisplay& d) {
    engine::PhotoacousticSettings s;
    s.view = d.view == ShotView::Ultrasound      ? engine::ShotView::Ultrasound
             : d.view == ShotView::Photoacoustic ? engine::ShotView::Photoacoustic
             : d.view == ShotView::SideBySide    ? engine::ShotView::SideBySide
                                                 : engine::ShotView::Overlay;
    s.map = d.map == ShotMap::Iron ? engine::ShotColourMap::Iron : engine::ShotColourMap::Hot;
    s.gainDb = d.gainDb;
    s.dynamicRangeDb = d.dynamicRangeDb;
    s.threshold = d.threshold;
    s.opacity = d.opacity;
    s.normaliseEnergy = d.normaliseEnergy;
    return s;
}

ShotDisplay shotDisplayOf(const engine::PhotoacousticSettings& s) {
    ShotDisplay d;
    d.view = s.view == engine::ShotView::Ultrasound      ? ShotView::Ultrasound
             : s.view == engine::ShotView::Photoacoustic ? ShotView::Photoacoustic
             : s.view == engine::ShotView::SideBySide    ? ShotView::SideBySide
                                                         : ShotView::Overlay;
    d.map = s.map == engine::ShotColourMap::Iron ? ShotMap::Iron : ShotMap::Hot;
    d.gainDb = s.gainDb;
    d.dynamicRangeDb = s.dynamicRangeDb;
    d.threshold = s.threshold;
    d.opacity = s.opacity;
    d.normaliseEnergy = s.normaliseEnergy;
    return d;
}

}  // namespace

void EngineBridge::setShotDisplay(const ShotDisplay& display) {
    shotDisplay_ = display;
    engine_.setPhotoacoustic(engineShotSettings(display));
    lastShot_ = 0;  // shown again at once in the new way
    seenShot_ = false;
}

// The picture as the view shows it: a B-mode frame, and in dual mode the shot with it (laid over
// it, alone, or beside it) as the shot view asks; a shot of another raster (the depth changed
// between them) is left out until one of the new raster comes.
BModeImage EngineBridge::composed(const std::shared_ptr<const engine::DisplayFrame>& frame, const std::shared_ptr<const engine::DisplayFrame>& shot) const {
    auto out = imageOf(frame);
    if (!shot || shot->session != frame->session || shotDisplay_.view == ShotView::Ultrasound) return out;
    const auto settings = engineShotSettings(shotDisplay_);
    if (shot->rows != frame->rows || shot->columns != frame->columns) return out;
    if (shotDisplay_.view == ShotView::Overlay) {
        auto rgb = engine::shotOverlay(*frame, *shot, settings);
        if (!rgb) return out;
        out.image = rgbImage(*rgb, frame->columns, frame->rows);
    } else if (shotDisplay_.view == ShotView::Photoacoustic) {
        out.image = rgbImage(engine::shotColours(*shot, settings), frame->columns, frame->rows);
    } else {
        out.shotColour = rgbImage(engine::shotColours(*shot, settings), frame->columns, frame->rows);
    }
    out.hasShot = true;
    out.shotFrameId = shot->frameId;
    out.shotEnergyMj = shot->laserEnergyMicroJ / 1000.0;
    out.shotPulseNs = shot->timestampNs;
    return out;
}

EngineBridge::EngineBridge(engine::Engine& engine, int intervalMs, QObject* parent)
    : QObject(parent), engine_(engine), imaging_(engine.imaging()), shotDisplay_(shotDisplayOf(engine.photoacoustic())) {
    setObjectName("engineBridge");
    QPointer<EngineBridge> self(this);
    // On an engine thread: copy what the GUI needs and post it; the bridge's thread emits it.
    subscription_ = engine_.subscribe([self](const engine::EngineEvent& event) {
        if (const auto* s = std::get_if<engine::StateChanged>(&event)) {
            const auto state = text(engine::toString(s->to));
            const auto reason = QString::fromStdString(s->reason);  // translated on the GUI thread: the sink must not dwell
            QMetaObject::invokeMethod(self.data(), [self, state, reason] { if (self) Q_EMIT self->stateChanged(state, engineText(reason)); }, Qt::QueuedConnection);
        } else if (const auto* t = std::get_if<engine::SelfTestStep>(&event)) {
            QMetaObject::invokeMethod(self.data(), [self, step = *t] { if (self) self->onSelfTestStep(step); }, Qt::QueuedConnection);
        } else if (const auto* o = std::get_if<engine::SelfTestOverridden>(&event)) {
            const auto by = QString::fromStdString(o->by), reason = QString::fromStdString(o->reason), blocked = QString::fromStdString(o->blocked);
            QMetaObject::invokeMethod(self.data(), [self, by, reason, blocked] { if (self) Q_EMIT self->selfTestOverridden(by, reason, blocked); },
                                      Qt::QueuedConnection);
        } else if (const auto* j = std::get_if<engine::JobUpdate>(&event)) {
            QMetaObject::invokeMethod(self.data(), [self, job = *j] { if (self) self->onJob(job); }, Qt::QueuedConnection);
        } else if (const auto* r = std::get_if<engine::RecordingChanged>(&event)) {
            RecordingStatus status{text(engine::toString(r->phase)), QString::fromStdString(r->path), r->frames, r->bytes, r->framesRefused, r->framesSkipped,
                                   QString::fromStdString(r->error)};
            QMetaObject::invokeMethod(self.data(), [self, status]() mutable {
                if (!self) return;
                status.error = engineText(status.error);
                Q_EMIT self->recordingChanged(status);
            }, Qt::QueuedConnection);
        } else if (std::holds_alternative<engine::QueueChanged>(event)) {
            QMetaObject::invokeMethod(self.data(), [self] { if (self) self->refreshQueue(); }, Qt::QueuedConnection);
        } else if (const auto* w = std::get_if<engine::WorklistResult>(&event)) {
            QMetaObject::invokeMethod(self.data(), [self, result = *w] { if (self) self->onWorklist(result); }, Qt::QueuedConnection);
        } else if (const auto* e = std::get_if<engine::EngineError>(&event)) {
            // Copied here, said in the user's language on the GUI thread (the sink must not dwell).
            QMetaObject::invokeMethod(self.data(), [self, error = *e] {
                if (!self) return;
                Q_EMIT self->problem(problemText(error), error.severity != engine::Severity::Warning);
                // The command the engine refused, if this is a refusal, and why.
                if (error.origin == engine::ErrorOrigin::Command) {
                    Q_EMIT self->commandRefused(QString::fromStdString(error.source), engineText(QString::fromStdString(error.message)));
                }
            }, Qt::QueuedConnection);
        }
    });
    connect(&timer_, &QTimer::timeout, this, &EngineBridge::pull);
    timer_.start(intervalMs);
    lastStats_ = engine_.stats();
    sinceStart_.start();
}

EngineBridge::~EngineBridge() {
    timer_.stop();
    subscription_ = {};  // no sink runs after this
}

QList<BModeImage> EngineBridge::cine() const {
    QList<BModeImage> out;
    const auto shots = engine_.shotCine();  // each B-mode frame with the last shot before it
    auto shot = shots.begin();
    std::shared_ptr<const engine::DisplayFrame> before;
    for (const auto& frame : engine_.cine()) {
        if (!frame || frame->rows <= 0 || frame->columns <= 0) continue;
        for (; shot != shots.end() && (*shot)->session <= frame->session && ((*shot)->session < frame->session || (*shot)->frameId < frame->frameId); ++shot) {
            before = *shot;
        }
        out << composed(frame, before);
    }
    return out;
}

QString EngineBridge::stateName() const { return text(engine::toString(engine_.state())); }

QString EngineBridge::streamingBlock() const { return engineText(QString::fromStdString(engine_.stats().selfTestBlock)); }

void EngineBridge::connectLink() {
    stoppedByUser_ = false;
    selfTestSteps_.clear();
    engine_.connect();
}

void EngineBridge::runSelfTest(const QStringList& steps) {
    std::vector<std::string> names;
    for (const auto& step : steps) names.push_back(step.toStdString());
    engine_.runSelfTest(std::move(names));
}

void EngineBridge::setExam(const ExamEntry& exam) {
    engine_.setExam(examOf(exam));
    auto taken = exam;  // with the study the engine filed it under (a new one when none was given)
    taken.studyInstanceUid = QString::fromStdString(engine_.exam().studyInstanceUid);
    Q_EMIT examChanged(taken);
}

void EngineBridge::endExam() {
    engine_.setExam({});
    ExamEntry blank;
    blank.studyInstanceUid = QString::fromStdString(engine_.exam().studyInstanceUid);
    Q_EMIT examChanged(blank);
}

ExamEntry EngineBridge::exam() const { return entryOf(engine_.exam()); }

void EngineBridge::queryWorklist(const QString& node, const QString& date) {
    engine::WorklistQuery query;
    query.node = node.toStdString();
    query.date = date.toStdString();
    worklistJob_ = engine_.queryWorklist(std::move(query));
}

void EngineBridge::onWorklist(const engine::WorklistResult& result) {
    if (result.job != worklistJob_) return;  // an earlier query's late answer
    QList<ScheduledRow> rows;
    for (const auto& s : result.exams) {
        ScheduledRow r;
        r.exam = entryOf(s.exam);
        r.date = q(s.scheduledStartDate);
        r.time = q(s.scheduledStartTime);
        r.modality = q(s.modality);
        r.stationAeTitle = q(s.scheduledStationAeTitle);
        rows << r;
    }
    Q_EMIT worklistAnswered(rows, {});
}

void EngineBridge::verifyNode(const QString& node) { echoJobs_.emplace_back(engine_.verifyNode(node.toStdString()), node); }

void EngineBridge::verifyNode(const PacsNodeEntry& node, const StationSettings& station) {
    engine::NodeToVerify typed{node.name.toStdString(), node.aeTitle.toStdString(), node.host.toStdString(), node.port, node.tls,
                               station.stationAeTitle.toStdString(), station.tlsCertificate.toStdString(), station.tlsPrivateKey.toStdString(),
                               station.tlsTrustedCertificates.toStdString()};
    echoJobs_.emplace_back(engine_.verifyNode(std::move(typed)), node.name);
}

void EngineBridge::onJob(const engine::JobUpdate& job) {
    if (job.id == worklistJob_ && job.status == engine::JobStatus::Failed) Q_EMIT worklistAnswered({}, engineText(q(job.message)));
    const auto echo = std::find_if(echoJobs_.begin(), echoJobs_.end(), [&](const auto& e) { return e.first == job.id; });
    if (echo != echoJobs_.end() && job.status != engine::JobStatus::Running) {
        const QString node = echo->second;
        echoJobs_.erase(echo);
        Q_EMIT nodeVerified(node, job.status == engine::JobStatus::Done, engineText(q(job.message)));
    }
    const auto mine = std::find(exportJobs_.begin(), exportJobs_.end(), job.id);
    if (mine == exportJobs_.end()) return;
    const bool done = job.status != engine::JobStatus::Running;
    if (done) exportJobs_.erase(mine);
    Q_EMIT exportUpdate(engineText(q(job.message)), job.progress, job.status == engine::JobStatus::Failed, done);
}

void EngineBridge::exportCine(const QString& file, const QString& node) {
    exportJobs_.push_back(engine_.exportCine({file.toStdString(), node.toStdString(), 0}));
}

void EngineBridge::exportSnapshot(const QString& file, const QString& node, const BModeImage& shown, const QImage& burnedIn,
                                  const QList<Measurement>& measurements) {
    engine::SnapshotExportRequest request{file.toStdString(), node.toStdString(), shown.session, shown.frameId, {}, {}, std::nullopt};
    if (shown.hasShot && shotDisplay_.view == ShotView::Overlay) request.shotFrameId = shown.shotFrameId;  // exported as the overlay
    for (const auto& m : measurements) {
        using Kind = engine::ImageMeasurement::Kind;
        engine::ImageMeasurement out;
        out.kind = m.kind == MeasurementKind::Distance ? Kind::Distance : m.kind == MeasurementKind::Ellipse ? Kind::Ellipse : Kind::Note;
        out.label = m.label.toStdString();
        for (const auto& p : m.pointsMm) out.pointsMm.emplace_back(p.x(), p.y());
        if (m.kind == MeasurementKind::Distance) out.lengthMm = distanceMm(m);
        if (m.kind == MeasurementKind::Ellipse) out.areaMm2 = areaMm2(m), out.perimeterMm = circumferenceMm(m);
        out.text = m.text.toStdString();
        request.measurements.push_back(std::move(out));
    }
    if (!burnedIn.isNull()) {
        const QImage rgb = burnedIn.convertToFormat(QImage::Format_RGB888);
        const auto rowBytes = static_cast<std::size_t>(rgb.width()) * 3;
        request.burnedInRgb.resize(rowBytes * static_cast<std::size_t>(rgb.height()));
        for (int y = 0; y < rgb.height(); ++y) std::memcpy(request.burnedInRgb.data() + rowBytes * static_cast<std::size_t>(y), rgb.constScanLine(y), rowBytes);
    }
    exportJobs_.push_back(engine_.exportSnapshot(std::move(request)));
}

QList<QueueRow> EngineBridge::queue() const {
    QList<QueueRow> rows;
    for (const auto& item : engine_.dicomQueue()) {
        QueueRow r;
        r.id = q(item.id);
        r.node = q(item.node);
        r.file = q(item.sourceFile);
        r.patient = q(item.patientName);
        r.state = text(engine::toString(item.state));
        r.attempts = item.attempts;
        if (item.nextAttemptAtMs > 0) r.nextAttempt = QDateTime::fromMSecsSinceEpoch(item.nextAttemptAtMs);
        r.lastError = q(item.lastError);
        rows << r;
    }
    return rows;
}

// At every change the engine announces (and once at start): the queue, when it differs.
QList<ArchiveRow> EngineBridge::archive() const {
    QList<ArchiveRow> rows;
    for (const auto& item : engine_.archiveQueue()) {
        ArchiveRow r;
        r.id = item.id;
        r.kind = q(item.kind);
        r.file = q(item.file);
        r.url = q(item.url);
        r.state = text(engine::toString(item.state));
        r.attempts = item.attempts;
        r.sizeBytes = item.sizeBytes;
        if (item.nextAttemptAtMs > 0) r.nextAttempt = QDateTime::fromMSecsSinceEpoch(item.nextAttemptAtMs);
        if (item.verifiedAtMs > 0) r.verifiedAt = QDateTime::fromMSecsSinceEpoch(item.verifiedAtMs);
        if (item.localDeletedAtMs > 0) r.localDeletedAt = QDateTime::fromMSecsSinceEpoch(item.localDeletedAtMs);
        r.localKeptChanged = item.localDeletedAtMs < 0;
        r.lastError = q(item.lastError);
        rows << r;
    }
    return rows;
}

// About once a second: the archive's queue, when it changed (its uploads run on their own thread).
void EngineBridge::refreshArchive() {
    if (ticks_ % 125 != 0 || !engine_.hasArchive()) return;
    auto rows = archive();
    if (rows == archiveShown_) return;
    archiveShown_ = rows;
    Q_EMIT archiveChanged(rows, true);
}

void EngineBridge::refreshQueue() {
    auto rows = queue();
    if (rows == queueShown_) return;
    queueShown_ = rows;
    Q_EMIT queueChanged(rows);
}

void EngineBridge::onSelfTestStep(const engine::SelfTestStep& step) {
    const auto same = std::find_if(selfTestSteps_.begin(), selfTestSteps_.end(), [&](const auto& s) { return s.step == step.step; });
    if (same != selfTestSteps_.end()) *same = step;
    else selfTestSteps_.push_back(step);
    Q_EMIT selfTestStepEnded(resultOf(step));
}

// About ten times a second: the step under way, announced when it or its fraction moved.
void EngineBridge::pollSelfTest() {
    if (++ticks_ % 12 != 0) return;
    if (engine_.state() != engine::EngineState::SelfTest && progressStep_.isEmpty()) return;
    const auto progress = engine_.stats().selfTest;
    const auto step = QString::fromStdString(progress.step);
    if (step == progressStep_ && std::abs(progress.fraction - progressFraction_) < 0.005) return;
    progressStep_ = step;
    progressFraction_ = progress.fraction;
    Q_EMIT selfTestProgress(step, progress.fraction, engineText(QString::fromStdString(progress.detail)));
}

// The settings asked for are the bridge's own copy: the engine applies them on its thread, so a
// second change read from engine.imaging() before the first is applied would undo the first.
void EngineBridge::setGainDb(double gainDb) {
    imaging_.gainDb = gainDb;
    engine_.setImaging(imaging_);
}

void EngineBridge::setDynamicRangeDb(double rangeDb) {
    imaging_.dynamicRangeDb = rangeDb;
    engine_.setImaging(imaging_);
}

void EngineBridge::setTgcDb(std::vector<double> tgcDb) {
    imaging_.tgcDb = std::move(tgcDb);
    engine_.setImaging(imaging_);
}

void EngineBridge::setPersistence(double weight) {
    imaging_.persistence = weight;
    engine_.setImaging(imaging_);
}

void EngineBridge::setDepthEndMm(double depthEndMm) {
    imaging_.depthEndMm = depthEndMm;
    engine_.setImaging(imaging_);
}

void EngineBridge::setPicture(const ImagingValues& values) {
    imaging_.gainDb = values.gainDb;
    imaging_.dynamicRangeDb = values.dynamicRangeDb;
    imaging_.depthEndMm = values.depthEndMm;
    imaging_.persistence = values.persistence;
    imaging_.tgcDb = values.tgcDb;
    engine_.setImaging(imaging_);
}

void EngineBridge::setRfChannels(const QList<int>& channels) {
    rfWanted_ = !channels.isEmpty();
    engine_.setRfChannels({channels.begin(), channels.end()});
}

// The chosen channels' RF of the newest frame, once per frame, about 30 times a second at most.
void EngineBridge::pullRf() {
    if (!rfWanted_ || ticks_ % 4 != 0) return;
    const auto rf = engine_.latestRf();
    if (!rf || rf->channels.empty() || rf->samplingRateHz <= 0 || rf->frameId == lastRfFrame_) return;
    lastRfFrame_ = rf->frameId;
    RfTraces out;
    out.session = rf->session;
    out.frameId = rf->frameId;
    out.channels = QList<int>(rf->channels.begin(), rf->channels.end());
    out.samplesPerChannel = rf->samplesPerChannel;
    out.t0Us = rf->initialTimeUs;
    out.dtUs = 1e6 / rf->samplingRateHz;
    out.samples = rf->samples;
    Q_EMIT rfReady(out);
}

// Twice a second: what changed since the sample before.
void EngineBridge::sampleHealth() {
    if (ticks_ % 62 != 0) return;
    const auto now = engine_.stats();
    const auto rate = engine::rates(lastStats_, now);
    LinkHealth h;
    h.seconds = static_cast<double>(sinceStart_.elapsed()) / 1000.0;
    h.throughputGbps = rate.throughputGbps;
    h.crcErrors = now.crcErrors - lastStats_.crcErrors;
    h.headerErrors = now.headerErrors - lastStats_.headerErrors;
    h.droppedNoBuffer = now.framesDroppedNoBuffer - lastStats_.framesDroppedNoBuffer;
    h.droppedIncomplete = now.framesIncomplete - lastStats_.framesIncomplete;
    h.droppedMissing = now.framesMissing - lastStats_.framesMissing;
    // The front end's own count restarts with each session.
    h.droppedFrontEnd = now.frontEnd.framesDropped >= lastStats_.frontEnd.framesDropped ? now.frontEnd.framesDropped - lastStats_.frontEnd.framesDropped
                                                                                          : now.frontEnd.framesDropped;
    h.notImaged = now.imagingFailures >= lastStats_.imagingFailures ? now.imagingFailures - lastStats_.imagingFailures : now.imagingFailures;
    h.latencyP50Ms = now.latencyP50Us / 1000;
    h.latencyP99Ms = now.latencyP99Us / 1000;
    h.temperatureC = now.frontEnd.state.empty() ? std::nan("") : now.frontEnd.temperatureC;
    h.clockOffsetUs = now.frontEnd.clockExchanges == 0 ? std::nan("") : now.frontEnd.clockOffsetUs;
    h.clockPathDelayUs = now.frontEnd.clockPathDelayUs;
    h.laserFires = engine_.firesLaser() || now.laser.fired > 0;
    h.shotsFired = now.laser.fired - std::min(now.laser.fired, lastStats_.laser.fired);
    h.shotsMissed = now.laser.missed + now.laser.late + now.laser.dark - std::min(now.laser.missed + now.laser.late + now.laser.dark,
                                                                                  lastStats_.laser.missed + lastStats_.laser.late + lastStats_.laser.dark);
    h.shotEnergyMj = h.shotsFired > 0 ? now.laser.lastEnergyMj : std::nan("");
    h.shotsFiredTotal = now.laser.fired;
    h.shotsMissedTotal = now.laser.missed + now.laser.late + now.laser.dark;
    h.shotToShownP99Ms = now.laser.shotToShownP99Ms;
    lastStats_ = now;
    Q_EMIT healthSampled(h);
}

// The newest frame, once: its pixels wrapped (the frame is immutable once published; the image
// keeps it alive), then handed to the views.
void EngineBridge::pull() {
    pollSelfTest();
    pullRf();
    sampleHealth();
    refreshArchive();
    auto frame = engine_.latestFrame();
    if (!frame || frame->rows <= 0 || frame->columns <= 0) return;
    const bool newFrame = !seenOne_ || frame->session != lastSession_ || frame->frameId != lastFrame_;
    // Dual mode: a new shot is shown at once too (over, instead of or beside the B-mode).
    auto shot = shotDisplay_.view == ShotView::Ultrasound ? nullptr : engine_.latestShot();
    const bool newShot = shot && (!seenShot_ || shot->frameId != lastShot_ || shot->session != lastShotSession_);
    if (!newFrame && !newShot) return;
    if (newShot) {
        seenShot_ = true;
        lastShot_ = shot->frameId;
        lastShotSession_ = shot->session;
    }
    seenOne_ = true;
    lastSession_ = frame->session;
    lastFrame_ = frame->frameId;
    auto out = composed(frame, shot);
    if (newFrame) ++framesShown_;
    Q_EMIT imageReady(out);
}

}  // namespace sonolink::gui
