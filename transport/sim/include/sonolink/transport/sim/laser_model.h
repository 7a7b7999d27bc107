// Laser: the simulated excitation laser of a photoacoustic front end. Each shot the host
// schedules (or the front end times itself, photoacoustic-only) leaves within its timing jitter
// of the fire time, or misfires (every n-th shot, or at random), and the photodiode reads its
// pulse energy, which varies shot to shot; the photoacoustic signal scales with it.
// Deterministic for a given seed. Thread contract: one thread (the front end's).
#pragma once

#include <chrono>
#include <cstdint>
#include <random>

#include "sonolink/transport/protocol/control_messages.h"

namespace sonolink::transport::sim {

struct LaserModel {
    std::chrono::nanoseconds jitter{500};  // a pulse leaves within +-jitter of its fire time (uniform)
    std::uint32_t missEvery = 0;           // shots n-1, 2n-1, ... do not fire; 0: none
    double missProbability = 0;            // and each shot misfires with this probability
    std::uint32_t energyMicroJ = 20'000;   // nominal pulse energy (20 mJ)
    double energySpread = 0.03;            // shot-to-shot relative standard deviation
};

struct LaserShot {
    ShotOutcome outcome = ShotOutcome::Fired;
    std::uint64_t firedNs = 0;       // when the pulse left (Fired only)
    std::uint32_t energyMicroJ = 0;  // what the photodiode read (Fired only)
    // The photoacoustic signal's amplitude against the nominal pulse's (energy / nominal).
    [[nodiscard]] double amplitude(const LaserModel& model) const noexcept {
        return model.energyMicroJ == 0 ? 0.0 : static_cast<double>(energyMicroJ) / model.energyMicroJ;
    }
};

class Laser {
public:
    Laser(LaserModel model, std::uint64_t seed);
    // Shot shotId, due at fireTimeNs.
    [[nodiscard]] LaserShot fire(std::uint32_t shotId, std::uint64_t fireTimeNs);
    [[nodiscard]] const LaserModel& model() const noexcept { return model_; }

private:
    LaserModel model_;
    std::mt19937_64 random_;
};

}  // namespace sonolink::transport::sim
