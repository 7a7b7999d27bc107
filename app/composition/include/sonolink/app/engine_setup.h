// makeEngine(): the engine built from configuration by the composition root: the link backend
// (the built-in simulated front end, shared-memory sim, or verbs), the Configure it sends, the
// geometry and grid the display beamforms onto (CPU; the CUDA beamformer joins here), and the
// PACS side (queue, nodes, audit). Thread contract: call from one thread.
#pragma once

#include <memory>

#include "sonolink/app/link_factory.h"
#include "sonolink/config/app_config.h"
#include "sonolink/engine/engine_backends.h"

namespace sonolink::app {

struct EngineChoice {
    LinkChoice link;                  // backend, names, ring; frontEnd: the built-in one's options
    beamform::PixelGrid grid;         // empty: 256 x 512 over the probe's width, 3..38 mm deep
    std::size_t cineFrames = 64;
    bool display = true;              // false: no display products (link and recording only)
    bool dicomQueue = true;           // run the PACS queue (dicom.queue_directory)
};

[[nodiscard]] Result<std::unique_ptr<engine::Engine>> makeEngine(const config::AppConfig& config, EngineChoice choice);
// The link choice the configuration asks for (in-process sim unless told otherwise).
[[nodiscard]] LinkChoice linkChoiceFrom(const config::AppConfig& config, bool inProcess);

}  // namespace sonolink::app
