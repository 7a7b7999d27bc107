// The plan and the partial's wire form: the plan's JSON reads back to the same plan and hash; a
// plan whose hosts leave a gap or overlap, or a field missing or of the wrong type, is refused
// naming it; a partial header with a bad size, magic, version or kind, and a payload whose size or
// CRC disagrees with its header, are refused saying which.
#include <cmath>
#include <limits>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "sonolink/cluster/cluster_plan.h"
#include "sonolink/cluster/partial_image.h"

namespace sonolink::cluster {
namespace {

ClusterPlan smallPlan() {
    ClusterPlan plan;
    beamform::AcquisitionGeometry& g = plan.geometry;
    g.waves = 2;
    g.channels = 8;
    g.samples = 256;
    g.samplingRateHz = 40e6;
    g.elementX = beamform::linearArrayElementX(8, 0.3e-3);
    g.angleRad = {0.1, -0.05};
    g.sourceDistance = {std::numeric_limits<double>::infinity(), 0.02};
    plan.grid = beamform::PixelGrid::fromRanges(-1e-3, 1e-3, 5, 1e-3, 3e-3, 7);
    plan.params.window = beamform::Window::Tukey;
    plan.hosts = {{0, 3}, {3, 5}};
    plan.softwareVersion = "1.2.3";
    return plan;
}

TEST(ClusterPlanTest, ItsJsonReadsBackToTheSamePlanAndHash) {
    const ClusterPlan plan = smallPlan();
    ASSERT_TRUE(plan.validate()) << plan.validate().error().describe();
    auto back = planFromJson(toJson(plan));
    ASSERT_TRUE(back) << back.error().describe();
    EXPECT_EQ(toJson(*back), toJson(plan));
    EXPECT_EQ(planHash(*back), planHash(plan));
    EXPECT_TRUE(std::isinf(back->geometry.sourceDistance[0]));
    EXPECT_EQ(back->geometry.angleRad, plan.geometry.angleRad);
    ClusterPlan other = plan;
    other.params.fNumber = 1.75;
    EXPECT_NE(planHash(other), planHash(plan));
}

TEST(ClusterPlanTest, HostsMustCoverEveryChannelOnceInOrder) {
    ClusterPlan plan = smallPlan();
    plan.hosts = {{0, 3}, {4, 4}};
    EXPECT_NE(plan.validate().error().message().find("host 1 starts at channel 4, expected 3"), std::string::npos);
    plan.hosts = {{0, 3}, {2, 6}};
    EXPECT_FALSE(plan.validate());
    plan.hosts = {{0, 3}, {3, 4}};
    EXPECT_NE(plan.validate().error().message().find("cover 7 channels of the array's 8"), std::string::npos);
    plan.hosts = {{0, 8}};
    plan.threads = 0;
    EXPECT_NE(plan.validate().error().message().find("threads"), std::string::npos);
}

TEST(ClusterPlanTest, AFieldMissingOrOfTheWrongTypeIsNamed) {
    nlohmann::json value = nlohmann::json::parse(toJson(smallPlan()));
    value["imaging"].erase("f_number");
    EXPECT_NE(planFromJson(value.dump()).error().message().find("imaging.f_number is missing"), std::string::npos);
    value = nlohmann::json::parse(toJson(smallPlan()));
    value["geometry"]["channels"] = "eight";
    EXPECT_NE(planFromJson(value.dump()).error().message().find("geometry.channels has the wrong type"), std::string::npos);
    value = nlohmann::json::parse(toJson(smallPlan()));
    value["imaging"]["window"] = "kaiser";
    EXPECT_NE(planFromJson(value.dump()).error().message().find("\"kaiser\""), std::string::npos);
    EXPECT_FALSE(planFromJson("{not json"));
}

TEST(ClusterPlanTest, AHostsGeometryHoldsItsOwnElements) {
    const ClusterPlan plan = smallPlan();
    const auto g = hostGeometry(plan, 1);
    EXPECT_EQ(g.channels, 5);
    ASSERT_EQ(g.elementX.size(), 5u);
    EXPECT_EQ(g.elementX[0], plan.geometry.elementX[3]);
    std::vector<std::int16_t> frame(plan.geometry.samplesPerFrame());
    for (std::size_t i = 0; i < frame.size(); ++i) frame[i] = static_cast<std::int16_t>(i % 30000);
    const auto own = sliceChannels(plan.geometry, frame, 3, 5);
    ASSERT_EQ(own.size(), 2u * 5 * 256);
    EXPECT_EQ(own[0], frame[3 * 256]);
    EXPECT_EQ(own[5 * 256], frame[(8 + 3) * 256]);  // the second wave's first own channel
}

PartialHeader header() {
    return {.session = 9,
            .planHash = 0x1122334455667788,
            .epoch = 3,
            .triggerSequence = 1'000'001,
            .host = 2,
            .firstChannel = 64,
            .channelCount = 32,
            .kind = PartialKind::Iq,
            .nx = 4,
            .nz = 3,
            .valuesCrc = 0,
            .beamformedNs = 1234567};
}

TEST(PartialWireTest, AHeaderReadsBackFieldForField) {
    PartialHeader h = header();
    const std::vector<float> values(24, 0.5f);
    const auto payload = payloadOf(values, h);
    auto back = decodeHeader(encodeHeader(h));
    ASSERT_TRUE(back) << back.error().describe();
    EXPECT_EQ(encodeHeader(*back), encodeHeader(h));
    EXPECT_EQ(back->triggerSequence, 1'000'001u);
    EXPECT_EQ(back->kind, PartialKind::Iq);
    EXPECT_EQ(back->values(), 24u);
    auto read = payloadValues(*back, payload);
    ASSERT_TRUE(read);
    EXPECT_EQ(*read, values);
}

TEST(PartialWireTest, ABadHeaderOrPayloadIsRefusedSayingWhich) {
    PartialHeader h = header();
    auto payload = payloadOf(std::vector<float>(24, 0.5f), h);
    auto bytes = encodeHeader(h);
    EXPECT_NE(decodeHeader(std::span(bytes).first(40)).error().message().find("40 bytes"), std::string::npos);
    auto bad = bytes;
    bad[0] = std::byte{0};
    EXPECT_NE(decodeHeader(bad).error().message().find("magic"), std::string::npos);
    bad = bytes;
    bad[4] = std::byte{9};
    EXPECT_NE(decodeHeader(bad).error().message().find("version 9"), std::string::npos);
    bad = bytes;
    bad[6] = std::byte{7};
    EXPECT_NE(decodeHeader(bad).error().message().find("kind 7"), std::string::npos);
    payload[5] ^= std::byte{1};
    const auto corrupt = checkPayload(h, payload);
    ASSERT_FALSE(corrupt);
    EXPECT_EQ(corrupt.error().code(), ErrorCode::DataLoss);
    EXPECT_NE(corrupt.error().message().find("CRC-32C"), std::string::npos);
    payload.pop_back();
    EXPECT_NE(checkPayload(h, payload).error().message().find("95 bytes of values, its header says 96"), std::string::npos);
}

}  // namespace
}  // namespace sonolink::cluster
