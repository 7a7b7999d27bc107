// The calipers of an exported image as a Comprehensive SR (TID 1500): dciodvfy reports no error
// and no warning; pydicom finds each caliper's group by its label, its value and unit, its shape
// in the image's pixels and the image it is selected from (the one written beside it), and the
// image as the report's evidence; dcmtk's dsrdump reads it. Bad calipers are refused by name.
#include "sonolink/dicom/measurement_report.h"

#include <filesystem>
#include <limits>

#include <gtest/gtest.h>
#include <unistd.h>

#include "dicom_test_support.h"

namespace sonolink::dicom {
namespace {

namespace fs = std::filesystem;

class MeasurementReportTest : public ::testing::Test {
protected:
    fs::path dir = fs::temp_directory_path() / ("sonolink_sr_" + std::to_string(::getpid()));
    UidGenerator uids = *UidGenerator::create(std::nullopt);
    void SetUp() override { fs::create_directories(dir); }
    void TearDown() override { fs::remove_all(dir); }

    // A 200 x 100 image at 0.02 cm a pixel, its first column's centre 2 cm left of the array's
    // centre and its first row's 0.1 cm deep: the pixel (column c, row r) centre is at
    // x = -20 + 0.2 c mm, z = 1 + 0.2 r mm.
    MeasuredImage image(const InstanceContext& of) const {
        return {"1.2.840.10008.5.1.4.1.1.6.1", of.sopInstanceUid, of.series.instanceUid, 0, 100, 200, 0.02, 0.02, -2.0, 0.1};
    }
    std::vector<Caliper> calipers() const {
        Caliper distance{CaliperKind::Distance, "D1", {{-20, 1}, {-10, 1}}, 10.0, 0, 0, ""};
        // Major axis from column 50 to 150 on row 50 (20 mm), the minor's end 5 mm below.
        Caliper ellipse{CaliperKind::Ellipse, "A1", {{-10, 11}, {10, 11}, {0, 16}}, 0, 157.080, 48.442, ""};
        Caliper note{CaliperKind::Note, "T1", {{0, 3}}, 0, 0, 0, "cyst, 左叶"};
        return {distance, ellipse, note};
    }
};

TEST_F(MeasurementReportTest, IsAValidComprehensiveSrThatPydicomReadsBackAgainstItsImage) {
    auto imageContext = sampleContext(uids);
    UsImageObject picture{imageContext, {100, 200, std::vector<std::uint8_t>(200 * 100, 90), 0.02, 0.02, "ABDOMINAL", 1, -2.0, 0.1, false, {}}};
    const auto imageFile = (dir / "image.dcm").string();
    ASSERT_TRUE(writeUsImage(imageFile, picture));
    auto context = imageContext;
    context.series = {uids.next(), 2, "ABDOMEN", {}};
    context.sopInstanceUid = uids.next();
    const auto file = (dir / "image_measurements.dcm").string();
    auto written = writeMeasurementReport(file, context, image(imageContext), calipers(), uids);
    ASSERT_TRUE(written) << written.error().message();

    const auto report = dciodvfy(file);
    EXPECT_EQ(report.rfind("ComprehensiveSR", 0), 0u) << report;
    EXPECT_EQ(report.find("Error"), std::string::npos) << report;
    EXPECT_EQ(report.find("Warning"), std::string::npos) << report;
    const auto dump = run("dsrdump " + file);
    EXPECT_NE(dump.find("Imaging Measurement Report"), std::string::npos) << dump;
    EXPECT_NE(dump.find("Perimeter"), std::string::npos) << dump;

    const auto check = run("/usr/bin/python3 " SONOLINK_TEST_SUPPORT_DIR "/read_measurement_report.py " + file + " " + imageFile);
    EXPECT_NE(check.find("measurement report ok"), std::string::npos) << check;
    EXPECT_NE(check.find("D1 Length 10.000 mm POLYLINE 0.5,0.5,50.5,0.5"), std::string::npos) << check;
    EXPECT_NE(check.find("A1 Area 157.080 mm2 ELLIPSE 50.5,50.5,150.5,50.5,100.5,75.5,100.5,25.5"), std::string::npos) << check;
    EXPECT_NE(check.find("A1 Perimeter 48.442 mm ELLIPSE"), std::string::npos) << check;
    EXPECT_NE(check.find("T1 Comment 'cyst, 左叶' POINT 100.5,10.5"), std::string::npos) << check;
}

TEST_F(MeasurementReportTest, RefusesACaliperItCannotPlaceOrANonFiniteValueNamingIt) {
    const auto context = sampleContext(uids);
    const auto file = (dir / "bad.dcm").string();
    const auto refused = [&](std::vector<Caliper> c) {
        auto r = writeMeasurementReport(file, context, image(context), c, uids);
        EXPECT_FALSE(fs::exists(file));
        return r ? std::string("written") : r.error().message();
    };
    auto c = calipers();
    c[0].lengthMm = std::numeric_limits<double>::quiet_NaN();
    EXPECT_NE(refused(c).find("measurement D1 has a value that is not a finite"), std::string::npos);
    c = calipers();
    c[1].pointsMm.pop_back();
    EXPECT_NE(refused(c).find("measurement A1 has 2 points; it needs 3"), std::string::npos);
    c = calipers();
    c[0].pointsMm[1] = {40, 1};  // column 300 of 200
    EXPECT_NE(refused(c).find("measurement D1 has a point (300.5, 0.5) outside the 200 x 100 image"), std::string::npos);
    c = calipers();
    c[1].pointsMm[2] = {0, 11};  // on the major axis
    EXPECT_NE(refused(c).find("ellipse A1 has no minor axis"), std::string::npos);
    c = calipers();
    c[2].text.clear();
    EXPECT_NE(refused(c).find("note T1 has no text"), std::string::npos);
    EXPECT_NE(refused({}).find("at least one measurement"), std::string::npos);
    auto flat = image(context);
    flat.cmPerPixelX = 0;
    auto r = writeMeasurementReport(file, context, flat, calipers(), uids);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message().find("calibration is not usable"), std::string::npos);
}

}  // namespace
}  // namespace sonolink::dicom
