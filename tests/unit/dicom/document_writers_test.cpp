// The QA report as an Encapsulated PDF and an RF snippet as Raw Data: dciodvfy reports no error
// and no warning (on Raw Data, but for naming our two private RF elements "Unrecognized tag": it
// has no dictionary of ours); the PDF comes back byte-identical through dcmtk's dcm2pdf; pydicom reads the
// samples and their description back; a non-PDF or an empty snippet is refused by name.
#include "sonolink/dicom/document_writers.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include <gtest/gtest.h>
#include <unistd.h>

#include "dicom_test_support.h"

namespace sonolink::dicom {
namespace {

namespace fs = std::filesystem;

// A one-page PDF with a line of text, as a report generator would write it.
std::vector<std::uint8_t> samplePdf() {
    const std::string text =
        "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n"
        "3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]/Contents 4 0 R/Resources<</Font<</F1 5 0 R>>>>>>endobj\n"
        "4 0 obj<</Length 52>>stream\nBT /F1 18 Tf 72 760 Td (Link self-test: PASS) Tj ET\nendstream endobj\n"
        "5 0 obj<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n";
    return {text.begin(), text.end()};
}

class DocumentWritersTest : public ::testing::Test {
protected:
    fs::path dir = fs::temp_directory_path() / ("sonolink_documents_" + std::to_string(::getpid()));
    UidGenerator uids = *UidGenerator::create(std::nullopt);
    void SetUp() override { fs::create_directories(dir); }
    void TearDown() override { fs::remove_all(dir); }
};

TEST_F(DocumentWritersTest, EncapsulatedPdfIsValidAndGivesTheSameBytesBack) {
    const auto file = (dir / "qa.dcm").string();
    auto pdf = samplePdf();
    ASSERT_TRUE(writeEncapsulatedPdf(file, sampleContext(uids), pdf, "Link self-test"));
    const auto report = dciodvfy(file);
    EXPECT_EQ(report.rfind("EncapsulatedPDF", 0), 0u) << report;
    EXPECT_EQ(report.find("Error"), std::string::npos) << report;
    EXPECT_EQ(report.find("Warning"), std::string::npos) << report;
    const auto back = (dir / "back.pdf").string();
    run("dcm2pdf " + file + " " + back);
    std::ifstream in(back, std::ios::binary);
    const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in), {}};
    EXPECT_EQ(bytes, pdf);
    const auto check =
        run("/usr/bin/python3 -c \"import pydicom,sys\nd=pydicom.dcmread(sys.argv[1])\n"
            "assert d.Modality=='DOC' and d.DocumentTitle=='Link self-test' and d.MIMETypeOfEncapsulatedDocument=='application/pdf'\n"
            "assert str(d.PatientName)=='Wang^Xiaoming=王^小明'\nprint('pydicom ok')\" " +
            file);
    EXPECT_NE(check.find("pydicom ok"), std::string::npos) << check;
    const std::string notPdf = "hello";
    auto refused = writeEncapsulatedPdf((dir / "x.dcm").string(), sampleContext(uids), {notPdf.begin(), notPdf.end()}, "x");
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message().find("not a PDF"), std::string::npos);
}

TEST_F(DocumentWritersTest, RawDataIsValidAndCarriesItsSamplesAndTheirDescription) {
    RawDataPayload payload;
    for (int i = 0; i < 2 * 64 * 128; ++i) {
        const auto v = static_cast<std::int16_t>(i * 37 - 3000);
        payload.bytes.push_back(static_cast<std::uint8_t>(v & 0xFF));
        payload.bytes.push_back(static_cast<std::uint8_t>((v >> 8) & 0xFF));
    }
    payload.description = "int16 LE; 2 frames x 1 waves x 64 channels x 128 samples; fs=40 MHz";
    payload.formatVersionUid = uids.next();
    const auto file = (dir / "rf.dcm").string();
    ASSERT_TRUE(writeRawData(file, sampleContext(uids), payload));
    // dciodvfy knows no private dictionary of ours: it names our two private elements as
    // unrecognised, and must say nothing else.
    std::string report;
    for (std::istringstream lines(dciodvfy(file)); std::getline(lines, report);) {
        if (report.starts_with("(0x0009,0x1010)") || report.starts_with("(0x0009,0x1011)")) {
            EXPECT_NE(report.find("Unrecognized tag"), std::string::npos) << report;
        } else {
            EXPECT_EQ(report.find("Error"), std::string::npos) << report;
            EXPECT_EQ(report.find("Warning"), std::string::npos) << report;
        }
    }
    {
        std::ofstream raw(dir / "expected.raw", std::ios::binary);
        raw.write(reinterpret_cast<const char*>(payload.bytes.data()), static_cast<std::streamsize>(payload.bytes.size()));
    }
    const auto check =
        run("/usr/bin/python3 -c \"import pydicom,sys\nd=pydicom.dcmread(sys.argv[1])\n"
            "b=d.private_block(0x0009, 'SONOLINK RF 1')\n"
            "assert b[0x10].value==open(sys.argv[2],'rb').read(), 'samples differ'\n"
            "assert b[0x11].value.startswith('int16 LE; 2 frames'), b[0x11].value\n"
            "assert d.SOPClassUID=='1.2.840.10008.5.1.4.1.1.66'\nprint('pydicom ok')\" " +
            file + " " + (dir / "expected.raw").string());
    EXPECT_NE(check.find("pydicom ok"), std::string::npos) << check;
    payload.bytes.clear();
    EXPECT_FALSE(writeRawData((dir / "empty.dcm").string(), sampleContext(uids), payload));
}

}  // namespace
}  // namespace sonolink::dicom
