// CpuImager: the engine's default FrameImager: the frame's blocks gathered once into a working
// buffer (waves x channels x samples), then the CPU delay-and-sum and the envelope, at the
// setup's depth oversampling (every k-th envelope row kept: the grid's rows).
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
    beamform::PixelGrid beamformGrid_;  // the grid, k times finer in depth (every k-th depth one of the grid's)
    std::vector<std::int16_t> samples_;
};

// The grid k times finer in depth: (rows - 1) k + 1 depths, every k-th one of the grid's.
[[nodiscard]] beamform::PixelGrid oversampledGrid(const beamform::PixelGrid& grid, int depthOversampling);
// The frame beamformed on beamformGrid (oversampledGrid(setup.grid, setup.depthOversampling)),
// its envelope, and every k-th row of it: an image on setup.grid.
[[nodiscard]] Result<beamform::BeamformedImage> oversampledEnvelope(const beamform::ChannelDataView& frame, const ImagingSetup& setup,
                                                                    const beamform::PixelGrid& beamformGrid);

// Where a block's samples go in a frame laid out waves x channels x samples: InvalidArgument
// when the block does not fit the geometry. Shared by the imagers.
[[nodiscard]] Status checkBlockFits(const ingest::Frame& frame, std::uint16_t block, const beamform::AcquisitionGeometry& geometry);

}  // namespace sonolink::engine
