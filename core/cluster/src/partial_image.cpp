#include "sonolink/cluster/partial_image.h"

#include <bit>
#include <complex>
#include <cstring>

#include <fmt/format.h>

#include "sonolink/beamform/cpu_beamformer.h"
#include "sonolink/beamform/iq_beamformer.h"
#include "sonolink/util/crc32c.h"

namespace sonolink::cluster {
namespace {

static_assert(std::endian::native == std::endian::little, "the partial's wire form is little-endian, as this host");

constexpr std::uint32_t kMagic = 0x49504c53;  // "SLPI"
constexpr std::uint16_t kVersion = 1;
constexpr std::uint64_t kMostValues = std::uint64_t{1} << 28;  // 1 GiB of floats: no plan comes near

// Fields at fixed offsets; put/take copy bytes, so no alignment is assumed.
template <typename T> void put(std::vector<std::byte>& out, std::size_t at, T value) { std::memcpy(out.data() + at, &value, sizeof value); }
template <typename T> T take(std::span<const std::byte> in, std::size_t at) {
    T value;
    std::memcpy(&value, in.data() + at, sizeof value);
    return value;
}

}  // namespace

std::vector<std::byte> encodeHeader(const PartialHeader& h) {
    std::vector<std::byte> out(kPartialHeaderBytes);
    put(out, 0, kMagic);
    put(out, 4, kVersion);
    put(out, 6, static_cast<std::uint8_t>(h.kind));
    put(out, 8, h.session);
    put(out, 16, h.planHash);
    put(out, 24, h.triggerSequence);
    put(out, 32, h.epoch);
    put(out, 36, h.host);
    put(out, 38, h.firstChannel);
    put(out, 40, h.channelCount);
    put(out, 44, h.nx);
    put(out, 48, h.nz);
    put(out, 52, h.valuesCrc);
    put(out, 56, h.beamformedNs);
    return out;
}

Result<PartialHeader> decodeHeader(std::span<const std::byte> in) {
    if (in.size() != kPartialHeaderBytes)
        return fail(ErrorCode::InvalidArgument, fmt::format("partial header of {} bytes, expected {}", in.size(), kPartialHeaderBytes));
    if (take<std::uint32_t>(in, 0) != kMagic)
        return fail(ErrorCode::InvalidArgument, fmt::format("partial header's magic {:#x} is not SLPI", take<std::uint32_t>(in, 0)));
    if (const auto version = take<std::uint16_t>(in, 4); version != kVersion)
        return fail(ErrorCode::InvalidArgument, fmt::format("partial header version {}, this build reads {}", version, kVersion));
    PartialHeader h;
    const auto kind = take<std::uint8_t>(in, 6);
    if (kind != static_cast<std::uint8_t>(PartialKind::Rf) && kind != static_cast<std::uint8_t>(PartialKind::Iq))
        return fail(ErrorCode::InvalidArgument, fmt::format("partial header's kind {} is neither RF (1) nor IQ (2)", kind));
    h.kind = static_cast<PartialKind>(kind);
    h.session = take<std::uint64_t>(in, 8);
    h.planHash = take<std::uint64_t>(in, 16);
    h.triggerSequence = take<std::uint64_t>(in, 24);
    h.epoch = take<std::uint32_t>(in, 32);
    h.host = take<std::uint16_t>(in, 36);
    h.firstChannel = take<std::uint16_t>(in, 38);
    h.channelCount = take<std::uint16_t>(in, 40);
    h.nx = take<std::uint32_t>(in, 44);
    h.nz = take<std::uint32_t>(in, 48);
    h.valuesCrc = take<std::uint32_t>(in, 52);
    h.beamformedNs = take<std::int64_t>(in, 56);
    if (h.nx == 0 || h.nz == 0 || h.values() > kMostValues)
        return fail(ErrorCode::InvalidArgument, fmt::format("partial header's image {} x {} is empty or too large", h.nx, h.nz));
    return h;
}

Status checkPayload(const PartialHeader& h, std::span<const std::byte> payload) {
    if (payload.size() != h.values() * sizeof(float))
        return fail(ErrorCode::DataLoss, fmt::format("partial of host {} for trigger {}: {} bytes of values, its header says {}", h.host, h.triggerSequence,
                                                     payload.size(), h.values() * sizeof(float)));
    if (const std::uint32_t crc = crc32c(payload); crc != h.valuesCrc)
        return fail(ErrorCode::DataLoss, fmt::format("partial of host {} for trigger {}: CRC-32C {:#010x} of its values, its header says {:#010x}", h.host,
                                                     h.triggerSequence, crc, h.valuesCrc));
    return {};
}

Result<std::vector<float>> payloadValues(const PartialHeader& h, std::span<const std::byte> payload) {
    if (auto ok = checkPayload(h, payload); !ok) return fail(ok.error());
    std::vector<float> values(h.values());
    std::memcpy(values.data(), payload.data(), payload.size());
    return values;
}

std::vector<std::byte> payloadOf(std::span<const float> values, PartialHeader& header) {
    std::vector<std::byte> bytes(values.size_bytes());
    fillPayload(values, header, bytes);
    return bytes;
}

void fillPayload(std::span<const float> values, PartialHeader& header, std::span<std::byte> out) {
    std::memcpy(out.data(), values.data(), values.size_bytes());
    header.valuesCrc = crc32c(out);
}

Result<std::vector<float>> computePartial(const ClusterPlan& plan, std::size_t host, std::span<const std::int16_t> channels) {
    if (host >= plan.hosts.size()) return fail(ErrorCode::InvalidArgument, fmt::format("host {} is not in the plan's {} hosts", host, plan.hosts.size()));
    const beamform::AcquisitionGeometry geometry = hostGeometry(plan, host);
    const beamform::ChannelDataView view{.geometry = &geometry, .samples = {}, .samples16 = channels};
    if (plan.kind == PartialKind::Rf) {
        auto image = beamform::delayAndSum(view, plan.grid, plan.params, plan.threads, plan.loop);
        if (!image) return fail(image.error());
        return std::move(image->columns);
    }
    auto image = beamform::delayAndSumIq(view, plan.modulationFrequencyHz, plan.iqDecimation, plan.grid, plan.params, plan.threads, plan.loop);
    if (!image) return fail(image.error());
    std::vector<float> values(image->columns.size() * 2);
    std::memcpy(values.data(), image->columns.data(), values.size() * sizeof(float));
    return values;
}

}  // namespace sonolink::cluster
