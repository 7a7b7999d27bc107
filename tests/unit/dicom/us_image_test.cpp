// The US Image and US Multi-frame (cine) writers checked by the tools the field trusts:
// dciodvfy reports no error and no warning; pydicom reads back every pixel of every frame, the
// Chinese patient name and the calibration; our own checks cover what dciodvfy misses (region
// units, Frame Time against the cine rate). UIDs: under a configured root or 2.25,
// never DCMTK's root, always valid and unique.
#include "sonolink/dicom/us_image_writer.h"
#include "sonolink/dicom/frame_source.h"
#include "sonolink/util/byte_source.h"

#include <array>
#include <cstring>
#include <atomic>
#include <thread>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include "dicom_test_support.h"
#include "sonolink/dicom/uid_generator.h"

namespace sonolink::dicom {
namespace {

BModeFrame sampleFrame(int seed) {
    BModeFrame f;
    f.rows = 200;
    f.columns = 160;
    f.cmPerPixelX = 0.025;
    f.cmPerPixelY = 0.02;
    for (int r = 0; r < f.rows; ++r) {
        for (int c = 0; c < f.columns; ++c) f.pixels.push_back(static_cast<std::uint8_t>((r * 7 + c * 3 + seed * 11) % 256));
    }
    return f;
}

UsImageObject sampleObject(const UidGenerator& uids) { return {sampleContext(uids), sampleFrame(0)}; }

class UsImageTest : public ::testing::Test {
protected:
    std::filesystem::path dir = std::filesystem::temp_directory_path() / ("sonolink_dicom_" + std::to_string(::getpid()));
    void SetUp() override { std::filesystem::create_directories(dir); }
    void TearDown() override { std::filesystem::remove_all(dir); }
};

TEST_F(UsImageTest, DciodvfyFindsNothingAndPydicomReadsItBack) {
    auto uids = UidGenerator::create(std::nullopt);
    ASSERT_TRUE(uids);
    const auto object = sampleObject(*uids);
    const auto file = (dir / "us.dcm").string();
    ASSERT_TRUE(writeUsImage(file, object));
    const auto report = dciodvfy(file);
    EXPECT_EQ(report.rfind("USImage", 0), 0u) << "dciodvfy did not recognise the object as a US Image:\n" << report;
    EXPECT_EQ(report.find("Error"), std::string::npos) << report;
    EXPECT_EQ(report.find("Warning"), std::string::npos) << report;
    {
        std::ofstream raw(dir / "expected.raw", std::ios::binary);
        raw.write(reinterpret_cast<const char*>(object.frame.pixels.data()), static_cast<std::streamsize>(object.frame.pixels.size()));
    }
    const auto check =
        run("/usr/bin/python3 -c \"import pydicom,numpy,sys\n"
            "d=pydicom.dcmread(sys.argv[1]); r=d.SequenceOfUltrasoundRegions[0]\n"
            "e=numpy.fromfile(sys.argv[2],dtype=numpy.uint8).reshape(200,160)\n"
            "assert (d.pixel_array==e).all(), 'pixels differ'\n"
            "assert str(d.PatientName)=='Wang^Xiaoming=王^小明', str(d.PatientName)\n"
            "assert (r.PhysicalUnitsXDirection, r.PhysicalUnitsYDirection)==(3,3)\n"
            "assert abs(r.PhysicalDeltaX-0.025)<1e-12 and abs(r.PhysicalDeltaY-0.02)<1e-12\n"
            "assert (r.RegionLocationMaxX1, r.RegionLocationMaxY1)==(159,199)\n"
            "assert d.file_meta.TransferSyntaxUID=='1.2.840.10008.1.2.1'\n"
            "print('pydicom ok')\" " +
            file + " " + (dir / "expected.raw").string());
    EXPECT_NE(check.find("pydicom ok"), std::string::npos) << check;
}

TEST_F(UsImageTest, BadInputIsNamedAndNothingIsWritten) {
    auto uids = UidGenerator::create(std::nullopt);
    ASSERT_TRUE(uids);
    auto object = sampleObject(*uids);
    object.frame.pixels.pop_back();
    const auto file = (dir / "bad.dcm").string();
    auto written = writeUsImage(file, object);
    ASSERT_FALSE(written);
    EXPECT_NE(written.error().message().find("frame 0 holds 31999 pixels, 200 x 160 need 32000"), std::string::npos) << written.error().message();
    object = sampleObject(*uids);
    object.frame.cmPerPixelY = 0;
    written = writeUsImage(file, object);
    ASSERT_FALSE(written);
    EXPECT_NE(written.error().message().find("calibration"), std::string::npos);
    object = sampleObject(*uids);
    object.context.series.instanceUid = "1.2.03";
    written = writeUsImage(file, object);
    ASSERT_FALSE(written);
    EXPECT_NE(written.error().message().find("Series Instance UID '1.2.03'"), std::string::npos) << written.error().message();
    EXPECT_FALSE(std::filesystem::exists(file));
}

TEST_F(UsImageTest, CineIsAValidMultiframeWithEveryFrameAndItsTiming) {
    auto uids = UidGenerator::create(std::nullopt);
    ASSERT_TRUE(uids);
    UsCineObject cine{sampleContext(*uids), {}, 1000.0 / 30};  // 30 frames/s: 33.3333 ms
    for (int i = 0; i < 12; ++i) cine.frames.push_back(sampleFrame(i));
    const auto file = (dir / "cine.dcm").string();
    ASSERT_TRUE(writeUsCine(file, cine));
    const auto report = dciodvfy(file);
    EXPECT_EQ(report.rfind("USMultiFrameImage", 0), 0u) << report;
    EXPECT_EQ(report.find("Error"), std::string::npos) << report;
    EXPECT_EQ(report.find("Warning"), std::string::npos) << report;
    {
        std::ofstream raw(dir / "expected.raw", std::ios::binary);
        for (const auto& f : cine.frames) raw.write(reinterpret_cast<const char*>(f.pixels.data()), static_cast<std::streamsize>(f.pixels.size()));
    }
    // What dciodvfy does not check: Frame Time consistent with the cine rate, frames all there.
    const auto check =
        run("/usr/bin/python3 -c \"import pydicom,numpy,sys\n"
            "d=pydicom.dcmread(sys.argv[1])\n"
            "e=numpy.fromfile(sys.argv[2],dtype=numpy.uint8).reshape(12,200,160)\n"
            "assert int(d.NumberOfFrames)==12 and (d.pixel_array==e).all(), 'frames differ'\n"
            "assert d.FrameIncrementPointer==0x00181063, d.FrameIncrementPointer\n"
            "assert abs(float(d.FrameTime)-33.3333)<1e-3 and int(d.CineRate)==30, (d.FrameTime, d.CineRate)\n"
            "assert d.SOPClassUID=='1.2.840.10008.5.1.4.1.1.3.1'\n"
            "print('pydicom ok')\" " +
            file + " " + (dir / "expected.raw").string());
    EXPECT_NE(check.find("pydicom ok"), std::string::npos) << check;
    cine.frames[5].columns = 161;
    cine.frames[5].pixels.resize(200 * 161);
    auto mixed = writeUsCine((dir / "mixed.dcm").string(), cine);
    ASSERT_FALSE(mixed);
    EXPECT_NE(mixed.error().message().find("frame 5 differs from frame 0"), std::string::npos) << mixed.error().message();
    cine.frames[5] = cine.frames[4];
    cine.frames[5].zStartCm = 0.5;  // the same raster, deeper: the calibration's reference would be wrong for it
    auto moved = writeUsCine((dir / "moved.dcm").string(), cine);
    ASSERT_FALSE(moved);
    EXPECT_NE(moved.error().message().find("frame 5 differs from frame 0"), std::string::npos) << moved.error().message();
}

// Grey and RGB, single frame and cine, in every transfer syntax we write: dciodvfy finds
// nothing, and pydicom reads every frame back byte-equal.
TEST_F(UsImageTest, EveryKindAndTransferSyntaxIsValidAndRoundTrips) {
    auto uids = UidGenerator::create(std::nullopt);
    ASSERT_TRUE(uids);
    const std::string checker = std::string(SONOLINK_TEST_SUPPORT_DIR) + "/check_dicom_pixels.py";
    for (int samples : {1, 3}) {
        for (auto compression : {Compression::None, Compression::Rle, Compression::JpegLs}) {
            for (int frames : {1, 5}) {
                UsCineObject cine{sampleContext(*uids), {}, 40.0};
                for (int i = 0; i < frames; ++i) {
                    auto f = sampleFrame(i);
                    if (samples == 3) {  // grey with a burnt-in colour overlay (a yellow band)
                        std::vector<std::uint8_t> rgb;
                        for (std::size_t p = 0; p < f.pixels.size(); ++p) {
                            const bool overlay = p % static_cast<std::size_t>(f.columns) < 4;
                            rgb.insert(rgb.end(), {overlay ? std::uint8_t{255} : f.pixels[p], overlay ? std::uint8_t{220} : f.pixels[p],
                                                   overlay ? std::uint8_t{0} : f.pixels[p]});
                        }
                        f.pixels = std::move(rgb);
                        f.samplesPerPixel = 3;
                    }
                    cine.frames.push_back(std::move(f));
                }
                const auto name = fmt::format("s{}_c{}_f{}", samples, static_cast<int>(compression), frames);
                const auto file = (dir / (name + ".dcm")).string();
                const auto written = frames == 1 ? writeUsImage(file, {cine.context, cine.frames[0]}, compression) : writeUsCine(file, cine, compression);
                ASSERT_TRUE(written) << name << ": " << written.error().message();
                const auto report = dciodvfy(file);
                EXPECT_EQ(report.find("Error"), std::string::npos) << name << "\n" << report;
                EXPECT_EQ(report.find("Warning"), std::string::npos) << name << "\n" << report;
                const auto raw = (dir / (name + ".raw")).string();
                {
                    std::ofstream out(raw, std::ios::binary);
                    for (const auto& f : cine.frames) out.write(reinterpret_cast<const char*>(f.pixels.data()), static_cast<std::streamsize>(f.pixels.size()));
                }
                const auto check =
                    run(fmt::format("/usr/bin/python3 {} {} {} {} 200 160 {} {}", checker, file, raw, frames, samples, transferSyntaxUid(compression)));
                EXPECT_NE(check.find("pixels ok"), std::string::npos) << name << "\n" << check;
            }
        }
    }
}

TEST(UidGeneratorTest, RootsAndUuidsAreValidUniqueAndNeverDcmtks) {
    auto uuids = UidGenerator::create(std::nullopt);
    ASSERT_TRUE(uuids);
    auto rooted = UidGenerator::create("1.2.826.0.1.3680043.10.999");
    ASSERT_TRUE(rooted) << rooted.error().describe();
    std::set<std::string> seen;
    for (int i = 0; i < 1000; ++i) {
        for (const auto* g : {&*uuids, &*rooted}) {
            const auto uid = g->next();
            EXPECT_TRUE(checkUid(uid, "generated")) << uid;
            EXPECT_TRUE(seen.insert(uid).second) << "duplicate " << uid;
        }
    }
    EXPECT_EQ(uuids->next().rfind("2.25.", 0), 0u);
    EXPECT_EQ(rooted->next().rfind("1.2.826.0.1.3680043.10.999.", 0), 0u);
    auto offis = UidGenerator::create("1.2.276.0.7230010.3");
    ASSERT_FALSE(offis);
    EXPECT_NE(offis.error().message().find("DCMTK's own"), std::string::npos) << offis.error().message();
    auto tooLong = UidGenerator::create("1.2.3.4.5.6.7.8.9.10.11.12.13.14.15");
    ASSERT_FALSE(tooLong);
    EXPECT_NE(tooLong.error().message().find("at most 30"), std::string::npos);
    EXPECT_FALSE(UidGenerator::create("1.2.x"));
}

// A cine read in place as from the archive (a slow remote source): every frame in order equal
// to the one written, RLE and native, with the next frames fetched on threads of their own while
// one is decoded (more than one read in flight at a time), and a seek back that drops them.
class SlowRemoteSource final : public ByteSource {
public:
    explicit SlowRemoteSource(std::shared_ptr<ByteSource> inner) : inner_(std::move(inner)) {}
    std::string name() const override { return "s3://test/" + inner_->name(); }
    std::uint64_t size() const override { return inner_->size(); }
    bool remote() const override { return true; }
    Status read(std::uint64_t offset, std::span<std::byte> into) override {
        const int now = ++inFlight;
        for (int seen = most.load(); now > seen && !most.compare_exchange_weak(seen, now);) {
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));  // a round trip
        auto ok = inner_->read(offset, into);
        --inFlight;
        return ok;
    }
    std::atomic<int> inFlight{0}, most{0};

private:
    std::shared_ptr<ByteSource> inner_;
};

TEST_F(UsImageTest, ACineIsReadInPlaceFrameByFrameWithTheNextFramesFetchedAhead) {
    auto uids = UidGenerator::create(std::nullopt);
    ASSERT_TRUE(uids);
    UsCineObject cine{sampleContext(*uids), {}, 1000.0 / 30};
    for (int i = 0; i < 10; ++i) {
        cine.frames.push_back(sampleFrame(i));
        cine.frames.back().xStartCm = -1.99;
        cine.frames.back().zStartCm = 0.3;
    }
    for (auto compression : {Compression::Rle, Compression::None}) {
        const auto file = (dir / fmt::format("cine_{}.dcm", static_cast<int>(compression))).string();
        ASSERT_TRUE(writeUsCine(file, cine, compression));
        auto mapped = mapFile(file);
        ASSERT_TRUE(mapped) << mapped.error().describe();
        auto remote = std::make_shared<SlowRemoteSource>(*mapped);
        auto frames = FrameSource::open(remote);
        ASSERT_TRUE(frames) << frames.error().describe();
        ASSERT_EQ(frames->format().frames, 10u);
        EXPECT_EQ(frames->format().index, compression == Compression::None ? FrameIndex::Native : FrameIndex::BasicOffsetTable);
        // Where the pixels lie, as the region's calibration says (what a review draws its rulers from).
        EXPECT_DOUBLE_EQ(frames->format().pixelSpacingXMm, 0.25);
        EXPECT_DOUBLE_EQ(frames->format().pixelSpacingYMm, 0.2);
        ASSERT_TRUE(frames->format().firstPixelXMm && frames->format().firstPixelYMm);
        EXPECT_NEAR(*frames->format().firstPixelXMm, -19.9, 1e-9);
        EXPECT_NEAR(*frames->format().firstPixelYMm, 3.0, 1e-9);
        std::vector<std::byte> out(frames->format().frameBytes());
        for (std::uint32_t k : {0u, 1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u, 9u, 2u, 3u}) {  // in order, then a seek back
            ASSERT_TRUE(frames->readFrame(k, out)) << k;
            const auto& want = cine.frames[k].pixels;
            ASSERT_EQ(std::memcmp(out.data(), want.data(), want.size()), 0) << "frame " << k;
        }
        EXPECT_GE(remote->most.load(), 2) << "frames read in order are fetched ahead, several at a time";
    }
}

}  // namespace
}  // namespace sonolink::dicom
