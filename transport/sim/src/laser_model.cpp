#include "sonolink/transport/sim/laser_model.h"

#include <algorithm>
#include <cmath>

namespace sonolink::transport::sim {

Laser::Laser(LaserModel model, std::uint64_t seed) : model_(model), random_(seed ^ 0x1A5E'2D00'0000'0001ull) {}

LaserShot Laser::fire(std::uint32_t shotId, std::uint64_t fireTimeNs) {
    // Every draw made whatever the outcome, so that a shot's fate does not depend on the others'.
    const double misfire = std::uniform_real_distribution<double>(0.0, 1.0)(random_);
    const double offset = std::uniform_real_distribution<double>(-1.0, 1.0)(random_);
    const double spread = std::normal_distribution<double>(0.0, 1.0)(random_);
    const bool everyNth = model_.missEvery != 0 && shotId % model_.missEvery == model_.missEvery - 1;
    if (everyNth || misfire < model_.missProbability) return {ShotOutcome::Missed, 0, 0};
    const auto jitterNs = static_cast<double>(model_.jitter.count());
    const auto fired = static_cast<std::int64_t>(fireTimeNs) + std::llround(offset * jitterNs);
    const double energy = model_.energyMicroJ * std::max(0.05, 1.0 + model_.energySpread * spread);
    return {ShotOutcome::Fired, static_cast<std::uint64_t>(fired), static_cast<std::uint32_t>(std::lround(energy))};
}

}  // namespace sonolink::transport::sim
