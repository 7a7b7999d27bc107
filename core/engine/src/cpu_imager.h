// CpuImager: the engine's default FrameImager: the frame's blocks gathered once into a working
// buffer (waves x channels x samples), then the CPU delay-and-sum on the setup's grid and the
// envelope along depth.
// Thread contract: one thread (the display pipeline's).
#pragma once

#include <vector>

#include "sonolink/engine/engine_backends.h"

namespace sonolink::engine {

class CpuImager final : public FrameImager {
public:
    CpuImager(const beamform::AcquisitionGeometry& geometry, const ImagingSetup& imaging);
    [[nodiscard]] std::string name() const override { return "CPU"; }
    [[nodiscard]] Status load(const ingest::Frame& frame) override;
    [[nodiscard]] Result<beamform::BeamformedImage> envelope() override;

private:
    beamform::AcquisitionGeometry geometry_;
    ImagingSetup imaging_;
    std::vector<std::int16_t> samples_;
};

// Where a block's samples go in a frame laid out waves x channels x samples: InvalidArgument
// when the block does not fit the geometry. Shared by the imagers.
[[nodiscard]] Status checkBlockFits(const ingest::Frame& frame, std::uint16_t block, const beamform::AcquisitionGeometry& geometry);
// The frame's blocks copied into out (geometry.samplesPerFrame() samples, waves x channels x samples).
[[nodiscard]] Status gatherFrameSamples(const ingest::Frame& frame, const beamform::AcquisitionGeometry& geometry, std::span<std::int16_t> out);

}  // namespace sonolink::engine
