// Raw RF in the UltraSound ToolBox's file format (UFF, HDF5): the channel_data object with its
// sampling_frequency, initial_time, sound_speed, modulation_frequency, probe geometry, sequence
// of plane waves and data stored as frames x waves x channels x samples (int16 or float), laid
// out exactly as USTB writes it, so recordings open in USTB, pyuff and h5py, and their files
// open here. Errors name the file, the dataset and what is wrong with it.
// Thread contract: pure functions; HDF5 calls are serialised by the library (thread-safe build
// or not, call from one thread at a time).
#pragma once

#include <complex>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sonolink/beamform/beamform_types.h"
#include "sonolink/util/result.h"

namespace sonolink::record {

struct UffChannelData {
    beamform::AcquisitionGeometry geometry;  // sampling, sound speed, probe, sequence; waves x channels x samples
    double modulationFrequencyHz = 0;        // 0: RF data
    int frames = 0;                          // the frames held here (read: those asked for)
    int firstFrame = 0;                      // read: the file's index of the first of them
    int framesInFile = 0;                    // read: how many the file holds
    std::vector<std::int16_t> data16;        // frames x waves x channels x samples: one of the two
    std::vector<float> dataFloat;
    std::vector<std::complex<float>> dataIq;  // IQ files (modulation frequency > 0) instead

    [[nodiscard]] bool isIq() const noexcept { return !dataIq.empty(); }
    // One frame of IQ samples (empty for RF data or a frame out of range).
    [[nodiscard]] std::span<const std::complex<float>> iqFrame(int index) const;

    // The beamformer's view of one frame (valid while this object lives and is not changed); for
    // IQ data, the layout only (its samples come from iqFrame).
    [[nodiscard]] Result<beamform::ChannelDataView> frame(int index) const;
};

// Writes (replacing) the group `group` (USTB: "/channel_data") of a new or existing file.
[[nodiscard]] Status writeUffChannelData(const std::string& path, const UffChannelData& data, const std::string& group = "/channel_data");
// Which frames to read, and how much memory their samples may take.
struct UffReadOptions {
    int firstFrame = 0;
    int frameCount = -1;                  // -1: to the end of the file
    std::uint64_t memoryBudgetBytes = 0;  // 0: half of this machine's memory
};

// Reads RF channel data (int16, float or double samples), or IQ data (a modulation frequency and
// "data" as a group of "real" and "imag"), of plane, focused or diverging waves: the frames asked
// for only. Sizes and physics are checked before anything is allocated from them (InvalidArgument
// naming the value), samples past the memory budget are refused with the figures
// (ResourceExhausted), and a sample that is no number is named by frame, wave, channel, sample.
[[nodiscard]] Result<UffChannelData> readUffChannelData(const std::string& path, const std::string& group = "/channel_data",
                                                        const UffReadOptions& options = {});

}  // namespace sonolink::record
