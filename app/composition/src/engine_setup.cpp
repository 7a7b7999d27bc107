#include "sonolink/app/engine_setup.h"

#include <fmt/format.h>

#include "sonolink/app/acquisition_setup.h"
#include "sonolink/app/dicom_setup.h"
#include "sonolink/app/hardware_probe.h"
#include "sonolink/app/replay_source.h"
#if SONOLINK_HAVE_CUDA
#include "gpu_frame_imager.h"
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

// The display's imager: the CUDA beamformer where the configuration allows it and a device
// works, else null (the engine's CPU reference), with the reason in the log either way.
std::unique_ptr<engine::FrameImager> displayImager(const config::AppConfig& config, [[maybe_unused]] const engine::EngineConfig& e) {
    if (config.beamform.backend == config::BeamformerBackend::Cpu) {
        log::info(logCategory(), "display beamformer: CPU (beamform.backend is cpu)");
        return nullptr;
    }
    const auto hardware = probeHardware();
    std::string reason;
    if (!hardware.cudaBuilt) {
        reason = "this build has no CUDA module";
    } else if (hardware.gpus.empty()) {
        reason = fmt::format("no usable CUDA device: {}", hardware.cudaStatus);
    } else {
#if SONOLINK_HAVE_CUDA
        auto imager = makeGpuFrameImager(e.geometry, e.imaging);
        if (imager) {
            log::info(logCategory(), "display beamformer: GPU ({})", hardware.gpus.front().name);
            return std::move(*imager);
        }
        reason = fmt::format("the CUDA beamformer could not start on {}: {}", hardware.gpus.front().name, imager.error().message());
#endif
    }
    if (config.beamform.backend == config::BeamformerBackend::Cuda) {
        log::warn(logCategory(), "display beamformer: CPU, although beamform.backend asks for cuda ({})", reason);
    } else {
        log::info(logCategory(), "display beamformer: CPU ({})", reason);
    }
    return nullptr;
}

}  // namespace

Result<std::unique_ptr<engine::Engine>> makeEngine(const config::AppConfig& config, EngineChoice choice) {
    engine::EngineConfig e;
    e.session.configure = choice.configure ? *choice.configure : configureFrom(config);
    e.session.acceptTimeout = choice.acceptTimeout;
    e.rxCpu = choice.rxCpu >= 0 ? choice.rxCpu : config.link.rxCpu;
    e.reopenAfterSession = choice.reopenAfterSession;
    e.geometry = recordingMetadataFor(e.session.configure);
    e.imaging.enabled = choice.display;
    e.imaging.grid = choice.grid;
    if (e.imaging.grid.x.empty()) {
        const double half = (e.geometry.elementX.back() - e.geometry.elementX.front()) / 2;
        e.imaging.grid = beamform::PixelGrid::fromRanges(-half, half, 256, 3e-3, 38e-3, 512);
    }
    e.imaging.params.fNumber = config.beamform.fNumber;
    e.imaging.params.window = config.beamform.window == config::ApodizationWindow::Hann ? beamform::Window::Hann
                              : config.beamform.window == config::ApodizationWindow::Tukey ? beamform::Window::Tukey
                                                                                           : beamform::Window::Rectangular;
    e.imaging.dynamicRangeDb = config.beamform.dynamicRangeDb;
    e.imaging.gainDb = config.beamform.gainDb;
    e.cineFrames = choice.cineFrames;
    if (choice.dicomQueue) {
        e.dicom.queueDirectory = config.dicom.queueDirectory;
        e.dicom.retry = retryPolicyFrom(config.dicom);
        e.dicom.forwarder = forwarderFrom(config.dicom);
        e.dicom.uidRoot = config.dicom.uidRoot;
        e.dicom.stationAeTitle = config.dicom.stationAeTitle;
        e.dicom.listenPort = config.dicom.listenPort;
        e.dicom.audit = auditFrom(config.dicom);
    }
    e.dicom.equipment = {"SonoLink", "SonoLink Workstation", config.dicom.deviceSerialNumber, buildInfo().version, config.dicom.stationAeTitle};
    engine::Backends backends;
    if (choice.display) backends.imager = displayImager(config, e);
    backends.makeLink = [link = choice.link]() -> Result<engine::LinkHandle> {
        auto parts = makeLink(link);
        if (!parts) return fail(std::move(parts.error()));
        // A built-in front end ends with its session: its link is made anew; the others are kept.
        const bool reusable = link.backend != LinkChoice::Backend::SimInProcess;
        return engine::LinkHandle{std::move(parts->link), std::shared_ptr<void>(std::move(parts->frontEnd)), reusable};
    };
    return engine::createEngine(std::move(e), std::move(backends));
}

}  // namespace sonolink::app
