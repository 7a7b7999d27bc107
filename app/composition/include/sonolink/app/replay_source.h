// RecordingReplay: a recording (UFF file) as the simulated front end's frame source, so that
// replay goes through the same link and ingest path as live acquisition, bit-exactly. Frames
// are read from the file one at a time as they are sent (a 20 GB recording replays in a few
// MB); a Configure that does not match the recording's geometry is refused with the reason
// (configureOf(geometry()), acquisition_setup.h, gives the one that matches). A dual-mode
// recording's laser shots come as a second source (shots()), for the front end's laser.
// Thread contract: open() anywhere; the FrameSource calls on the front end's thread.
#pragma once

#include <memory>
#include <string>

#include "sonolink/beamform/beamform_types.h"
#include "sonolink/config/app_config.h"
#include "sonolink/record/uff_reader.h"
#include "sonolink/transport/sim/front_end_simulator.h"

namespace sonolink::app {

class RecordingReplay final : public transport::sim::FrameSource {
public:
    // Checks the file (its geometry, physics, sample type and first frame) without reading
    // the rest; float recordings are refused (the front end replays int16 ADC samples).
    // path: a local file, or an s3:// URL read in place through the configured archive.
    // A dual-mode recording's laser shots (/photoacoustic_data) come with it as shots() (a local
    // file's; a recording in the archive replays its ultrasound frames).
    [[nodiscard]] static Result<std::shared_ptr<RecordingReplay>> open(const std::string& path, const config::ArchiveSettings& archive = {},
                                                                       const std::string& group = "/channel_data");

    [[nodiscard]] const beamform::AcquisitionGeometry& geometry() const noexcept { return reader_.header().geometry; }
    [[nodiscard]] const std::string& path() const noexcept { return path_; }
    [[nodiscard]] std::uint32_t frames() const noexcept { return static_cast<std::uint32_t>(reader_.header().framesInFile); }
    // Dual mode: the recording's laser shots, replayed between its ultrasound frames at the rate
    // they were recorded at (null: none).
    [[nodiscard]] const std::shared_ptr<RecordingReplay>& shots() const noexcept { return shots_; }
    [[nodiscard]] double laserRateHz() const noexcept { return laserRateHz_; }

    [[nodiscard]] Result<std::uint32_t> frameCount(const transport::Configure& configure, const transport::sim::FrameLayout& layout) override;
    [[nodiscard]] Status readFrame(std::uint32_t index, std::span<std::byte> out) override;

private:
    RecordingReplay(std::string path, record::UffReader reader) : path_(std::move(path)), reader_(std::move(reader)) {}
    std::string path_;
    record::UffReader reader_;
    std::shared_ptr<RecordingReplay> shots_;
    double laserRateHz_ = 0;
};

}  // namespace sonolink::app
