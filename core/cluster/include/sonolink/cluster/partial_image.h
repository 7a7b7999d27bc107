// A host's partial image on the wire: a fixed little-endian header that says whose it is
// (session, plan hash and epoch, trigger sequence, host and channel range) and what it holds
// (RF or IQ, nx x nz, CRC-32C of the values), then the values as little-endian floats. And the
// one function that computes a partial from a host's own channels, by the plan.
// Thread contract: pure functions (computePartial shares its work over the beamformer's pool).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "sonolink/beamform/beamform_types.h"
#include "sonolink/cluster/cluster_plan.h"
#include "sonolink/util/result.h"

namespace sonolink::cluster {

struct PartialHeader {
    std::uint64_t session = 0;
    std::uint64_t planHash = 0;
    std::uint32_t epoch = 0;
    std::uint64_t triggerSequence = 0;
    std::uint16_t host = 0;
    std::uint16_t firstChannel = 0;
    std::uint16_t channelCount = 0;
    PartialKind kind = PartialKind::Rf;
    std::uint32_t nx = 0;
    std::uint32_t nz = 0;
    std::uint32_t valuesCrc = 0;    // CRC-32C of the payload's bytes
    std::int64_t beamformedNs = 0;  // CLOCK_REALTIME when the host finished it (latency, not identity)

    [[nodiscard]] std::size_t values() const noexcept { return std::size_t{nx} * nz * (kind == PartialKind::Iq ? 2u : 1u); }
};

inline constexpr std::size_t kPartialHeaderBytes = 64;

[[nodiscard]] std::vector<std::byte> encodeHeader(const PartialHeader& header);
// InvalidArgument naming what is wrong: size, magic, version, kind, an empty or oversized image.
[[nodiscard]] Result<PartialHeader> decodeHeader(std::span<const std::byte> bytes);
// DataLoss when the payload's size or CRC-32C disagrees with the header (saying which).
[[nodiscard]] Status checkPayload(const PartialHeader& header, std::span<const std::byte> payload);
// The payload's values: a copy, checked by checkPayload first.
[[nodiscard]] Result<std::vector<float>> payloadValues(const PartialHeader& header, std::span<const std::byte> payload);
// The values as the payload's bytes, and the header's valuesCrc set from them.
[[nodiscard]] std::vector<std::byte> payloadOf(std::span<const float> values, PartialHeader& header);
// The same into `out` (values.size_bytes() long: a buffer the transport recycles).
void fillPayload(std::span<const float> values, PartialHeader& header, std::span<std::byte> out);

// Host `host`'s partial: its channels' delay-and-sum on the plan's grid, RF (nx * nz, column-major)
// or IQ (nx * nz complex, re and im interleaved), with the plan's loop and threads. `channels`
// holds waves x the host's channels x samples.
[[nodiscard]] Result<std::vector<float>> computePartial(const ClusterPlan& plan, std::size_t host, std::span<const std::int16_t> channels);

}  // namespace sonolink::cluster
