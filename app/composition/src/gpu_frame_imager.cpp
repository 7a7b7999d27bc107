#include "gpu_frame_imager.h"

#include <vector>

#include "sonolink/beamform/cuda/gpu_beamformer.h"

namespace sonolink::app {
namespace {

class GpuFrameImager final : public engine::FrameImager {
public:
    GpuFrameImager(std::unique_ptr<beamform::cuda::GpuBeamformer> gpu, std::size_t nx, std::size_t nz) : gpu_(std::move(gpu)) {
        image_.nx = nx;
        image_.nz = nz;
        image_.columns.resize(nx * nz);
    }
    [[nodiscard]] std::string name() const override { return "GPU"; }
    [[nodiscard]] Status load(const ingest::Frame& frame) override {
        blocks_.clear();
        for (std::uint16_t b = 0; b < frame.blockCount(); ++b) {
            const auto& block = frame.block(b);
            const auto& h = block.header;
            blocks_.push_back(
                {block.payload.data(), 0, h.waveIndex, h.firstChannel, h.channelCount, static_cast<int>(h.firstSample), static_cast<int>(h.sampleCount)});
        }
        return gpu_->beamformBlocks(blocks_, 1, beamform::cuda::GpuOutput::Envelope, image_.columns);
    }
    [[nodiscard]] Result<beamform::BeamformedImage> envelope() override { return image_; }

private:
    std::unique_ptr<beamform::cuda::GpuBeamformer> gpu_;
    std::vector<beamform::cuda::RfBlock> blocks_;
    beamform::BeamformedImage image_;
};

}  // namespace

Result<std::unique_ptr<engine::FrameImager>> makeGpuFrameImager(const beamform::AcquisitionGeometry& geometry, const engine::ImagingSetup& imaging) {
    beamform::cuda::GpuBeamformerSetup setup;
    setup.sampleType = beamform::cuda::SampleType::Int16;
    setup.geometry = geometry;
    setup.grid = imaging.grid;
    setup.params = imaging.params;
    setup.framesPerChunk = 1;
    auto gpu = beamform::cuda::GpuBeamformer::create(setup);
    if (!gpu) return fail(std::move(gpu.error()));
    return std::unique_ptr<engine::FrameImager>(new GpuFrameImager(std::move(*gpu), imaging.grid.x.size(), imaging.grid.z.size()));
}

}  // namespace sonolink::app
