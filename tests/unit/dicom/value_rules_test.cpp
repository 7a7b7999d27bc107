// The one set of DICOM value rules: AE titles, UIDs, UID roots (length, DCMTK's own root), LO
// and PN values, and the LO sanitiser; DCMTK's root as DCMTK itself defines it.
#include "sonolink/dicom/value_rules.h"

#include <dcmtk/dcmdata/dcuid.h>
#include <gtest/gtest.h>

namespace sonolink::dicom {
namespace {

TEST(ValueRulesTest, DcmtkRootIsDcmtksOwn) { EXPECT_EQ(kDcmtkUidRoot, std::string_view(SITE_UID_ROOT)); }

TEST(ValueRulesTest, AeTitles) {
    EXPECT_EQ(aeTitleProblem("SONOLINK"), "");
    EXPECT_NE(aeTitleProblem(""), "");
    EXPECT_NE(aeTitleProblem("SEVENTEEN_CHARS_X"), "");
    EXPECT_NE(aeTitleProblem("A\\B"), "");
    EXPECT_NE(aeTitleProblem("    "), "");
}

TEST(ValueRulesTest, UidRootsOfThirtyOneCharactersOrDcmtksAreRefused) {
    EXPECT_EQ(uidRootProblem("1.2.826.0.1.3680043.10.999"), "");
    const std::string thirty = "1.2.826.0.1.3680043.10.9999999";
    ASSERT_EQ(thirty.size(), 30u);
    EXPECT_EQ(uidRootProblem(thirty), "");
    EXPECT_NE(uidRootProblem(thirty + "1").find("at most 30"), std::string::npos);
    EXPECT_NE(uidRootProblem(kDcmtkUidRoot).find("DCMTK"), std::string::npos);
    EXPECT_NE(uidRootProblem(std::string(kDcmtkUidRoot) + ".5").find("DCMTK"), std::string::npos);
    EXPECT_EQ(uidRootProblem("1.2.276.0.72300101"), "") << "a root that only starts with the same digits is someone else's";
    EXPECT_NE(uidRootProblem("1.2.03"), "");
    EXPECT_NE(uidRootProblem("1..2"), "");
    EXPECT_NE(uidRootProblem("1.2a"), "");
}

// SH counts characters: 16 Chinese characters (48 bytes of UTF-8) fit, a 17th does not.
TEST(ValueRulesTest, ShortStringsCountCharactersNotBytes) {
    std::string sixteen;
    for (int i = 0; i < 16; ++i) sixteen += "超";
    EXPECT_EQ(shortStringProblem(sixteen), "");
    EXPECT_NE(shortStringProblem(sixteen + "x"), "");
    EXPECT_NE(shortStringProblem(std::string(17, 'x')), "");
    EXPECT_NE(shortStringProblem("a\\b"), "");
    EXPECT_NE(shortStringProblem("a\nb"), "");
}

TEST(ValueRulesTest, LongStringsAndPersonNames) {
    EXPECT_EQ(longStringProblem(std::string(64, 'x')), "");
    EXPECT_NE(longStringProblem(std::string(65, 'x')), "");
    EXPECT_NE(longStringProblem("a\\b"), "");
    EXPECT_EQ(personNameProblem("Wang^Xiaoming=王^小明"), "");
    EXPECT_NE(personNameProblem("a=b=c=d"), "");
    EXPECT_NE(personNameProblem("a^b^c^d^e^f"), "");
    EXPECT_NE(personNameProblem(std::string(65, 'x')), "");
    EXPECT_EQ(toLongString(std::string(70, 'y')), std::string(64, 'y'));
    EXPECT_EQ(toLongString("SN\\1\n"), "SN_1_");
}

}  // namespace
}  // namespace sonolink::dicom
