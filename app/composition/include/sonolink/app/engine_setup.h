// makeEngine(): the engine built from configuration by the composition root: the link backend
// (the built-in simulated front end, shared-memory sim, or verbs), the Configure it sends, the
// geometry and grid the display beamforms onto (CPU; the CUDA beamformer joins here), and the
// PACS side (queue, nodes, audit). Thread contract: call from one thread.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>

#include "sonolink/app/link_factory.h"
#include "sonolink/config/app_config.h"
#include "sonolink/engine/engine_backends.h"

namespace sonolink::app {

class RecordingReplay;

// Whether connect() runs the start-up self-test: as selftest.at_connect and selftest.mode say,
// or as a command asks (sonolink-cli selftest --quick / --full; off for timed measurements).
enum class SelfTestChoice { AsConfigured, Off, Quick, Full };

struct EngineChoice {
    LinkChoice link;  // backend, names, ring; frontEnd: the built-in one's options
    std::size_t cineFrames = 64;
    bool display = true;                            // false: no display products (link and recording only)
    bool dicomQueue = true;                         // run the PACS queue (dicom.queue_directory)
    bool archiveQueue = true;                       // run the archive's upload queue (archive.queue_directory, when archive.endpoint is set)
    std::optional<transport::Configure> configure;  // instead of the configuration's (a replay's geometry, a test pattern)
    // A review (replay_source.h): the built-in front end sends this recording's frames, in a loop,
    // through the link, ingest and display like live data. The acquisition is the recording's
    // (its geometry, at configure's frame rate, else the configuration's): the settings show it,
    // and the planner refuses any other but a new frame rate, naming the recording.
    std::shared_ptr<RecordingReplay> replay;
    std::chrono::milliseconds acceptTimeout{10'000};  // how long a connect waits for the front end
    int rxCpu = -1;                                   // >= 0: pin the rx thread (else link.rx_cpu)
    bool reopenAfterSession = true;                   // false: a session the front end ends leaves the engine Idle (a timed run)
    SelfTestChoice selfTest = SelfTestChoice::AsConfigured;
    std::vector<std::string> selfTestSteps;  // only these steps (engine::kSelfTestSteps' names); empty: all
    // Set: the station is a cluster's display host (app/cluster_feed); no link or self-test of its own.
    std::shared_ptr<engine::ClusterFeed> clusterFeed;
};

[[nodiscard]] Result<std::unique_ptr<engine::Engine>> makeEngine(const config::AppConfig& config, EngineChoice choice);
// The facade's run-time settings as the configuration sets them at start.
[[nodiscard]] engine::ImagingSettings imagingSettingsFrom(const config::AppConfig& config);
// How dual mode's laser shots are shown at the start (display.photoacoustic_*).
[[nodiscard]] engine::PhotoacousticSettings photoacousticSettingsFrom(const config::AppConfig& config);
[[nodiscard]] engine::AcquisitionSettings acquisitionSettingsFrom(const config::AppConfig& config);
// The acquisition settings a Configure stands for (a replay's: what the console shows).
[[nodiscard]] engine::AcquisitionSettings acquisitionSettingsOf(const transport::Configure& configure);
// The start-up link BER test the configuration (or the choice) asks for; none when off.
[[nodiscard]] std::optional<engine::LinkBerTest> linkBerTestFrom(const config::AppConfig& config, SelfTestChoice choice);
// What the station's set-up must hold for this link and configuration: the ring in locked memory
// (verbs), huge pages when asked for, a minute of recording on disk, writable data folders.
// The element check from selftest.element_*: none when selftest.element_check is false.
[[nodiscard]] std::optional<engine::ElementCheckSetup> elementCheckFrom(const config::AppConfig& config);
[[nodiscard]] engine::StationCheck stationCheckFrom(const config::AppConfig& config, const LinkChoice& link);
// The engine's acquisition planner: the configuration with the settings' probe and acquisition,
// as a Configure and the geometry it stands for.
[[nodiscard]] std::function<Result<engine::AcquisitionPlan>(const engine::AcquisitionSettings&)> acquisitionPlanner(const config::AppConfig& config);
// The link choice the configuration asks for (in-process sim unless told otherwise).
[[nodiscard]] LinkChoice linkChoiceFrom(const config::AppConfig& config, bool inProcess);

}  // namespace sonolink::app
