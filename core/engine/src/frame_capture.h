// FrameCapture: the frame sink of the element check's session: copies the first N RF frames of
// its geometry's kind (ultrasound, or dual mode's laser shots) (waves x channels x samples,
// int16) out of the ring as they arrive, and holds no frame; with an imager, the first is also
// beamformed there (the phantom check's live image).
// Thread contract: onFrame on the ingest thread; the rest on the ctl thread once the session
// has ended (its thread joined).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "sonolink/beamform/acquisition_geometry.h"
#include "sonolink/engine/engine_backends.h"
#include "sonolink/ingest/frame.h"
#include "sonolink/util/error.h"

namespace sonolink::engine {

class FrameCapture final : public ingest::FrameSink {
public:
    // imager: null, or one that outlives the session (used on the ingest thread only meanwhile).
    FrameCapture(const beamform::AcquisitionGeometry& geometry, std::uint32_t frames, FrameImager* imager = nullptr);
    void onFrame(const ingest::FrameRef& frame) noexcept override;

    [[nodiscard]] std::uint32_t captured() const noexcept { return captured_; }
    [[nodiscard]] std::span<const std::int16_t> samples() const noexcept;                    // captured() frames, one after the other
    [[nodiscard]] const std::optional<Error>& refused() const noexcept { return refused_; }  // the first frame that did not fit
    // The first frame's envelope (with an imager), or why not; nullopt before a frame arrived.
    [[nodiscard]] const std::optional<Result<beamform::BeamformedImage>>& image() const noexcept { return image_; }

private:
    beamform::AcquisitionGeometry geometry_;
    std::uint32_t wanted_;
    std::uint32_t captured_ = 0;
    std::vector<std::int16_t> samples_;
    std::optional<Error> refused_;
    FrameImager* imager_;
    std::optional<Result<beamform::BeamformedImage>> image_;
};

}  // namespace sonolink::engine
