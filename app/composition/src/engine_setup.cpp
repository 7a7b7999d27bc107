#include "sonolink/app/engine_setup.h"

#include <fmt/format.h>

#include "sonolink/app/acquisition_setup.h"
#include "sonolink/app/dicom_setup.h"
#include "sonolink/app/hardware_probe.h"
#include "sonolink/app/replay_source.h"
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

// Which beamformer the display uses, and why, in words for the log.
std::string displayBeamformerChoice(const config::AppConfig& config) {
    if (config.beamform.backend == config::BeamformerBackend::Cpu) return "CPU (beamform.backend is cpu)";
    const auto hardware = probeHardware();
    if (!hardware.cudaBuilt) return "CPU (this build has no CUDA module)";
    if (hardware.gpus.empty()) return fmt::format("CPU (no usable CUDA device: {})", hardware.cudaStatus);
    return fmt::format("CPU (found {}, but the engine's CUDA display path is not wired yet)", hardware.gpus.front().name);
}

}  // namespace

Result<std::unique_ptr<engine::Engine>> makeEngine(const config::AppConfig& config, EngineChoice choice) {
    static auto& logCategory = log::category("engine");
    if (choice.display) log::info(logCategory, "display beamformer: {}", displayBeamformerChoice(config));
    engine::EngineConfig e;
    e.session.configure = configureFrom(config);
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
    e.metricsPort = config.metrics.prometheusPort;
    if (choice.dicomQueue) {
        e.dicom.queueDirectory = config.dicom.queueDirectory;
        e.dicom.retry = retryPolicyFrom(config.dicom);
        e.dicom.forwarder = forwarderFrom(config.dicom);
        e.dicom.uidRoot = config.dicom.uidRoot;
        e.dicom.listenPort = config.dicom.listenPort;
        e.dicom.audit = auditFrom(config.dicom);
    }
    e.dicom.equipment = {"SonoLink", "SonoLink Workstation", "", buildInfo().version, config.dicom.stationAeTitle};
    engine::Backends backends;
    backends.makeLink = [link = choice.link]() -> Result<engine::LinkHandle> {
        auto parts = makeLink(link);
        if (!parts) return fail(std::move(parts.error()));
        return engine::LinkHandle{std::move(parts->link), std::shared_ptr<void>(std::move(parts->frontEnd))};
    };
    return engine::Engine::create(std::move(e), std::move(backends));
}

}  // namespace sonolink::app
