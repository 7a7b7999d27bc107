#include "sonolink/gui/bridge/engine_bridge.h"

#include <QDateTime>
#include <QMetaObject>
#include <QPointer>

#include <algorithm>
#include <cmath>
#include <cstring>

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
    QString out =
        e.source.empty()
            ? EngineBridge::tr("%1 %2: %3: %4").arg(originWord(e.origin), severityWord(e.severity), code, message)
            : EngineBridge::tr("%1 %2 in %3: %4: %5").arg(originWord(e.origin), severityWord(e.severity), QString::fromStdString(e.source), code, message);
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

}  // namespace

EngineBridge::EngineBridge(engine::Engine& engine, int intervalMs, QObject* parent)
    : QObject(parent), engine_(engine), display_(engine, intervalMs), imaging_(engine.imaging()) {
    setObjectName("engineBridge");
    subscribe();
    connect(&poll_, &QTimer::timeout, this, &EngineBridge::poll);
    poll_.start(100);
}

// On an engine thread: the event copied and posted (the sink must not dwell); the bridge's
// thread says it in the user's language and emits it. Settings' answers are not the GUI's.
void EngineBridge::subscribe() {
    QPointer<EngineBridge> self(this);
    subscription_ = engine_.subscribe([self](const engine::EngineEvent& event) {
        if (std::holds_alternative<engine::SettingsChanged>(event)) return;
        QMetaObject::invokeMethod(
            self.data(),
            [self, event] {
                if (self) self->receive(event);
            },
            Qt::QueuedConnection);
    });
}

void EngineBridge::receive(const engine::EngineEvent& event) {
    if (const auto* s = std::get_if<engine::StateChanged>(&event)) {
        Q_EMIT stateChanged(text(engine::toString(s->to)), engineText(q(s->reason)));
    } else if (const auto* t = std::get_if<engine::SelfTestStep>(&event)) {
        onSelfTestStep(*t);
    } else if (const auto* o = std::get_if<engine::SelfTestOverridden>(&event)) {
        Q_EMIT selfTestOverridden(q(o->by), q(o->reason), q(o->blocked));
    } else if (const auto* j = std::get_if<engine::JobUpdate>(&event)) {
        onJob(*j);
    } else if (const auto* r = std::get_if<engine::RecordingChanged>(&event)) {
        Q_EMIT recordingChanged(
            {text(engine::toString(r->phase)), q(r->path), r->frames, r->bytes, r->framesRefused, r->framesSkipped, engineText(q(r->error))});
    } else if (std::holds_alternative<engine::QueueChanged>(event)) {
        refreshQueue();
    } else if (const auto* w = std::get_if<engine::WorklistResult>(&event)) {
        onWorklist(*w);
    } else if (const auto* e = std::get_if<engine::EngineError>(&event)) {
        Q_EMIT problem(problemText(*e), e->severity != engine::Severity::Warning);
        // The command the engine refused, if this is a refusal, and why.
        if (e->origin == engine::ErrorOrigin::Command) Q_EMIT commandRefused(q(e->source), engineText(q(e->message)));
    }
}

EngineBridge::~EngineBridge() {
    poll_.stop();
    subscription_ = {};  // no sink runs after this
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
    engine::NodeToVerify typed{node.name.toStdString(),
                               node.aeTitle.toStdString(),
                               node.host.toStdString(),
                               node.port,
                               node.tls,
                               station.stationAeTitle.toStdString(),
                               station.tlsCertificate.toStdString(),
                               station.tlsPrivateKey.toStdString(),
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
    if (shown.hasShot && display_.shotDisplay().view == ShotView::Overlay) request.shotFrameId = shown.shotFrameId;  // exported as the overlay
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

// Ten times a second: the self-test's progress; once a second: the archive's queue.
void EngineBridge::poll() {
    pollSelfTest();
    if (++polls_ % 10 == 0) refreshArchive();
}

// The archive's queue, when it changed (its uploads run on their own thread).
void EngineBridge::refreshArchive() {
    if (!engine_.hasArchive()) return;
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

// The step under way, announced when it or its fraction moved.
void EngineBridge::pollSelfTest() {
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
void EngineBridge::setImaging(const ImagingValues& values) {
    imaging_.gainDb = values.gainDb;
    imaging_.dynamicRangeDb = values.dynamicRangeDb;
    imaging_.depthStartMm = values.depthStartMm;
    imaging_.depthEndMm = values.depthEndMm;
    imaging_.persistence = values.persistence;
    imaging_.tgcDb = values.tgcDb;
    engine_.setImaging(imaging_);
}

ImagingValues EngineBridge::imaging() const {
    return {imaging_.gainDb, imaging_.dynamicRangeDb, imaging_.depthStartMm, imaging_.depthEndMm, imaging_.persistence, imaging_.tgcDb};
}

}  // namespace sonolink::gui
