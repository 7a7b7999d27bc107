#include "sonolink/util/log.h"

#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <vector>

#include <gtest/gtest.h>

namespace {
int formatCount = 0;
struct CountsFormatting {};
}  // namespace

template <> struct fmt::formatter<CountsFormatting> : fmt::formatter<std::string_view> {
    auto format(CountsFormatting, fmt::format_context& ctx) const {
        ++formatCount;
        return fmt::formatter<std::string_view>::format("counted", ctx);
    }
};

namespace sonolink::log {
namespace {

struct Captured {
    std::string category;
    Level level;
    std::string message;
};

class LogTest : public ::testing::Test {
protected:
    void SetUp() override {
        handle_ = addSink([this](const Record& r) {
            std::lock_guard lock(mutex_);
            records_.push_back({std::string(r.category), r.level, std::string(r.message)});
        });
        ASSERT_TRUE(configure(Settings{}));
    }
    void TearDown() override { ASSERT_TRUE(configure(Settings{})); }
    std::vector<Captured> records() {
        std::lock_guard lock(mutex_);
        return records_;
    }
    std::mutex mutex_;
    std::vector<Captured> records_;
    SinkHandle handle_;
};

TEST_F(LogTest, CategoryLevelsFilterIndependently) {
    auto& link = category("test-link");
    auto& dicom = category("test-dicom");
    Settings settings;
    settings.level = Level::Warn;
    settings.categoryLevels["test-link"] = Level::Debug;
    ASSERT_TRUE(configure(settings));
    debug(link, "credits {}", 7);
    info(dicom, "hidden");
    warn(dicom, "association rejected by {}", "PACS1");
    const auto got = records();
    ASSERT_EQ(got.size(), 2u);
    EXPECT_EQ(got[0].category, "test-link");
    EXPECT_EQ(got[0].message, "credits 7");
    EXPECT_EQ(got[0].level, Level::Debug);
    EXPECT_EQ(got[1].category, "test-dicom");
    EXPECT_EQ(got[1].level, Level::Warn);
}

TEST_F(LogTest, CategoriesCreatedAfterConfigureGetTheirLevel) {
    Settings settings;
    settings.categoryLevels["test-late"] = Level::Error;
    ASSERT_TRUE(configure(settings));
    auto& late = category("test-late");
    EXPECT_EQ(late.level(), Level::Error);
    EXPECT_FALSE(late.enabled(Level::Warn));
    EXPECT_EQ(&late, &category("test-late"));  // same object every time
}

TEST_F(LogTest, DisabledMessageIsNotFormatted) {
    auto& cat = category("test-quiet");
    cat.setLevel(Level::Info);
    formatCount = 0;
    debug(cat, "{}", CountsFormatting{});
    EXPECT_EQ(formatCount, 0);
    EXPECT_TRUE(records().empty());
    info(cat, "{}", CountsFormatting{});
    EXPECT_EQ(formatCount, 1);
    EXPECT_EQ(records().size(), 1u);
}

TEST_F(LogTest, WritesToFileWhenConfigured) {
    const auto path = std::filesystem::temp_directory_path() / "sonolink_log_test.log";
    std::filesystem::remove(path);
    Settings settings;
    settings.file = path.string();
    ASSERT_TRUE(configure(settings));
    error(category("test-file"), "disk full on {}", "/data");
    flush();
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_NE(text.str().find("[test-file]"), std::string::npos);
    EXPECT_NE(text.str().find("disk full on /data"), std::string::npos);
    ASSERT_TRUE(configure(Settings{}));
    std::filesystem::remove(path);
}

TEST_F(LogTest, UnwritableLogFileIsAnError) {
    Settings settings;
    settings.file = "/proc/no-such-dir/sonolink.log";
    auto status = configure(settings);
    ASSERT_FALSE(status);
    EXPECT_EQ(status.error().code(), ErrorCode::Unavailable);
    EXPECT_NE(status.error().message().find("/proc/no-such-dir/sonolink.log"), std::string::npos);
}

TEST(LogLevelTest, ParsesNamesAndRejectsOthers) {
    EXPECT_EQ(parseLevel("debug").value(), Level::Debug);
    EXPECT_EQ(parseLevel("off").value(), Level::Off);
    auto bad = parseLevel("verbose");
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().message().find("verbose"), std::string::npos);
}

}  // namespace
}  // namespace sonolink::log
