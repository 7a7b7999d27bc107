// The laser options sonolink-cli's acquiring commands share: dual mode's shot rate and the
// built-in front end's laser model (jitter, misfires, pulse energy spread), and the laser's
// summary as JSON (the host's counts beside the front end's own, energies, timing).
// Thread contract: main thread only.
#pragma once

#include <cstdint>
#include <optional>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "sonolink/engine/engine_stats.h"
#include "sonolink/transport/sim/laser_model.h"

namespace sonolink::cli {

struct LaserOptions {
    std::optional<double> rateHz;      // dual mode (acquisition.laser_rate_hz)
    transport::sim::LaserModel model;  // the built-in front end's laser
    std::int64_t jitterNs = 500;
    [[nodiscard]] transport::sim::LaserModel simulated() const;
};

void addLaserOptions(CLI::App& cmd, LaserOptions& o);
[[nodiscard]] nlohmann::json laserJson(const engine::EngineStats& stats);

}  // namespace sonolink::cli
