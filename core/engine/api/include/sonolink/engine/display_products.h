// Display products the GUI pulls at its own rate from the engine's mailboxes: the latest B-mode
// image (8-bit, calibrated) and RF traces of chosen channels. Plain values; the engine never
// writes into one it has published, so a reader may keep it as long as it draws.
// Thread contract: plain values, copy freely.
#pragma once

#include <cstdint>
#include <vector>

namespace sonolink::engine {

// The latest B-mode image: 8-bit, rows along depth, calibrated.
struct DisplayFrame {
    std::uint64_t session = 0;   // the link session (a reconnect starts the next)
    std::uint32_t frameId = 0;   // the front end's frame id: increasing within a session, never repeated
    int rows = 0;
    int columns = 0;
    std::vector<std::uint8_t> pixels;  // rows x columns, row-major
    double cmPerPixelX = 0;
    double cmPerPixelY = 0;
    std::uint64_t readyNs = 0;          // steady clock, when published
    double latencyUs = 0;               // last block of the frame written -> published
};

// RF traces of selected channels of the newest frame shown (first transmit), for the engineer's
// RF view: channels.size() traces of samplesPerChannel ADC counts each.
struct RfLines {
    std::uint64_t session = 0;
    std::uint32_t frameId = 0;
    std::vector<int> channels;
    int samplesPerChannel = 0;
    std::vector<std::int16_t> samples;  // channel-major
};

}  // namespace sonolink::engine
