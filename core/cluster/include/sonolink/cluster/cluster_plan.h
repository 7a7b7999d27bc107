// ClusterPlan: the one acquisition and imaging plan every acquisition host of a cluster runs: the
// whole array's geometry, the pixel grid, the receive apodization, the beamformer (RF or IQ, its
// vector loop and threads, so that a host's partial is the same wherever it is computed), the
// hosts' channel ranges in the order their partials are summed, the frame rate and the software
// version. Its hash, over the canonical JSON the coordinator sends, names it on the wire.
// Thread contract: plain values and pure functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sonolink/beamform/beamform_types.h"
#include "sonolink/beamform/cpu_beamformer.h"
#include "sonolink/util/result.h"

namespace sonolink::cluster {

// What a host's partial image holds: the sum before envelope detection over its channels, as RF
// (real) or as IQ (complex baseband).
enum class PartialKind : std::uint8_t { Rf = 1, Iq = 2 };
[[nodiscard]] std::string_view toString(PartialKind kind) noexcept;

// One host's channels of the whole array: [firstChannel, firstChannel + channelCount).
struct HostChannels {
    int firstChannel = 0;
    int channelCount = 0;
};

struct ClusterPlan {
    beamform::AcquisitionGeometry geometry;  // the whole array: every host's channels
    beamform::PixelGrid grid;
    beamform::BeamformParams params;
    PartialKind kind = PartialKind::Rf;
    double modulationFrequencyHz = 0;                        // IQ: the demodulation frequency
    int iqDecimation = 1;                                    // IQ
    beamform::VectorLoop loop = beamform::VectorLoop::Avx2;  // pinned: Best may pick per host
    unsigned threads = 1;                                    // the IQ loop's channel groups follow it
    double frameRateHz = 10;                                 // the shared trigger's rate
    std::vector<HostChannels> hosts;                         // host order = summing order
    std::string softwareVersion;

    // InvalidArgument naming the first inconsistency: the geometry or grid, a host range that is
    // empty, overlaps or leaves a gap (the hosts must cover every channel once, in order), IQ
    // without a modulation frequency, a frame rate that is not positive.
    [[nodiscard]] Status validate() const;
    // The values of one partial: nx * nz for RF, 2 * nx * nz (re, im) for IQ.
    [[nodiscard]] std::size_t partialValues() const noexcept;
};

// The canonical JSON (sorted keys, doubles that read back to the same bits): what the
// coordinator sends and the hash covers.
[[nodiscard]] std::string toJson(const ClusterPlan& plan);
// InvalidArgument naming the field that is missing or wrong, then the plan's own validate().
[[nodiscard]] Result<ClusterPlan> planFromJson(std::string_view json);
// FNV-1a (64 bits) of toJson(plan).
[[nodiscard]] std::uint64_t planHash(const ClusterPlan& plan);

// Host `host`'s own geometry: the plan's, with only its channels (their element positions).
[[nodiscard]] beamform::AcquisitionGeometry hostGeometry(const ClusterPlan& plan, std::size_t host);
// Channels [first, first + count) of a frame laid out waves x channels x samples of `whole`.
[[nodiscard]] std::vector<std::int16_t> sliceChannels(const beamform::AcquisitionGeometry& whole, std::span<const std::int16_t> frame, int first, int count);

}  // namespace sonolink::cluster
