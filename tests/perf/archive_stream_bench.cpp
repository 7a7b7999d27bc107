// archive_stream_bench SOURCE [--config FILE] [--frames N] [--mapped] [--read-only] [--threads T]: a recording
// streamed through the CPU beamformer (the shipped grid: 256 x 512 pixels, Hann, F# 1.5; every
// hardware thread, or T) from a local file (HDF5's own driver), a mapped local file (--mapped: the
// archive's path, through a ByteSource) or an object in the archive (s3://, through the archive
// configured in FILE). Prints JSON: the seconds from opening to the first frame beamformed, and
// frames/s over the first N frames in order (--read-only: reading alone, no beamforming), and the
// share of that time spent reading (waiting for a frame) rather than beamforming, and the read-ahead
// ring's buffers made and page-locked (where a GPU is present).
// Run by tests/perf/archive_stream_bench.py, which starts the server and compares the three.
#include <chrono>
#include <iostream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "sonolink/app/archive_source.h"
#include "sonolink/beamform/cpu_beamformer.h"
#include "sonolink/config/config_loader.h"
#include "sonolink/record/read_ahead.h"

using namespace sonolink;
using Clock = std::chrono::steady_clock;

int main(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << "usage: archive_stream_bench SOURCE [--config FILE] [--frames N] [--mapped] [--read-only]\n";
        return 2;
    }
    std::string source = argv[1], configFile;
    int frames = 100;
    bool mapped = false, readOnly = false;
    unsigned threads = 0;
    for (int i = 2; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--config" && i + 1 < argc) configFile = argv[++i];
        else if (a == "--frames" && i + 1 < argc) frames = std::stoi(argv[++i]);
        else if (a == "--mapped") mapped = true;
        else if (a == "--read-only") readOnly = true;
        else if (a == "--threads" && i + 1 < argc) threads = static_cast<unsigned>(std::stoi(argv[++i]));
    }
    auto config = config::loadConfig(configFile, {});
    if (!config) return std::cerr << config.error().describe() << '\n', 1;
    const auto started = Clock::now();
    Result<record::UffReader> reader = fail(ErrorCode::Internal, "unset");
    if (mapped) {
        auto file = mapFile(source);
        if (!file) return std::cerr << file.error().describe() << '\n', 1;
        reader = record::UffReader::open(*file);
    } else {
        reader = app::openRecording(source, config->archive);
    }
    if (!reader) return std::cerr << reader.error().describe() << '\n', 1;
    const auto& g = reader->header().geometry;
    frames = std::min(frames, reader->header().framesInFile);
    const auto grid = beamform::PixelGrid::fromRanges(-19e-3, 19e-3, 256, 5e-3, 38e-3, 512);
    beamform::BeamformParams params;
    params.window = beamform::Window::Hann;
    std::vector<std::int16_t> samples(g.samplesPerFrame());
    double firstFrameS = 0;
    Clock::time_point loopStart;
    double readS = 0;  // in the loop (after the first frame): time spent reading, not beamforming
    for (int f = 0; f < frames; ++f) {
        const auto readStart = Clock::now();
        if (auto ok = reader->readFrame16(f, samples); !ok) return std::cerr << ok.error().describe() << '\n', 1;
        if (f > 0) readS += std::chrono::duration<double>(Clock::now() - readStart).count();
        if (!readOnly) {
            beamform::ChannelDataView view;
            view.geometry = &g;
            view.samples16 = samples;
            auto image = beamform::delayAndSum(view, grid, params, threads);
            if (!image) return std::cerr << image.error().describe() << '\n', 1;
            beamform::envelopeAlongDepth(*image, threads);
        }
        if (f == 0) {
            firstFrameS = std::chrono::duration<double>(Clock::now() - started).count();
            loopStart = Clock::now();
        }
    }
    const double loopS = std::chrono::duration<double>(Clock::now() - loopStart).count();
    std::cout << fmt::format(
        "{{\"source\": \"{}\", \"mapped\": {}, \"read_only\": {}, \"first_frame_s\": {:.4f}, \"frames\": {}, "
        "\"frames_per_s\": {:.2f}, \"read_share\": {:.3f}, \"frame_bytes\": {}, \"threads\": {}, "
        "\"read_ahead_buffers\": {}, \"read_ahead_pinned\": {}}}\n",
        source, mapped, readOnly, firstFrameS, frames, frames > 1 ? (frames - 1) / loopS : 0.0, loopS > 0 ? readS / loopS : 0.0, samples.size() * 2, threads,
        record::readAheadCounts().buffersMade, record::readAheadCounts().buffersPinned);
    return 0;
}
