#include "frame_capture.h"

#include "cpu_imager.h"

namespace sonolink::engine {

FrameCapture::FrameCapture(const beamform::AcquisitionGeometry& geometry, std::uint32_t frames, FrameImager* imager)
    : geometry_(geometry), wanted_(frames), samples_(geometry.samplesPerFrame() * frames), imager_(imager) {}

void FrameCapture::onFrame(const ingest::FrameRef& frame) noexcept {
    if (captured_ >= wanted_ || refused_ || frame->payloadKind() != transport::PayloadKind::Rf) return;
    if (frame->isPhotoacoustic() != geometry_.isShot()) return;  // the other kind's (dual mode: a capture for each)
    const auto per = geometry_.samplesPerFrame();
    if (auto ok = gatherFrameSamples(*frame, geometry_, std::span(samples_).subspan(captured_ * per, per)); !ok) {
        refused_ = std::move(ok.error());
        return;
    }
    if (imager_ != nullptr && !image_) {
        try {
            if (auto loaded = imager_->load(*frame); !loaded) image_ = fail(std::move(loaded.error()));
            else image_ = imager_->envelope();
        } catch (const std::exception& e) {  // the ingest thread goes on
            image_ = fail(ErrorCode::Internal, std::string("beamforming the phantom: ") + e.what());
        }
    }
    ++captured_;
}

std::span<const std::int16_t> FrameCapture::samples() const noexcept { return std::span(samples_).first(captured_ * geometry_.samplesPerFrame()); }

}  // namespace sonolink::engine
