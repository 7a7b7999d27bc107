// De-identification by the Basic profile: names, IDs, dates and the order are gone or replaced
// by the pseudonym, UIDs are replaced consistently (two objects of a study stay one study, the
// same key gives the same UIDs), the method is recorded (113100), pixels are untouched and
// dciodvfy still finds nothing; SonoLink's RF block survives (113111), other private data does
// not; a PDF report (burnt-in annotation) is refused.
#include "sonolink/dicom/deidentify.h"

#include <filesystem>

#include <gtest/gtest.h>
#include <unistd.h>

#include "dicom_test_support.h"
#include "sonolink/dicom/document_writers.h"

namespace sonolink::dicom {
namespace {

namespace fs = std::filesystem;

class DeidentifyTest : public ::testing::Test {
protected:
    fs::path dir = fs::temp_directory_path() / ("sonolink_deid_" + std::to_string(::getpid()));
    UidGenerator uids = *UidGenerator::create(std::nullopt);
    void SetUp() override { fs::create_directories(dir); }
    void TearDown() override { fs::remove_all(dir); }
    std::string path(const std::string& name) const { return (dir / name).string(); }

    InstanceContext exam() const {
        auto c = sampleContext(uids);
        c.request = {"RP0001", "US ABDOMEN", "SPS0001", "Abdominal ultrasound"};
        return c;
    }
    static BModeFrame frame(int seed) {
        BModeFrame f{32, 24, {}, 0.02, 0.02, "ABDOMINAL", 1, 0, 0, false, {}};
        for (int i = 0; i < 32 * 24; ++i) f.pixels.push_back(static_cast<std::uint8_t>(i * 7 + seed));
        return f;
    }
};

TEST_F(DeidentifyTest, BasicProfileOnAStudyOfTwoImages) {
    auto context = exam();
    ASSERT_TRUE(writeUsImage(path("a.dcm"), {context, frame(1)}));
    context.sopInstanceUid = uids.next();
    context.instanceNumber = 2;
    ASSERT_TRUE(writeUsImage(path("b.dcm"), {context, frame(2)}));
    const DeidentifyOptions options{"ANON^0042", "ANON-0042", "site secret"};
    for (const char* name : {"a", "b"}) {
        ASSERT_TRUE(deidentifyFile(path(std::string(name) + ".dcm"), path(std::string(name) + ".anon.dcm"), options));
        const auto report = dciodvfy(path(std::string(name) + ".anon.dcm"));
        EXPECT_EQ(report.find("Error"), std::string::npos) << report;
        EXPECT_EQ(report.find("Warning"), std::string::npos) << report;
    }
    const auto check =
        run("/usr/bin/python3 -c \"import pydicom,sys\n"
            "a,b,o=(pydicom.dcmread(p) for p in sys.argv[1:4])\n"
            "assert str(a.PatientName)=='ANON^0042' and a.PatientID=='ANON-0042'\n"
            "assert a.PatientBirthDate=='' and a.StudyDate=='19000101' and a.ContentTime=='000000' and a.AccessionNumber=='' and "
            "str(a.ReferringPhysicianName)==''\n"
            "for k in ('RequestAttributesSequence','StationName','DeviceSerialNumber','StudyDescription','InstanceCreationDate'): assert k not in a, k\n"
            "assert a.PatientIdentityRemoved=='YES' and a.LongitudinalTemporalInformationModified=='REMOVED'\n"
            "assert [c.CodeValue for c in a.DeidentificationMethodCodeSequence]==['113100']\n"
            "assert a.StudyInstanceUID==b.StudyInstanceUID!=o.StudyInstanceUID, 'one study, new UID'\n"
            "assert a.SOPInstanceUID!=b.SOPInstanceUID and a.SOPInstanceUID!=o.SOPInstanceUID\n"
            "assert a.file_meta.MediaStorageSOPInstanceUID==a.SOPInstanceUID\n"
            "assert a.StudyInstanceUID.startswith('2.25.') and len(a.StudyInstanceUID)<=64\n"
            "assert a.PixelData==o.PixelData and a.BurnedInAnnotation=='NO'\n"
            "assert a.Manufacturer=='SonoLink'\n"
            "print('deid ok')\" " +
            path("a.anon.dcm") + " " + path("b.anon.dcm") + " " + path("a.dcm"));
    EXPECT_NE(check.find("deid ok"), std::string::npos) << check;
    // The same key maps the same UIDs again; another key does not.
    EXPECT_EQ(replacementUid("site secret", context.study.instanceUid), replacementUid("site secret", context.study.instanceUid));
    EXPECT_NE(replacementUid("site secret", context.study.instanceUid), replacementUid("other", context.study.instanceUid));
    EXPECT_TRUE(checkUid(replacementUid("k", context.study.instanceUid), "replacement"));
}

TEST_F(DeidentifyTest, OurRfBlockIsKeptAndAReportWithThePatientIsRefused) {
    RawDataPayload payload{std::vector<std::uint8_t>(256, 7), "int16 LE; test", uids.next()};
    ASSERT_TRUE(writeRawData(path("rf.dcm"), exam(), payload));
    ASSERT_TRUE(deidentifyFile(path("rf.dcm"), path("rf.anon.dcm"), {"ANON", "", "k"}));
    const auto check =
        run("/usr/bin/python3 -c \"import pydicom,sys\nd=pydicom.dcmread(sys.argv[1])\n"
            "assert d.private_block(0x0009,'SONOLINK RF 1')[0x10].value==bytes([7])*256\n"
            "assert [c.CodeValue for c in d.DeidentificationMethodCodeSequence]==['113100','113111']\n"
            "print('rf ok')\" " +
            path("rf.anon.dcm"));
    EXPECT_NE(check.find("rf ok"), std::string::npos) << check;
    const std::string pdf = "%PDF-1.4\n%%EOF\n";
    ASSERT_TRUE(writeEncapsulatedPdf(path("qa.dcm"), exam(), {pdf.begin(), pdf.end()}, "QA"));
    auto refused = deidentifyFile(path("qa.dcm"), path("qa.anon.dcm"), {"ANON", "", "k"});
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message().find("burnt-in annotation"), std::string::npos) << refused.error().message();
    EXPECT_FALSE(fs::exists(path("qa.anon.dcm")));
    EXPECT_FALSE(deidentifyFile(path("rf.dcm"), path("x.dcm"), {"ANON", "", ""}));  // no key
}

}  // namespace
}  // namespace sonolink::dicom
