// The composition root's mapping of a photoacoustic Configure to its geometry: a laser shot,
// received only (USTB's wavefront 2), its first sample the configured system delay before the
// sound's time zero, reconstructed at the shots' own sound speed; and the configuration's keys
// for them, checked as every key is.
#include <gtest/gtest.h>

#include "sonolink/app/acquisition_setup.h"
#include "sonolink/config/config_loader.h"

namespace sonolink::app {
namespace {

TEST(AcquisitionSetupTest, AShotIsReceivedOnlyAfterItsSystemDelayAtItsOwnSpeed) {
    auto parsed = config::parseConfig(R"({"acquisition": {"sound_speed_m_s": 1540, "photoacoustic_sound_speed_m_s": 1500,
                                                           "photoacoustic_system_delay_us": 2.5}})",
                                      "pa.json");
    ASSERT_TRUE(parsed.ok());
    auto configure = configureFrom(parsed.config);
    const auto ultrasound = geometryOf(configure, photoacousticTimingOf(parsed.config));
    EXPECT_TRUE(ultrasound.photoacoustic.empty());
    EXPECT_DOUBLE_EQ(ultrasound.soundSpeedMps, 1540);
    EXPECT_DOUBLE_EQ(ultrasound.initialTimeS, 0);
    configure.photoacoustic = true;
    const auto shot = geometryOf(configure, photoacousticTimingOf(parsed.config));
    ASSERT_EQ(shot.waves, 1);
    EXPECT_TRUE(shot.isPhotoacoustic(0));
    EXPECT_DOUBLE_EQ(shot.soundSpeedMps, 1500);
    EXPECT_DOUBLE_EQ(shot.initialTimeS, -2.5e-6);
    EXPECT_TRUE(shot.validate());
    const auto sameSpeed = geometryOf(configure, {});
    EXPECT_DOUBLE_EQ(sameSpeed.soundSpeedMps, 1540);  // 0: the acquisition's speed
    EXPECT_DOUBLE_EQ(sameSpeed.initialTimeS, 0);
}

TEST(AcquisitionSetupTest, BadShotSettingsAreNamed) {
    for (const auto* text : {R"({"acquisition": {"photoacoustic_sound_speed_m_s": 300}})", R"({"acquisition": {"photoacoustic_system_delay_us": 500}})"}) {
        const auto parsed = config::parseConfig(text, "pa.json");
        ASSERT_EQ(parsed.issues.size(), 1u) << text;
        EXPECT_NE(parsed.issues[0].key.find("/acquisition/photoacoustic_"), std::string::npos) << parsed.issues[0].key;
    }
}

}  // namespace
}  // namespace sonolink::app
