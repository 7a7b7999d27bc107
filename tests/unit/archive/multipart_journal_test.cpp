// The multipart journal: what a resumed upload trusts, so a damaged one must never be trusted.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "sonolink/archive/multipart_journal.h"

namespace sonolink::archive {
namespace {

TEST(MultipartJournal, RoundTripsAndRecognisesTheSameUpload) {
    const auto dir = std::filesystem::temp_directory_path() / ("journal-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    MultipartJournal j{
        "/data/rec.uff", 123456789, 1700000000123456789, 0xdeadbeef, "bucket", "rec/rec.uff", "2~upload", 32 << 20, {{1, "e1", 32 << 20}, {3, "e3", 32 << 20}}};
    const auto path = journalPath(dir, j.file, j.bucket, j.key);
    EXPECT_NE(path, journalPath(dir, j.file, j.bucket, "other"));
    ASSERT_TRUE(saveJournal(path, j));
    auto loaded = loadJournal(path);
    ASSERT_TRUE(loaded) << loaded.error().describe();
    ASSERT_TRUE(loaded->has_value());
    const auto& l = **loaded;
    EXPECT_TRUE(l.describesSameUpload(j));
    EXPECT_EQ(l.uploadId, "2~upload");
    EXPECT_EQ(l.crc32c, 0xdeadbeefu);
    ASSERT_EQ(l.parts.size(), 2u);
    EXPECT_EQ(l.parts[1].number, 3);
    EXPECT_EQ(l.parts[1].etag, "e3");

    MultipartJournal touched = j;
    touched.modifiedNs += 1;
    EXPECT_FALSE(l.describesSameUpload(touched));
    MultipartJournal resized = j;
    resized.partSizeBytes *= 2;
    EXPECT_FALSE(l.describesSameUpload(resized));

    EXPECT_FALSE(loadJournal(dir / "absent.json")->has_value());
    std::ofstream(path) << "{\"file\": \"/data/rec.uff\", \"size_bytes\":";  // cut short by a crash mid-write
    auto damaged = loadJournal(path);
    ASSERT_FALSE(damaged);
    EXPECT_EQ(damaged.error().code(), ErrorCode::DataLoss);
    EXPECT_NE(damaged.error().message().find(path.string()), std::string::npos);
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace sonolink::archive
