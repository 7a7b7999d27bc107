// Exports and the PACS queue through the facade: a cine exported as DICOM and audited as
// `dicom export` audits (the 110106 message in the audit file); one frame of the cine exported
// as a single-frame image, grey or with measurements burnt in, or with its measurement report (SR)
// beside it, a NaN caliper failing the job by name, and a frame no longer held refused; a running export cancelled and
// its queue item withdrawn, other jobs not held up; queue items retried and withdrawn by the
// user, each change announced.
#include <cmath>
#include <fstream>
#include <sstream>

#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcfilefo.h>
#include <dcmtk/dcmdata/dcitem.h>

#include "engine_fixture.h"
#include "sonolink/dicom/pacs_client.h"

namespace sonolink::engine::testing {
namespace {

Exam testExam() {
    Exam exam;
    exam.patient = {"Test^Engine", "E-1", "", ""};
    exam.accessionNumber = "A-77";
    return exam;
}

DicomSetup queueToADownPacs(const fs::path& dir) {
    DicomSetup d;
    d.queueDirectory = (dir / "queue").string();
    d.retry = {0.2, 0.5, 0.5, 60};
    d.forwarder.association.connectTimeoutS = 1;
    d.stationAeTitle = d.forwarder.association.callingAeTitle = "SONOLINK_T";
    d.forwarder.destinations.push_back({"down", {"NOBODY", "127.0.0.1", 1, false}, false});  // nothing listens on port 1
    d.audit.file = (dir / "audit.log").string();
    return d;
}

TEST_F(EngineTest, ACineExportedAsDicomIsAuditedAsDicomExportAuditsIt) {
    DicomSetup d;
    d.audit.file = (dir / "audit.log").string();
    d.stationAeTitle = "SONOLINK_T";
    auto engine = make(std::move(d));
    EventLog log;
    auto subscription = engine->subscribe(std::ref(log));
    ASSERT_NO_FATAL_FAILURE(stream(*engine, log));
    engine->setExam(testExam());
    const auto file = (dir / "cine.dcm").string();
    const auto job = engine->exportCine({file, "", 0});
    const auto done = log.waitFor<JobUpdate>([&](const JobUpdate& u) { return u.id == job && u.status != JobStatus::Running; });
    ASSERT_TRUE(done);
    ASSERT_EQ(done->status, JobStatus::Done) << done->message;
    EXPECT_EQ(done->kind, JobKind::DicomExport);
    auto info = dicom::inspectObject(file);
    ASSERT_TRUE(info) << info.error().message();
    EXPECT_EQ(info->sopClassUid, "1.2.840.10008.5.1.4.1.1.3.1");
    EXPECT_EQ(info->patientName, "Test^Engine");
    const auto audit = readFile(dir / "audit.log");
    EXPECT_NE(audit.find("csd-code=\"110106\""), std::string::npos) << audit;  // Export
    EXPECT_NE(audit.find("E-1"), std::string::npos) << "the patient whose data left the station";
    EXPECT_NE(audit.find(info->studyInstanceUid), std::string::npos);
    EXPECT_NE(audit.find("1.2.840.10008.5.1.4.1.1.3.1"), std::string::npos);
    EXPECT_NE(audit.find(fs::absolute(dir).string()), std::string::npos) << "where it went";
    EXPECT_NE(audit.find("SONOLINK_T"), std::string::npos) << "which station";
}

// The user changes the depth while streaming, then exports: the cine is the frames since the
// change (one geometry, calibrated as they are), and the job says how many were left out.
TEST_F(EngineTest, ACineExportAfterADepthChangeHoldsTheFramesSinceTheChange) {
    auto engine = make();
    EventLog log;
    auto subscription = engine->subscribe(std::ref(log));
    ASSERT_NO_FATAL_FAILURE(stream(*engine, log));
    ASSERT_TRUE(waitUntil([&] { return engine->stats().framesDisplayed >= 20; })) << "a cine of the first depth";
    auto deeper = engine->imaging();
    deeper.depthStartMm = 8;
    engine->setImaging(deeper);
    const auto shownSince = [&] {
        const auto f = engine->latestFrame();
        return f && f->imaging == deeper;
    };
    ASSERT_TRUE(waitUntil(shownSince));
    const auto firstNew = engine->stats().framesDisplayed;
    ASSERT_TRUE(waitUntil([&] { return engine->stats().framesDisplayed >= firstNew + 3; }));
    engine->freeze();
    ASSERT_TRUE(log.waitForState(EngineState::Frozen));
    const auto file = (dir / "deeper.dcm").string();
    const auto job = engine->exportCine({file, "", 0});
    const auto writing = log.waitFor<JobUpdate>([&](const JobUpdate& u) { return u.id == job && u.message.rfind("writing", 0) == 0; });
    ASSERT_TRUE(writing);
    EXPECT_NE(writing->message.find("before the last change of depth or view are left out"), std::string::npos) << writing->message;
    const auto done = log.waitFor<JobUpdate>([&](const JobUpdate& u) { return u.id == job && u.status != JobStatus::Running; });
    ASSERT_TRUE(done);
    ASSERT_EQ(done->status, JobStatus::Done) << done->message;
    DcmFileFormat dicom;
    ASSERT_TRUE(dicom.loadFile(file.c_str()).good());
    DcmItem* region = nullptr;
    ASSERT_TRUE(dicom.getDataset()->findAndGetSequenceItem(DCM_SequenceOfUltrasoundRegions, region, 0).good());
    Float64 z0 = 0;
    ASSERT_TRUE(region->findAndGetFloat64(DCM_ReferencePixelPhysicalValueY, z0).good());
    EXPECT_NEAR(z0, 0.8, 1e-9) << "the frames of the new depth, calibrated as they are";
}

// The pixels and the two attributes that say what they are, as written.
struct WrittenImage {
    std::string photometric, burnedIn;
    Uint16 rows = 0, columns = 0;
    std::vector<Uint8> pixels;
};

WrittenImage readImage(const std::string& file) {
    DcmFileFormat dicom;
    WrittenImage w;
    if (dicom.loadFile(file.c_str()).bad()) return w;
    auto* ds = dicom.getDataset();
    OFString value;
    if (ds->findAndGetOFString(DCM_PhotometricInterpretation, value).good()) w.photometric = value.c_str();
    if (ds->findAndGetOFString(DCM_BurnedInAnnotation, value).good()) w.burnedIn = value.c_str();
    (void)ds->findAndGetUint16(DCM_Rows, w.rows);
    (void)ds->findAndGetUint16(DCM_Columns, w.columns);
    const Uint8* pixels = nullptr;
    unsigned long count = 0;
    if (ds->findAndGetUint8Array(DCM_PixelData, pixels, &count).good() && pixels) w.pixels.assign(pixels, pixels + count);
    return w;
}

TEST_F(EngineTest, ASnapshotIsTheCineFrameAskedForGreyOrWithItsMeasurementsBurntIn) {
    DicomSetup d;
    d.audit.file = (dir / "audit.log").string();
    auto engine = make(std::move(d));
    EventLog log;
    auto subscription = engine->subscribe(std::ref(log));
    ASSERT_NO_FATAL_FAILURE(stream(*engine, log));
    ASSERT_TRUE(waitUntil([&] { return engine->cine().size() >= 4; }));
    engine->freeze();
    ASSERT_TRUE(log.waitForState(EngineState::Frozen));
    engine->setExam(testExam());
    const auto cine = engine->cine();
    const auto& reviewed = *cine[cine.size() - 3];  // a frame being reviewed, not the newest
    const auto exportOf = [&](SnapshotExportRequest request) {
        const auto job = engine->exportSnapshot(std::move(request));
        return log.waitFor<JobUpdate>([&](const JobUpdate& u) { return u.id == job && u.status != JobStatus::Running; });
    };
    const auto grey = (dir / "grey.dcm").string();
    auto done = exportOf({grey, "", reviewed.session, reviewed.frameId, {}, {}, std::nullopt});
    ASSERT_TRUE(done);
    ASSERT_EQ(done->status, JobStatus::Done) << done->message;
    auto info = dicom::inspectObject(grey);
    ASSERT_TRUE(info) << info.error().message();
    EXPECT_EQ(info->sopClassUid, "1.2.840.10008.5.1.4.1.1.6.1") << "US Image Storage: one frame";
    auto written = readImage(grey);
    EXPECT_EQ(written.rows, reviewed.rows);
    EXPECT_EQ(written.columns, reviewed.columns);
    EXPECT_EQ(written.photometric, "MONOCHROME2");
    EXPECT_EQ(written.burnedIn, "NO");
    EXPECT_EQ(written.pixels, reviewed.pixels) << "that frame's pixels, not the newest";
    EXPECT_NE(readFile(dir / "audit.log").find("1.2.840.10008.5.1.4.1.1.6.1"), std::string::npos) << "audited as an export";

    // The user's measurements drawn in: RGB, said to be burnt in.
    std::vector<std::uint8_t> rgb(reviewed.pixels.size() * 3);
    for (std::size_t i = 0; i < reviewed.pixels.size(); ++i) rgb[3 * i] = rgb[3 * i + 1] = rgb[3 * i + 2] = reviewed.pixels[i];
    rgb[0] = 255, rgb[1] = 255, rgb[2] = 0;  // a yellow mark
    const auto burnt = (dir / "burnt.dcm").string();
    done = exportOf({burnt, "", reviewed.session, reviewed.frameId, rgb, {}, std::nullopt});
    ASSERT_TRUE(done);
    ASSERT_EQ(done->status, JobStatus::Done) << done->message;
    written = readImage(burnt);
    EXPECT_EQ(written.photometric, "RGB");
    EXPECT_EQ(written.burnedIn, "YES");
    EXPECT_EQ(written.pixels, rgb);

    // Its calipers given: the image and, beside it, their measurement report of its study.
    const double x0 = reviewed.xStartCm * 10, z0 = reviewed.zStartCm * 10 + 5;
    const ImageMeasurement d1{ImageMeasurement::Kind::Distance, "D1", {{x0, z0}, {x0 + 8, z0}}, 8.0, 0, 0, ""};
    const auto measured = (dir / "measured.dcm").string();
    done = exportOf({measured, "", reviewed.session, reviewed.frameId, {}, {d1}, std::nullopt});
    ASSERT_TRUE(done);
    ASSERT_EQ(done->status, JobStatus::Done) << done->message;
    const auto reportFile = (dir / "measured_measurements.dcm").string();
    EXPECT_NE(done->message.find(reportFile), std::string::npos) << done->message;
    auto report = dicom::inspectObject(reportFile);
    ASSERT_TRUE(report) << report.error().message();
    EXPECT_EQ(report->sopClassUid, "1.2.840.10008.5.1.4.1.1.88.33") << "Comprehensive SR";
    EXPECT_EQ(report->studyInstanceUid, dicom::inspectObject(measured)->studyInstanceUid);
    auto bad = d1;
    bad.lengthMm = std::nan("");
    done = exportOf({(dir / "nan.dcm").string(), "", reviewed.session, reviewed.frameId, {}, {bad}, std::nullopt});
    ASSERT_TRUE(done);
    EXPECT_EQ(done->status, JobStatus::Failed);
    EXPECT_NE(done->message.find("its measurement report is not: measurement D1 has a value that is not a finite"), std::string::npos) << done->message;
    EXPECT_FALSE(fs::exists(dir / "nan_measurements.dcm"));

    // A burnt-in picture of another size, and a frame the cine does not hold: refused, why said.
    rgb.pop_back();
    done = exportOf({(dir / "short.dcm").string(), "", reviewed.session, reviewed.frameId, rgb, {}, std::nullopt});
    ASSERT_TRUE(done);
    EXPECT_EQ(done->status, JobStatus::Failed);
    EXPECT_NE(done->message.find("(R, G, B each)"), std::string::npos) << done->message;
    done = exportOf({(dir / "gone.dcm").string(), "", reviewed.session + 7, reviewed.frameId, {}, {}, std::nullopt});
    ASSERT_TRUE(done);
    EXPECT_EQ(done->status, JobStatus::Failed);
    EXPECT_NE(done->message.find("no longer held"), std::string::npos) << done->message;
    EXPECT_FALSE(fs::exists(dir / "short.dcm") || fs::exists(dir / "gone.dcm")) << "nothing written for a refused export";
}

TEST_F(EngineTest, EveryExportOfAnExamIsOfItsStudyAndABadExamIsRefused) {
    auto engine = make();
    EventLog log;
    auto subscription = engine->subscribe(std::ref(log));
    ASSERT_NO_FATAL_FAILURE(stream(*engine, log));
    auto thyroid = testExam();
    thyroid.bodyPart = "THYROID";  // chosen with the exam (the reported bug: always ABDOMEN)
    engine->setExam(thyroid);
    const auto studyUid = engine->exam().studyInstanceUid;
    EXPECT_FALSE(studyUid.empty()) << "the exam was given a study";
    std::vector<std::string> files{(dir / "one.dcm").string(), (dir / "two.dcm").string()};
    for (const auto& f : files) {
        const auto job = engine->exportCine({f, "", 0});
        const auto done = log.waitFor<JobUpdate>([&](const JobUpdate& u) { return u.id == job && u.status != JobStatus::Running; });
        ASSERT_TRUE(done && done->status == JobStatus::Done) << (done ? done->message : "no end");
    }
    auto one = dicom::inspectObject(files[0]), two = dicom::inspectObject(files[1]);
    ASSERT_TRUE(one && two);
    EXPECT_EQ(one->studyInstanceUid, studyUid);
    EXPECT_EQ(two->studyInstanceUid, studyUid);
    EXPECT_NE(one->sopInstanceUid, two->sopInstanceUid);
    EXPECT_EQ(one->patientId, "E-1");
    for (const auto& f : files) {
        DcmFileFormat written;
        ASSERT_TRUE(written.loadFile(f.c_str()).good());
        OFString part;
        EXPECT_TRUE(written.getDataset()->findAndGetOFString(DCM_BodyPartExamined, part).good());
        EXPECT_EQ(std::string(part.c_str()), "THYROID") << f;
    }
    auto lowercase = testExam();
    lowercase.bodyPart = "thyroid<1>";
    engine->setExam(lowercase);
    const auto notCode = log.waitFor<EngineError>([](const EngineError& e) { return e.source == "setExam"; });
    ASSERT_TRUE(notCode);
    EXPECT_NE(notCode->message.find("not a DICOM code string"), std::string::npos) << notCode->message;
    auto bad = testExam();
    bad.patient.name = "A^B^C^D^E^F";  // six components
    engine->setExam(bad);
    const auto refused =
        log.waitFor<EngineError>([](const EngineError& e) { return e.source == "setExam" && e.message.find("components") != std::string::npos; });
    ASSERT_TRUE(refused);
    EXPECT_NE(refused->message.find("more than five components"), std::string::npos) << refused->message;
    EXPECT_EQ(engine->exam().patient.name, "Test^Engine") << "the exam stays as it was";
}

TEST_F(EngineTest, ARunningExportJobIsCancelledAndItsQueueItemWithdrawn) {
    auto engine = make(queueToADownPacs(dir));
    EventLog log;
    auto subscription = engine->subscribe(std::ref(log));
    ASSERT_NO_FATAL_FAILURE(stream(*engine, log));
    engine->setExam(testExam());
    const auto job = engine->exportCine({(dir / "cine.dcm").string(), "down", 0});
    // Running: written and queued, waiting for a PACS that is down.
    ASSERT_TRUE(log.waitFor<JobUpdate>([&](const JobUpdate& u) { return u.id == job && u.progress >= 0.7 && u.status == JobStatus::Running; }));
    ASSERT_TRUE(waitUntil([&] {
        const auto items = engine->dicomQueue();
        return items.size() == 1 && items[0].attempts >= 1;
    }));
    EXPECT_NE(engine->dicomQueue()[0].lastError.find("Connection refused"), std::string::npos) << engine->dicomQueue()[0].lastError;
    // A job waiting on a PACS that is down holds up no other job.
    const auto fileOnly = engine->exportCine({(dir / "cine2.dcm").string(), "", 0});
    ASSERT_TRUE(log.waitFor<JobUpdate>([&](const JobUpdate& u) { return u.id == fileOnly && u.status == JobStatus::Done; }));
    EXPECT_FALSE(log.waitFor<JobUpdate>([&](const JobUpdate& u) { return u.id == job && u.status != JobStatus::Running; }, 0ms));
    engine->cancel(job);
    ASSERT_TRUE(log.waitFor<JobUpdate>([&](const JobUpdate& u) { return u.id == job && u.status == JobStatus::Cancelled; }));
    const auto items = engine->dicomQueue();
    ASSERT_EQ(items.size(), 1u);
    EXPECT_EQ(items[0].state, QueueItemState::Failed);
    EXPECT_EQ(items[0].lastError, "withdrawn by the user");
    EXPECT_EQ(items[0].patientName, "Test^Engine");
}

TEST_F(EngineTest, QueueItemsAreRetriedAndWithdrawnByTheUserAndEveryChangeIsAnnounced) {
    auto engine = make(queueToADownPacs(dir));
    EventLog log;
    auto subscription = engine->subscribe(std::ref(log));
    ASSERT_NO_FATAL_FAILURE(stream(*engine, log));
    engine->setExam(testExam());
    const auto job = engine->exportCine({(dir / "cine.dcm").string(), "down", 0});
    ASSERT_TRUE(log.waitFor<QueueChanged>([](const QueueChanged&) { return true; })) << "the new item is announced";
    ASSERT_TRUE(waitUntil([&] { return engine->dicomQueue().size() == 1; }));
    const auto id = engine->dicomQueue()[0].id;
    // An item caught mid-attempt cannot be withdrawn (refused, with the reason): ask again until it is.
    ASSERT_TRUE(waitUntil([&] {
        if (engine->dicomQueue()[0].lastError == "withdrawn by the user") return true;
        engine->withdrawQueueItem(id);
        std::this_thread::sleep_for(100ms);
        return false;
    }));
    ASSERT_TRUE(log.waitFor<JobUpdate>([&](const JobUpdate& u) { return u.id == job && u.status == JobStatus::Failed; }))
        << "the job following it hears that it failed";
    EXPECT_EQ(engine->dicomQueue()[0].state, QueueItemState::Failed);
    const auto versionAfterWithdraw = log.all<QueueChanged>().back().version;
    engine->retryQueueItem(id);
    ASSERT_TRUE(log.waitFor<QueueChanged>([&](const QueueChanged& q) { return q.version > versionAfterWithdraw; }));
    ASSERT_TRUE(waitUntil([&] {
        const auto items = engine->dicomQueue();
        return items[0].state != QueueItemState::Failed && items[0].lastError != "withdrawn by the user";
    })) << "queued again";
    engine->retryQueueItem("999999");  // no such item: refused with the reason
    const auto refused = log.waitFor<EngineError>([](const EngineError& e) { return e.source == "retryQueueItem"; });
    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->origin, ErrorOrigin::Command);
    EXPECT_EQ(refused->code, ErrorCode::NotFound);
    const auto versions = log.all<QueueChanged>();
    for (std::size_t i = 1; i < versions.size(); ++i) EXPECT_LT(versions[i - 1].version, versions[i].version);
}

}  // namespace
}  // namespace sonolink::engine::testing
