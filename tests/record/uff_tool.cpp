// uff_tool: the test's hands on the UFF reader and writer, for the h5py cross-checks.
//   uff_tool write PATH int16|float   writes a known dataset: 2 frames x 3 waves x 4 channels x 5 samples,
//                                     sample value = 1000 f + 100 w + 10 c + s
//   uff_tool read PATH                prints what was read as JSON, or the error (exit 1)
#include <cstdio>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "sonolink/record/uff_channel_data.h"

int main(int argc, char** argv) {
    using namespace sonolink::record;
    const std::string command = argc > 1 ? argv[1] : "";
    if (command == "write" && argc == 4) {
        UffChannelData d;
        d.geometry.samplingRateHz = 40e6;
        d.geometry.initialTimeS = 2e-6;
        d.geometry.soundSpeedMps = 1540;
        d.geometry.elementX = {-0.45e-3, -0.15e-3, 0.15e-3, 0.45e-3};
        d.geometry.elementWidthM = 0.27e-3;
        d.geometry.elementHeightM = 5e-3;
        d.geometry.angleRad = {-0.1, 0.0, 0.1};
        d.frames = 2, d.geometry.waves = 3, d.geometry.channels = 4, d.geometry.samples = 5;
        for (int f = 0; f < 2; ++f)
            for (int w = 0; w < 3; ++w)
                for (int c = 0; c < 4; ++c)
                    for (int s = 0; s < 5; ++s) {
                        const int v = 1000 * f + 100 * w + 10 * c + s;
                        if (std::string(argv[3]) == "int16") d.data16.push_back(static_cast<std::int16_t>(v));
                        else d.dataFloat.push_back(static_cast<float>(v));
                    }
        auto written = writeUffChannelData(argv[2], d);
        if (!written) {
            std::cerr << written.error().describe() << '\n';
            return 1;
        }
        return 0;
    }
    if (command == "read" && argc == 3) {
        auto d = readUffChannelData(argv[2]);
        if (!d) {
            std::cout << nlohmann::json{{"error", d.error().message()}, {"code", std::string(sonolink::toString(d.error().code()))}}.dump() << '\n';
            return 1;
        }
        double sum = 0;
        for (auto v : d->data16) sum += v;
        for (auto v : d->dataFloat) sum += v;
        auto frame = d->frame(d->frames - 1);
        nlohmann::json out{{"frames", d->frames},
                           {"waves", d->geometry.waves},
                           {"channels", d->geometry.channels},
                           {"samples", d->geometry.samples},
                           {"sampling_frequency", d->geometry.samplingRateHz},
                           {"initial_time", d->geometry.initialTimeS},
                           {"sound_speed", d->geometry.soundSpeedMps},
                           {"element_x", d->geometry.elementX},
                           {"angles", d->geometry.angleRad},
                           {"int16", !d->data16.empty()},
                           {"sum", sum},
                           {"last_frame_view_ok", frame.has_value()}};
        std::cout << out.dump() << '\n';
        return 0;
    }
    std::cerr << "usage: uff_tool write PATH int16|float | uff_tool read PATH\n";
    return 2;
}
