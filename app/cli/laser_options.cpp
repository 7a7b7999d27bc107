#include "laser_options.h"

#include <chrono>

namespace sonolink::cli {

transport::sim::LaserModel LaserOptions::simulated() const {
    auto laser = model;
    laser.jitter = std::chrono::nanoseconds(jitterNs);
    return laser;
}

void addLaserOptions(CLI::App& cmd, LaserOptions& o) {
    cmd.add_option("--laser-hz", o.rateHz, "Dual mode: laser shots per second (overrides acquisition.laser_rate_hz)")->check(CLI::Range(1.0, 1000.0));
    cmd.add_option("--laser-jitter-ns", o.jitterNs, "Built-in front end: each pulse within +-this of its fire time")->capture_default_str();
    cmd.add_option("--laser-miss-every", o.model.missEvery, "Built-in front end: every n-th shot misfires (0: none)")->capture_default_str();
    cmd.add_option("--laser-miss-probability", o.model.missProbability, "Built-in front end: each shot misfires with this probability")
        ->check(CLI::Range(0.0, 1.0))
        ->capture_default_str();
    cmd.add_option("--laser-energy-spread", o.model.energySpread, "Built-in front end: shot-to-shot pulse energy spread (relative SD)")
        ->check(CLI::Range(0.0, 0.5))
        ->capture_default_str();
}

nlohmann::json laserJson(const engine::EngineStats& s) {
    const auto& l = s.laser;
    return {{"scheduled", l.scheduled},
            {"fired", l.fired},
            {"missed", l.missed},
            {"late", l.late},
            {"front_end_fired", s.frontEnd.shotsFired},
            {"front_end_missed", s.frontEnd.shotsMissed},
            {"front_end_late", s.frontEnd.shotsLate},
            {"energy_last_mj", l.lastEnergyMj},
            {"energy_mean_mj", l.meanEnergyMj},
            {"energy_spread_percent", l.energySpreadPercent},
            {"worst_fire_error_us", l.worstFireErrorUs},
            {"frames", l.frames},
            {"worst_stamp_error_us", l.worstStampErrorUs},
            {"shown", l.shown},
            {"dark", l.dark},
            {"shot_to_shown_p50_ms", l.shotToShownP50Ms},
            {"shot_to_shown_p99_ms", l.shotToShownP99Ms}};
}

}  // namespace sonolink::cli
