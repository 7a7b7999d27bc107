// Display products the GUI pulls at its own rate from the engine's mailboxes: the latest B-mode
// picture (8-bit, true proportions, calibrated, with the settings that made it) and RF traces of chosen channels. Plain values; the engine never
// writes into one it has published, so a reader may keep it as long as it draws.
// Thread contract: plain values, copy freely.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sonolink/engine/settings.h"

namespace sonolink::engine {

// The latest B-mode picture: 8-bit, rows along depth, on the display raster: true proportions
// (cmPerPixelX == cmPerPixelY), fitting the settings' display box.
struct DisplayFrame {
    std::uint64_t session = 0;  // the link session (a reconnect starts the next)
    std::uint32_t frameId = 0;  // the front end's frame id: increasing within a session, never repeated
    int rows = 0;
    int columns = 0;
    std::vector<std::uint8_t> pixels;  // rows x columns, row-major
    double cmPerPixelX = 0;
    double cmPerPixelY = 0;
    double xStartCm = 0;        // the centre of the first column: lateral, 0 under the array's centre
    double zStartCm = 0;        // the centre of the first row: depth from the array's face
    ImagingSettings imaging;    // what made this picture (grid, window, TGC, gain, dynamic range, persistence, grey map)
    std::uint64_t readyNs = 0;  // steady clock, when published
    double latencyUs = 0;       // last block of the frame written -> published
    // A laser shot's picture (its own levels: the colour map is applied where it is shown).
    bool photoacoustic = false;
    std::uint64_t timestampNs = 0;  // the front end's PTP time of the transmit, or of the pulse
    std::uint32_t laserEnergyMicroJ = 0;
    // Joined from several acquisition hosts' partials and lacking some: "incomplete aperture: host 2".
    // Empty: the whole aperture.
    std::string incompleteAperture;
};

// RF traces of selected channels of the newest frame shown (first transmit), for the engineer's
// RF view: channels.size() traces of samplesPerChannel ADC counts each.
struct RfLines {
    std::uint64_t session = 0;
    std::uint32_t frameId = 0;
    std::vector<int> channels;
    int samplesPerChannel = 0;
    double samplingRateHz = 0;  // sample k at initialTimeUs + k / samplingRateHz
    double initialTimeUs = 0;
    std::vector<std::int16_t> samples;  // channel-major
};

}  // namespace sonolink::engine
