// UffStreamWriter: writes a UFF channel_data group frame by frame while acquiring: the
// metadata first, then an extendible int16 data set (frames x waves x channels x samples,
// chunked one wave-channel-block per chunk) that grows by one frame at a time, and beside it each
// frame's id and acquisition time (/acquisition: a dropped frame is a visible gap); each block is
// written straight from the front end's little-endian payload (no copy on this side). What is
// written reaches the disk, synced, within 100 ms (endFrame), so a full disk shows at once; a reserve file
// beside the recording keeps room to close it: after a failure, close() frees the reserve and
// keeps the frames written whole before it, readable. More kinds of frame go into groups of their
// own (addStream: dual mode's laser shots beside the ultrasound frames), each with its per-frame
// values. Thread contract: one thread (the recorder's).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "sonolink/record/uff_channel_data.h"

namespace sonolink::record {

class UffStreamWriter {
public:
    // The recording's geometry (RF data: no modulation frequency).
    [[nodiscard]] static Result<std::unique_ptr<UffStreamWriter>> create(const std::string& path, const beamform::AcquisitionGeometry& geometry,
                                                                         const std::string& group = "/channel_data");
    ~UffStreamWriter();
    UffStreamWriter(const UffStreamWriter&) = delete;
    UffStreamWriter& operator=(const UffStreamWriter&) = delete;

    // Another kind of frame in the same file: a channel_data group of this geometry, its frames'
    // ids and times (and, for laser shots, pulse energies) under acquisitionGroup. Its index.
    [[nodiscard]] Result<int> addStream(const beamform::AcquisitionGeometry& geometry, const std::string& group, const std::string& acquisitionGroup);
    // Adds a frame of zeros to a stream (0: the first), with the front end's id and acquisition
    // time of the frame (<acquisition>/frame_id and frame_time_ns, one entry per frame; a laser
    // shot's pulse energy in laser_energy_uj).
    [[nodiscard]] Status beginFrame(std::uint32_t frameId, std::uint64_t timeNs, int stream = 0, std::uint32_t laserEnergyMicroJ = 0);
    [[nodiscard]] Status endFrame();  // the frame is whole; flushed to the disk every 100 ms
    // int16 little-endian samples, [channel][sample], for one wave of the frame begun last.
    [[nodiscard]] Status writeBlock(int wave, int firstChannel, int channelCount, int firstSample, int sampleCount, std::span<const std::byte> payload);
    // Flushes and closes (also done by the destructor); after a failed write or flush, keeps only
    // the frames that were written whole.
    [[nodiscard]] Status close();
    [[nodiscard]] int frames(int stream = 0) const noexcept;  // written whole

private:
    struct State;
    struct Stream;
    static void brokenAt(State& s) noexcept;
    [[nodiscard]] static int totalWholeFrames(const State& s) noexcept;
    [[nodiscard]] static Status prepare(State& state, const std::string& group);
    [[nodiscard]] static Status prepareStream(State& state, Stream& stream, const std::string& group, const std::string& acquisitionGroup, bool laserShots);
    explicit UffStreamWriter(std::unique_ptr<State> state);
    std::unique_ptr<State> state_;
};

}  // namespace sonolink::record
