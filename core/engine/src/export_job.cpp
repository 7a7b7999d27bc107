// Export jobs (jobs thread): the cine taken when the user asked, written as a DICOM US
// Multi-frame object, or one frame of it as a US Image (with measurements burnt in, if asked, and
// written as a measurement report beside it when given),
// audited (110106, as `dicom export` does), then optionally queued for a PACS node and followed
// in short delayed checks until it is stored (and committed, where asked).
#include <algorithm>
#include <filesystem>
#include <span>

#include <fmt/format.h>

#include "engine_impl.h"
#include "sonolink/engine/shot_picture.h"
#include "sonolink/dicom/dicom_time.h"
#include "sonolink/dicom/exam.h"
#include "sonolink/dicom/measurement_report.h"
#include "sonolink/dicom/pacs_client.h"
#include "sonolink/dicom/value_rules.h"
#include "sonolink/util/log.h"

namespace sonolink::engine {
namespace {

// The exam's values that go into objects, checked as DICOM checks them: "" when all are fine.
std::string examProblem(const Exam& e) {
    if (auto p = dicom::personNameProblem(e.patient.name); !p.empty()) return "the patient's name " + p;
    if (auto p = dicom::personNameProblem(e.referringPhysician); !p.empty()) return "the referring physician's name " + p;
    for (const auto* value : {&e.patient.id, &e.accessionNumber, &e.studyDescription, &e.requestedProcedureDescription, &e.scheduledProcedureStepDescription}) {
        if (auto p = dicom::longStringProblem(*value); !p.empty()) return fmt::format("'{}' {}", *value, p);
    }
    if (!e.studyInstanceUid.empty()) {
        if (auto p = dicom::uidProblem(e.studyInstanceUid); !p.empty()) return "the Study Instance UID " + p;
    }
    const bool codeString = e.bodyPart.size() <= 16 && e.bodyPart.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_ ") == std::string::npos;
    if (!codeString) return fmt::format("the body part '{}' is not a DICOM code string (up to 16 capitals, digits, '_' and spaces)", e.bodyPart);
    return {};
}

dicom::Exam dicomExam(const Exam& e) {
    dicom::Exam d;
    d.patient = {e.patient.name, e.patient.id, e.patient.birthDate, e.patient.sex};
    d.studyInstanceUid = e.studyInstanceUid;
    d.accessionNumber = e.accessionNumber;
    d.referringPhysician = e.referringPhysician;
    d.studyDescription = e.studyDescription;
    if (!e.bodyPart.empty()) d.bodyPart = e.bodyPart;
    d.request = {e.requestedProcedureId, e.requestedProcedureDescription, e.scheduledProcedureStepId, e.scheduledProcedureStepDescription};
    return d;
}

}  // namespace

// Applied at once (a pure check), so the next exportCine() from this thread names it.
void Engine::setExam(Exam exam) {
    if (auto problem = examProblem(exam); !problem.empty()) {
        return impl_->ctl->post([impl = impl_.get(), problem] { impl->refuse("setExam", ErrorCode::InvalidArgument, problem); });
    }
    if (exam.studyInstanceUid.empty()) exam.studyInstanceUid = impl_->uids->next();  // its exports share the study
    // Another study after a patient's (a new exam, or none): no picture of the last patient may
    // be exported under it. The cine and the frame shown go before any export can pair them
    // with the new exam; a frozen picture goes live (its frames were the last patient's).
    const bool another = impl_->jobsDesk.setExam(std::move(exam), [impl = impl_.get()] {
        impl->display->forgetPictures();
        impl->shots->forgetPictures();
    });
    if (!another) return;
    impl_->ctl->post([impl = impl_.get()] {
        if (impl->state == EngineState::Frozen) impl->setState(EngineState::Streaming, "live again: a new exam");
    });
}

Exam Engine::exam() const { return impl_->jobsDesk.exam(); }

JobId Engine::exportCine(CineExportRequest request) {
    auto [id, exam, cancelled] = impl_->jobsDesk.newExport();
    auto frames = impl_->display->cine();  // what is on screen now, not when the job runs
    impl_->jobs->post([impl = impl_.get(), id, request = std::move(request), exam = std::move(exam), frames = std::move(frames), cancelled] {
        impl->runExport(id, request, exam, frames, cancelled);
    });
    return id;
}

JobId Engine::exportSnapshot(SnapshotExportRequest request) {
    auto [id, exam, cancelled] = impl_->jobsDesk.newExport();
    // The frame asked for, looked up now: the cine moves on while the job waits its turn.
    std::shared_ptr<const DisplayFrame> frame;
    const auto isIt = [&](const std::shared_ptr<const DisplayFrame>& f) { return f && f->session == request.session && f->frameId == request.frameId; };
    if (auto latest = impl_->display->latest(); isIt(latest)) frame = std::move(latest);
    for (const auto& f : impl_->display->cine()) {
        if (!frame && isIt(f)) frame = f;
    }
    std::shared_ptr<const DisplayFrame> shot;  // the one laid over it, also held now
    if (request.shotFrameId) {
        const auto isShot = [&](const std::shared_ptr<const DisplayFrame>& f) {
            return f && f->session == request.session && f->frameId == *request.shotFrameId;
        };
        if (auto latest = impl_->shots->latest(); isShot(latest)) shot = std::move(latest);
        for (const auto& f : impl_->shots->cine()) {
            if (!shot && isShot(f)) shot = f;
        }
    }
    const auto shown = Engine::photoacoustic();
    impl_->jobs->post(
        [impl = impl_.get(), id, request = std::move(request), exam = std::move(exam), frame = std::move(frame), shot = std::move(shot), shown, cancelled] {
            impl->runSnapshot(id, request, exam, Impl::SnapshotPictures{frame, shot, shown}, cancelled);
        });
    return id;
}

void Engine::cancel(JobId job) { impl_->jobsDesk.cancel(job); }

void Engine::Impl::auditExport(const std::string& file, const std::optional<Error>& failure) {
    if (!audit) return;
    auto object = dicom::inspectObject(file);
    if (!object) return;  // nothing was written: no patient's data left the station
    std::error_code ec;
    const auto destination = std::filesystem::absolute(std::filesystem::path(file).parent_path(), ec).string();
    const auto events = dicom::exportEvents(config.dicom.stationAeTitle, destination, {{*object, failure, false}});
    // An audit failure must not stop the work it audits; it is said without the patient.
    if (auto ok = audit->record(events); !ok) report(ErrorOrigin::Export, Severity::Warning, ok.error(), "audit trail");
}

void Engine::Impl::runExport(JobId id, const CineExportRequest& request, const Exam& examOfJob, const std::vector<std::shared_ptr<const DisplayFrame>>& frames,
                             std::shared_ptr<std::atomic<bool>> cancelledByUser) {
    auto cancelled = [&] { return cancelledByUser->load() || closing.load(); };
    if (cancelled()) return jobFinish(id, JobStatus::Cancelled, 0, "cancelled before it started");
    jobUpdate(id, JobStatus::Running, 0, "collecting the cine");
    if (frames.empty()) return jobFinish(id, JobStatus::Failed, 0, "the cine is empty: stream first");
    // A cine has one geometry: the frames since the picture last changed its raster or its place
    // (a new depth, width or display box), the newest among them.
    const auto sameGeometry = [&](const DisplayFrame& a) {
        const auto& b = *frames.back();
        return a.rows == b.rows && a.columns == b.columns && a.cmPerPixelX == b.cmPerPixelX && a.cmPerPixelY == b.cmPerPixelY && a.xStartCm == b.xStartCm &&
               a.zStartCm == b.zStartCm;
    };
    auto first = frames.size() - 1;
    while (first > 0 && sameGeometry(*frames[first - 1])) --first;
    const auto shown = std::span(frames).subspan(first);
    dicom::UsCineObject cine;
    cine.context = instanceContext(examOfJob);
    for (const auto& f : shown) {
        if (cancelled()) return jobFinish(id, JobStatus::Cancelled, 0.1, "cancelled");
        cine.frames.push_back({f->rows, f->columns, f->pixels, f->cmPerPixelX, f->cmPerPixelY, "ABDOMINAL", 1, f->xStartCm, f->zStartCm, false, {}});
    }
    const double spanMs =
        shown.size() > 1 ? static_cast<double>(shown.back()->readyNs - shown.front()->readyNs) / 1e6 / static_cast<double>(shown.size() - 1) : 0;
    cine.frameTimeMs = request.frameTimeMs > 0 ? request.frameTimeMs : spanMs > 0 ? spanMs : 1000.0 / 30;
    jobUpdate(id, JobStatus::Running, 0.3,
              first == 0 ? fmt::format("writing {} frames", shown.size())
                         : fmt::format("writing {} frames (the {} before the last change of depth or view are left out)", shown.size(), first));
    if (auto ok = dicom::writeUsCine(request.file, cine); !ok) {
        auditExport(request.file, ok.error());
        return jobFinish(id, JobStatus::Failed, 0.3, ok.error().message());
    }
    if (cancelled()) {
        std::error_code ignored;
        std::filesystem::remove(request.file, ignored);
        return jobFinish(id, JobStatus::Cancelled, 0.6, "cancelled");
    }
    auditExport(request.file, std::nullopt);
    queueExport(id, {request.file}, request.node, std::move(cancelledByUser));
}

void Engine::Impl::runSnapshot(JobId id, const SnapshotExportRequest& request, const Exam& examOfJob, const SnapshotPictures& pictures,
                               std::shared_ptr<std::atomic<bool>> cancelledByUser) {
    const auto& frame = pictures.frame;
    if (cancelledByUser->load() || closing.load()) return jobFinish(id, JobStatus::Cancelled, 0, "cancelled before it started");
    if (!frame) {
        return jobFinish(id, JobStatus::Failed, 0,
                         fmt::format("frame {} of session {} is no longer held (the cine keeps the last {}): freeze and export again", request.frameId,
                                     request.session, config.cineFrames));
    }
    if (request.shotFrameId && !pictures.shot) {
        return jobFinish(id, JobStatus::Failed, 0,
                         fmt::format("laser shot {} of session {} is no longer held (the shots' cine keeps the last {}): freeze "
                                     "and export again",
                                     *request.shotFrameId, request.session, config.cineFrames));
    }
    const auto grey = static_cast<std::size_t>(frame->rows) * static_cast<std::size_t>(frame->columns);
    const bool burned = !request.burnedInRgb.empty();
    if (burned && request.burnedInRgb.size() != 3 * grey) {
        return jobFinish(id, JobStatus::Failed, 0,
                         fmt::format("the burnt-in picture has {} bytes; the frame's {} x {} pixels need {} (R, G, B each)", request.burnedInRgb.size(),
                                     frame->rows, frame->columns, 3 * grey));
    }
    auto pixels = burned ? request.burnedInRgb : frame->pixels;
    if (pictures.shot && !burned) {  // the overlay, composed as the console shows it
        auto overlay = shotOverlay(*frame, *pictures.shot, pictures.shown);
        if (!overlay) return jobFinish(id, JobStatus::Failed, 0, overlay.error().message());
        pixels = std::move(*overlay);
    }
    const bool colour = burned || pictures.shot;
    jobUpdate(id, JobStatus::Running, 0.3, burned ? "writing the image with its measurements burnt in" : "writing the image");
    dicom::UsImageObject image;
    image.context = instanceContext(examOfJob);
    image.frame = {frame->rows, frame->columns, std::move(pixels), frame->cmPerPixelX, frame->cmPerPixelY,
                   "ABDOMINAL", colour ? 3 : 1, frame->xStartCm,   frame->zStartCm,    burned,
                   {}};
    if (pictures.shot) {
        const auto& shown = pictures.shown;
        image.context.series.description = "US B-mode with photoacoustic overlay";
        image.frame.derivation = fmt::format(
            "B-mode frame {} with photoacoustic laser shot frame {} ({:.2f} mJ) laid over it in colour: {} map, "
            "{:.0f} dB gain, {:.0f} dB dynamic range, threshold {:.0f} %, opacity {:.0f} %{}",
            frame->frameId, pictures.shot->frameId, pictures.shot->laserEnergyMicroJ / 1000.0, shown.map == ShotColourMap::Iron ? "iron" : "hot", shown.gainDb,
            shown.dynamicRangeDb, shown.threshold * 100, shown.opacity * 100, shown.normaliseEnergy ? ", pulse energy normalised" : "");
    }
    if (auto ok = dicom::writeUsImage(request.file, image); !ok) {
        auditExport(request.file, ok.error());
        return jobFinish(id, JobStatus::Failed, 0.3, ok.error().message());
    }
    auditExport(request.file, std::nullopt);
    std::vector<std::string> files{request.file};
    if (!request.measurements.empty()) {
        jobUpdate(id, JobStatus::Running, 0.5, fmt::format("writing the measurement report ({} measurements)", request.measurements.size()));
        auto report = writeMeasurementReport(request.file, image, *frame, request.measurements);
        if (!report)
            return jobFinish(id, JobStatus::Failed, 0.5, fmt::format("the image is written, its measurement report is not: {}", report.error().message()));
        files.push_back(std::move(*report));
    }
    queueExport(id, std::move(files), request.node, std::move(cancelledByUser));
}

// The calipers on an exported image as its measurement report (SR) beside it, of its study,
// in a series of its own; audited like the image. The report's file name, or why not.
Result<std::string> Engine::Impl::writeMeasurementReport(const std::string& imageFile, const dicom::UsImageObject& image, const DisplayFrame& frame,
                                                         const std::vector<ImageMeasurement>& measurements) {
    auto path = std::filesystem::path(imageFile);
    const auto file = (path.parent_path() / (path.stem().string() + "_measurements.dcm")).string();
    auto context = image.context;
    context.series.instanceUid = uids->next();
    context.series.number = image.context.series.number + 1;
    context.sopInstanceUid = uids->next();
    const dicom::MeasuredImage measured{"1.2.840.10008.5.1.4.1.1.6.1",
                                        image.context.sopInstanceUid,
                                        image.context.series.instanceUid,
                                        0,
                                        frame.rows,
                                        frame.columns,
                                        frame.cmPerPixelX,
                                        frame.cmPerPixelY,
                                        frame.xStartCm,
                                        frame.zStartCm};
    std::vector<dicom::Caliper> calipers;
    for (const auto& m : measurements) {
        const auto kind = m.kind == ImageMeasurement::Kind::Distance  ? dicom::CaliperKind::Distance
                          : m.kind == ImageMeasurement::Kind::Ellipse ? dicom::CaliperKind::Ellipse
                                                                      : dicom::CaliperKind::Note;
        calipers.push_back({kind, m.label, m.pointsMm, m.lengthMm, m.areaMm2, m.perimeterMm, m.text});
    }
    if (auto ok = dicom::writeMeasurementReport(file, context, measured, calipers, *uids); !ok) {
        auditExport(file, ok.error());
        return tl::unexpected(ok.error());
    }
    auditExport(file, std::nullopt);
    return file;
}

dicom::InstanceContext Engine::Impl::instanceContext(const Exam& examOfJob) {
    auto equipment = config.dicom.equipment;
    if (equipment.deviceSerialNumber.empty()) {
        equipment.deviceSerialNumber = dicom::toLongString(jobsDesk.frontEndSerial());  // the system's serial is its front end's
    }
    return dicom::makeInstanceContext(dicomExam(examOfJob), equipment, *uids, dicom::dicomDateTimeNow());
}

// Written files (an image and its measurement report), queued for node (empty: the files are
// the result) and followed until all are stored.
void Engine::Impl::queueExport(JobId id, std::vector<std::string> files, const std::string& node, std::shared_ptr<std::atomic<bool>> cancelled) {
    for (const auto& file : files) archiveFile(file, "study");
    const auto named = fmt::format("{}", fmt::join(files, ", "));
    if (node.empty()) return jobFinish(id, JobStatus::Done, 1, named);
    if (!queue) return jobFinish(id, JobStatus::Failed, 0.6, "no PACS queue is configured");
    const auto& destinations = config.dicom.forwarder.destinations;
    const bool commitment = std::any_of(destinations.begin(), destinations.end(), [&](const auto& d) { return d.name == node && d.storageCommitment; });
    std::vector<std::string> items;
    for (const auto& file : files) {
        auto item = queue->enqueue(file, node, commitment);
        if (!item) return jobFinish(id, JobStatus::Failed, 0.6, item.error().message());
        items.push_back(item->id);
    }
    forwarder->wake();
    jobUpdate(id, JobStatus::Running, 0.7, fmt::format("queued for {} as item{} {}", node, items.size() > 1 ? "s" : "", fmt::join(items, ", ")));
    followDelivery(id, named, std::move(items), std::move(cancelled));
}

// Until the PACS has every item (and committed it, where asked), one fails, or the user gives up.
void Engine::Impl::followDelivery(JobId id, std::string files, std::vector<std::string> itemIds, std::shared_ptr<std::atomic<bool>> cancelled) {
    if (closing) return;  // not a user's cancel: the items stay queued
    std::vector<dicom::QueueItem> items;
    for (const auto& itemId : itemIds) {
        auto item = queue->item(itemId);
        if (!item) return jobFinish(id, JobStatus::Failed, 0.7, fmt::format("item {} is no longer in the queue", itemId));
        // Failed: the job failed, unless the user cancelled it (a withdrawn item is failed too).
        if (item->state == dicom::ItemState::Failed && !cancelled->load()) return jobFinish(id, JobStatus::Failed, 0.7, item->lastError);
        items.push_back(std::move(*item));
    }
    const auto done = [](const dicom::QueueItem& i) {
        return i.state == dicom::ItemState::Committed || (i.state == dicom::ItemState::Sent && !i.commitmentRequired);
    };
    if (std::all_of(items.begin(), items.end(), done)) {
        return jobFinish(id, JobStatus::Done, 1, fmt::format("{} ({} {})", files, items.front().node, dicom::toString(items.front().state)));
    }
    if (cancelled->load()) {
        bool pending = false, atThePacs = false;
        for (const auto& item : items) {
            if (done(item) || item.state == dicom::ItemState::Failed) continue;  // stored, or out of sending already
            if (queue->withdraw(item.id)) continue;
            if (item.state == dicom::ItemState::Sent) atThePacs = true;  // awaiting its commitment: nothing to take back
            else pending = true;                                         // being sent: the cancel waits for the attempt's end
        }
        if (!pending && !atThePacs) {
            return jobFinish(id, JobStatus::Cancelled, 0.7,
                             fmt::format("cancelled; item{} {} withdrawn from the queue", itemIds.size() > 1 ? "s" : "", fmt::join(itemIds, ", ")));
        }
        if (!pending) {
            cancelled->store(false);
            jobUpdate(id, JobStatus::Running, 0.8, fmt::format("too late to cancel: already at {}", items.front().node));
        }
        // Being sent: a failed attempt puts the item back in the queue and the next check
        // withdraws it, a successful one ends the job as done.
    }
    jobs->postAfter(std::chrono::milliseconds(50), [this, id, files = std::move(files), itemIds = std::move(itemIds), cancelled = std::move(cancelled)] {
        followDelivery(id, files, itemIds, cancelled);
    });
}

}  // namespace sonolink::engine
