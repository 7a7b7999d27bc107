// FrameCapture: the frame sink of the element check's session: copies the first N RF frames
// (waves x channels x samples, int16) out of the ring as they arrive, and holds no frame.
// Thread contract: onFrame on the ingest thread; the rest on the ctl thread once the session
// has ended (its thread joined).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "sonolink/beamform/acquisition_geometry.h"
#include "sonolink/ingest/frame.h"
#include "sonolink/util/error.h"

namespace sonolink::engine {

class FrameCapture final : public ingest::FrameSink {
public:
    FrameCapture(const beamform::AcquisitionGeometry& geometry, std::uint32_t frames);
    void onFrame(const ingest::FrameRef& frame) noexcept override;

    [[nodiscard]] std::uint32_t captured() const noexcept { return captured_; }
    [[nodiscard]] std::span<const std::int16_t> samples() const noexcept;  // captured() frames, one after the other
    [[nodiscard]] const std::optional<Error>& refused() const noexcept { return refused_; }  // the first frame that did not fit

private:
    beamform::AcquisitionGeometry geometry_;
    std::uint32_t wanted_;
    std::uint32_t captured_ = 0;
    std::vector<std::int16_t> samples_;
    std::optional<Error> refused_;
};

}  // namespace sonolink::engine
