#include "sonolink/app/engine_setup.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "sonolink/app/acquisition_setup.h"
#include "sonolink/app/archive_setup.h"
#include "sonolink/app/dicom_setup.h"
#include "sonolink/app/hardware_facts.h"
#include "sonolink/app/hardware_probe.h"
#include "sonolink/app/phantom_reference.h"
#include "sonolink/app/replay_source.h"
#if SONOLINK_HAVE_CUDA
#include "gpu_frame_imager.h"
#include "gpu_memory_backend.h"
#endif
#include "sonolink/util/build_info.h"
#include "sonolink/util/log.h"

namespace sonolink::app {

LinkChoice linkChoiceFrom(const config::AppConfig& config, bool inProcess) {
    LinkChoice choice;
    const bool verbs = config.link.backend == config::LinkBackend::Verbs;
    choice.backend = verbs ? LinkChoice::Backend::Verbs : inProcess ? LinkChoice::Backend::SimInProcess : LinkChoice::Backend::SimShared;
    choice.name = config.link.shmName;
    choice.address = config.link.address;
    choice.port = config.link.port;
    choice.busyPoll = config.link.completionMode == config::CompletionMode::BusyPoll;
    choice.hugePages = config.link.hugePages;
    choice.slotBytes = config.link.slotSizeBytes;
    choice.slotCount = config.link.slotCount;
    return choice;
}

namespace {

log::Category& logCategory() {
    static auto& category = log::category("engine");
    return category;
}

// The display's imager for a geometry and imaging: the CUDA beamformer where the configuration
// allows it and a device works, else null (the engine's CPU reference), with the reason in the
// log either way. The station is probed once, here, not at every change of settings.
std::function<std::unique_ptr<engine::FrameImager>(const beamform::AcquisitionGeometry&, const engine::ImagingSetup&)> displayImagers(
    const config::AppConfig& config) {
    const auto backend = config.beamform.backend;
    std::string reason;
    std::string gpuName;
    if (backend == config::BeamformerBackend::Cpu) {
        reason = "beamform.backend is cpu";
    } else if (const auto hardware = probeHardware(); !hardware.cudaBuilt) {
        reason = "this build has no CUDA module";
    } else if (hardware.gpus.empty()) {
        reason = fmt::format("no usable CUDA device: {}", hardware.cudaStatus);
    } else {
        gpuName = hardware.gpus.front().name;
    }
    return [backend, reason, gpuName]([[maybe_unused]] const beamform::AcquisitionGeometry& geometry,
                                      [[maybe_unused]] const engine::ImagingSetup& imaging) -> std::unique_ptr<engine::FrameImager> {
        auto why = reason;
#if SONOLINK_HAVE_CUDA
        if (!gpuName.empty()) {
            auto imager = makeGpuFrameImager(geometry, imaging);
            if (imager) {
                log::info(logCategory(), "display beamformer: GPU ({})", gpuName);
                return std::move(*imager);
            }
            why = fmt::format("the CUDA beamformer could not start on {}: {}", gpuName, imager.error().message());
        }
#endif
        if (backend == config::BeamformerBackend::Cuda) {
            log::warn(logCategory(), "display beamformer: CPU, although beamform.backend asks for cuda ({})", why);
        } else {
            log::info(logCategory(), "display beamformer: CPU ({})", why);
        }
        return nullptr;
    };
}

}  // namespace

// How dual mode's shots are shown at the start (display.photoacoustic_*).
engine::PhotoacousticSettings photoacousticSettingsFrom(const config::AppConfig& config) {
    const auto& d = config.display;
    engine::PhotoacousticSettings s;
    s.view = d.shotView == config::ShotView::Ultrasound      ? engine::ShotView::Ultrasound
             : d.shotView == config::ShotView::Photoacoustic ? engine::ShotView::Photoacoustic
             : d.shotView == config::ShotView::SideBySide    ? engine::ShotView::SideBySide
                                                             : engine::ShotView::Overlay;
    s.map = d.shotMap == config::ShotColourMap::Iron ? engine::ShotColourMap::Iron : engine::ShotColourMap::Hot;
    s.dynamicRangeDb = d.shotDynamicRangeDb;
    s.threshold = d.shotThreshold;
    s.opacity = d.shotOpacity;
    s.normaliseEnergy = d.shotNormaliseEnergy;
    return s;
}

engine::ImagingSettings imagingSettingsFrom(const config::AppConfig& config) {
    engine::ImagingSettings s;
    s.gainDb = config.beamform.gainDb;
    s.dynamicRangeDb = config.beamform.dynamicRangeDb;
    s.fNumber = config.beamform.fNumber;
    s.window = config.beamform.window == config::ApodizationWindow::Hann    ? engine::Apodization::Hann
               : config.beamform.window == config::ApodizationWindow::Tukey ? engine::Apodization::Tukey
                                                                            : engine::Apodization::Rectangular;
    s.tgcDb = config.display.tgcDb;
    s.persistence = config.display.persistence;
    s.greyMap = config.display.greyMap == config::GreyMap::Soft       ? engine::GreyMap::Soft
                : config.display.greyMap == config::GreyMap::Contrast ? engine::GreyMap::Contrast
                                                                      : engine::GreyMap::Linear;
    s.displayColumns = config.display.columns;
    s.displayRows = config.display.rows;
    return s;  // the grid: 256 x 512 over the probe's aperture, 3 to 38 mm deep
}

std::function<Result<engine::AcquisitionPlan>(const engine::AcquisitionSettings&)> acquisitionPlanner(const config::AppConfig& config) {
    return [config](const engine::AcquisitionSettings& settings) -> Result<engine::AcquisitionPlan> {
        auto next = config;
        next.acquisition.planeWaveAnglesDeg = settings.anglesDeg;
        next.acquisition.samplesPerChannel = settings.samplesPerChannel;
        next.acquisition.frameRateHz = settings.frameRateHz;
        next.probe.elementCount = settings.elementCount;
        next.probe.pitchM = settings.pitchMm * 1e-3;
        next.probe.centerFrequencyHz = settings.centerFrequencyMHz * 1e6;
        auto configure = configureFrom(next);
        return engine::AcquisitionPlan{configure, geometryOf(configure, photoacousticTimingOf(next)), shotGeometryOf(configure, photoacousticTimingOf(next))};
    };
}

engine::AcquisitionSettings acquisitionSettingsOf(const transport::Configure& c) {
    engine::AcquisitionSettings s;
    s.anglesDeg.clear();
    for (auto a : c.anglesMilliDeg) s.anglesDeg.push_back(a * 1e-3);
    s.samplesPerChannel = static_cast<int>(c.samplesPerChannel);
    s.frameRateHz = c.frameRateMilliHz * 1e-3;
    s.elementCount = c.channelCount;
    s.pitchMm = c.pitchNm * 1e-6;
    s.centerFrequencyMHz = c.centerFrequencyHz * 1e-6;
    return s;
}

namespace {

// Whether a and b are the same acquisition but for the frame rate (to the precision a Configure
// carries: a thousandth of a degree, a nanometre of pitch, a hertz).
bool sameAcquisitionButRate(const engine::AcquisitionSettings& a, const engine::AcquisitionSettings& b) {
    const auto near = [](double x, double y, double tolerance) { return std::abs(x - y) <= tolerance; };
    if (a.anglesDeg.size() != b.anglesDeg.size()) return false;
    for (std::size_t i = 0; i < a.anglesDeg.size(); ++i) {
        if (!near(a.anglesDeg[i], b.anglesDeg[i], 1e-3)) return false;
    }
    return a.samplesPerChannel == b.samplesPerChannel && a.elementCount == b.elementCount && near(a.pitchMm, b.pitchMm, 1e-6) &&
           near(a.centerFrequencyMHz, b.centerFrequencyMHz, 1e-6);
}

// A review's planner: the recording's acquisition, at any frame rate; any other is refused.
std::function<Result<engine::AcquisitionPlan>(const engine::AcquisitionSettings&)> replayPlanner(const transport::Configure& configure,
                                                                                                 const std::string& recording) {
    return [configure, recording, held = acquisitionSettingsOf(configure)](const engine::AcquisitionSettings& asked) -> Result<engine::AcquisitionPlan> {
        if (!sameAcquisitionButRate(asked, held)) {
            return fail(ErrorCode::InvalidArgument, fmt::format("replaying {}: the acquisition is the recording's ({} waves, {} channels x {} samples); "
                                                                "only its frame rate can change",
                                                                recording, held.anglesDeg.size(), held.elementCount, held.samplesPerChannel));
        }
        auto c = configure;
        c.frameRateMilliHz = static_cast<std::uint32_t>(std::lround(asked.frameRateHz * 1000));
        return engine::AcquisitionPlan{c, geometryOf(c), std::nullopt};
    };
}

}  // namespace

engine::AcquisitionSettings acquisitionSettingsFrom(const config::AppConfig& config) {
    engine::AcquisitionSettings s;
    s.anglesDeg = config.acquisition.planeWaveAnglesDeg;
    s.samplesPerChannel = config.acquisition.samplesPerChannel;
    s.frameRateHz = config.acquisition.frameRateHz;
    s.elementCount = config.probe.elementCount;
    s.pitchMm = config.probe.pitchM * 1e3;
    s.centerFrequencyMHz = config.probe.centerFrequencyHz / 1e6;
    return s;
}

std::optional<engine::LinkBerTest> linkBerTestFrom(const config::AppConfig& config, SelfTestChoice choice) {
    const auto& s = config.selftest;
    if (choice == SelfTestChoice::Off || (choice == SelfTestChoice::AsConfigured && !s.atConnect)) return std::nullopt;
    const bool full = choice == SelfTestChoice::Full || (choice == SelfTestChoice::AsConfigured && s.mode == config::SelfTestMode::Full);
    engine::LinkBerTest t;
    switch (s.berPattern) {
        case config::BerPattern::Prbs7: t.pattern = transport::PayloadKind::Prbs7; break;
        case config::BerPattern::Prbs15: t.pattern = transport::PayloadKind::Prbs15; break;
        case config::BerPattern::Prbs23: t.pattern = transport::PayloadKind::Prbs23; break;
        case config::BerPattern::Prbs31: t.pattern = transport::PayloadKind::Prbs31; break;
    }
    t.limit = full ? s.berLimit : s.berQuickLimit;
    t.confidence = s.berConfidence;
    t.timeout = std::chrono::milliseconds(static_cast<long long>(s.berTimeoutS * 1000));
    return t;
}

std::optional<engine::ElementCheckSetup> elementCheckFrom(const config::AppConfig& config) {
    const auto& s = config.selftest;
    if (!s.elementCheck) return std::nullopt;
    engine::ElementCheckSetup c;
    c.frames = static_cast<std::uint32_t>(s.elementFrames);
    c.limits.deadRmsFraction = s.elementDeadRmsFraction;
    c.limits.weakRmsFraction = s.elementWeakRmsFraction;
    c.limits.noisySnrDropDb = s.elementNoisySnrDropDb;
    c.limits.neighbourCorrelationFraction = s.elementCorrelationFraction;
    c.phantom.minNcc = s.phantomMinNcc;
    c.phantom.maxPositionErrorM = s.phantomMaxPositionErrorMm * 1e-3;
    c.phantom.maxFwhmError = s.phantomMaxFwhmError;
    c.timeout = std::chrono::milliseconds(static_cast<long long>(s.elementTimeoutS * 1000));
    return c;
}

engine::StationCheck stationCheckFrom(const config::AppConfig& config, const LinkChoice& link) {
    engine::StationCheck c;
    c.ringBytes = std::uint64_t{link.slotBytes} * link.slotCount;
    c.ringLocked = link.backend == LinkChoice::Backend::Verbs;
    c.ringHugePages = c.ringLocked && link.hugePages;
    const auto frameBytes = std::uint64_t(config.probe.elementCount) * config.acquisition.samplesPerChannel * 2 *
                            std::max<std::size_t>(config.acquisition.planeWaveAnglesDeg.size(), 1);
    c.recordingBytesNeeded = static_cast<std::uint64_t>(static_cast<double>(frameBytes) * config.acquisition.frameRateHz * 60);
    c.readHardware = readHardwareFacts;
    c.rdmaLink = link.backend == LinkChoice::Backend::Verbs;
    if (c.rdmaLink) c.linkAddress = link.address;
    c.folders.emplace_back("recordings", config.recording.directory);
    if (!config.dicom.queueDirectory.empty()) c.folders.emplace_back("DICOM queue", config.dicom.queueDirectory);
    return c;
}

namespace {

// A review runs on the built-in front end only, which sends the recording's frames (and its
// shots, dual mode). Without a Configure of its own the acquisition is the recording's geometry,
// at the configured frame rate and centre frequency (and the recording's laser rate).
Status applyReplayToChoice(const config::AppConfig& config, EngineChoice& choice) {
    if (choice.link.backend != LinkChoice::Backend::SimInProcess) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{} can be replayed on the built-in front end only, not over another link", choice.replay->path()));
    }
    choice.link.frontEnd.frameSource = choice.replay;
    choice.link.frontEnd.shotSource = choice.replay->shots();  // dual mode: its shots for the front end's laser
    if (!choice.configure) {
        choice.configure = configureOf(choice.replay->geometry());
        choice.configure->frameRateMilliHz = static_cast<std::uint32_t>(std::lround(config.acquisition.frameRateHz * 1000));
        choice.configure->centerFrequencyHz = static_cast<std::uint32_t>(std::lround(config.probe.centerFrequencyHz));
        if (choice.replay->shots()) choice.configure->laserRateMilliHz = static_cast<std::uint32_t>(std::lround(choice.replay->laserRateHz() * 1000));
    }
    return {};
}

// The nodes, the station's identity and the audit trail always (worklist queries, exports);
// the queue only where this engine runs it (one process holds a queue at a time).
engine::DicomSetup engineDicomSetupFrom(const config::AppConfig& config, bool runsQueue) {
    engine::DicomSetup dicom;
    if (runsQueue) dicom.queueDirectory = config.dicom.queueDirectory;
    dicom.retry = retryPolicyFrom(config.dicom);
    dicom.forwarder = forwarderFrom(config.dicom);
    dicom.uidRoot = config.dicom.uidRoot;
    dicom.stationAeTitle = config.dicom.stationAeTitle;
    dicom.listenPort = config.dicom.listenPort;
    dicom.audit = auditFrom(config.dicom);
    dicom.equipment = equipmentFrom(config.dicom);
    return dicom;
}

// The engine's link, made at each connect. A built-in front end ends with its session: its link
// is made anew; the others are kept.
std::function<Result<engine::LinkHandle>()> engineLinkMaker(const LinkChoice& link) {
    return [link]() -> Result<engine::LinkHandle> {
        auto parts = makeLink(link);
        if (!parts) return fail(std::move(parts.error()));
        const bool reusable = link.backend != LinkChoice::Backend::SimInProcess;
        return engine::LinkHandle{std::move(parts->link), std::shared_ptr<void>(std::move(parts->frontEnd)), reusable};
    };
}

}  // namespace

Result<std::unique_ptr<engine::Engine>> makeEngine(const config::AppConfig& config, EngineChoice choice) {
    if (choice.replay) {
        if (auto applied = applyReplayToChoice(config, choice); !applied) return fail(std::move(applied.error()));
    }
    engine::EngineConfig e;
    e.session.configure = choice.configure ? *choice.configure : configureFrom(config);
    e.session.acceptTimeout = choice.acceptTimeout;
    e.rxCpu = choice.rxCpu >= 0 ? choice.rxCpu : config.link.rxCpu;
    e.reopenAfterSession = choice.reopenAfterSession;
    e.geometry = geometryOf(e.session.configure, photoacousticTimingOf(config));
    e.shotGeometry = shotGeometryOf(e.session.configure, photoacousticTimingOf(config));
    if (choice.replay && choice.replay->shots() && e.shotGeometry) e.shotGeometry = choice.replay->shots()->geometry();  // as recorded
    if (choice.replay && choice.replay->geometry().isShot()) e.geometry = choice.replay->geometry();                     // shots as recorded (delay, speed)
    e.acquisition = choice.replay ? acquisitionSettingsOf(e.session.configure) : acquisitionSettingsFrom(config);
    e.display = choice.display;
    e.imaging = imagingSettingsFrom(config);
    e.photoacoustic = photoacousticSettingsFrom(config);
    e.cineFrames = choice.cineFrames;
    e.selfTest = linkBerTestFrom(config, choice.selfTest);
    e.selfTestSteps = choice.selfTestSteps.empty() ? config.selftest.steps : choice.selfTestSteps;  // --step before selftest.steps
    e.selfTestBlocking = config.selftest.blocksStreaming;
    if (e.selfTest) e.station = stationCheckFrom(config, choice.link);
    if (e.selfTest) e.elementCheck = elementCheckFrom(config);
    e.dicom = engineDicomSetupFrom(config, choice.dicomQueue);
    engine::Backends backends;
    if (choice.display) backends.makeImager = displayImagers(config);
    backends.planAcquisition = choice.replay ? replayPlanner(e.session.configure, choice.replay->path()) : acquisitionPlanner(config);
    backends.phantomReference = phantomReference;
#if SONOLINK_HAVE_CUDA
    if (e.selfTest && config.selftest.gpuMemoryMib > 0) backends.gpuMemoryTest = gpuMemoryTest(static_cast<std::size_t>(config.selftest.gpuMemoryMib) << 20);
#endif
    if (choice.archiveQueue && !config.archive.endpoint.empty()) {
        auto client = makeArchiveClient(config.archive);
        if (!client) return fail(std::move(client.error()).addContext("setting up the archive (archive.endpoint)"));
        backends.archiveClient = std::move(*client);
        const auto& a = config.archive;
        e.archive = {a.queueDirectory, archiveRetryFrom(a), {a.journalDirectory, a.retentionDays, 16, {}}, a.auditFile, a.bucket, a.prefix, true, true};
    }
    backends.makeLink = engineLinkMaker(choice.link);
    backends.clusterFeed = choice.clusterFeed;
    return engine::createEngine(std::move(e), std::move(backends));
}

}  // namespace sonolink::app
