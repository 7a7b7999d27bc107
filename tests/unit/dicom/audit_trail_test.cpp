// Audit messages: the event, outcome and participants in the PS3.15 A.5 layout, text escaped so
// that any patient name makes valid XML, one patient per message for transfers grouped by
// patient and study; the file is appended, one message per line, readable by its owner only.
#include "sonolink/dicom/audit_trail.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

namespace sonolink::dicom {
namespace {

TEST(AuditTrail, MessageNamesEventOutcomeAndParticipantsAndEscapesText) {
    AuditEvent e;
    e.kind = AuditEventKind::InstancesTransferred;
    e.outcome = AuditOutcome::SeriousFailure;
    e.outcomeDescription = "PACS refused (status 0xA900)";
    e.localAeTitle = "SONOLINK";
    e.remoteAeTitle = "PACS";
    e.remoteHost = "10.0.0.9";
    e.patientId = "P<1>";
    e.patientName = "O'Brien & Sons^\"Jo\"";
    e.studyInstanceUid = "2.25.1";
    e.sopClasses = {{"1.2.840.10008.5.1.4.1.1.6.1", 3}};
    const auto xml = auditMessageXml(e, "operator", "station1", "SONOLINK", "2026-11-30T10:00:00.000+00:00");
    EXPECT_EQ(xml.find('\n'), std::string::npos);
    EXPECT_NE(xml.find(R"(csd-code="110104")"), std::string::npos);
    EXPECT_NE(xml.find(R"(EventOutcomeIndicator="8")"), std::string::npos);
    EXPECT_NE(xml.find("O&apos;Brien &amp; Sons^&quot;Jo&quot;"), std::string::npos) << xml;
    EXPECT_NE(xml.find(R"(ParticipantObjectID="P&lt;1&gt;")"), std::string::npos) << xml;
    EXPECT_NE(xml.find(R"(<SOPClass UID="1.2.840.10008.5.1.4.1.1.6.1" NumberOfInstances="3"/>)"), std::string::npos);
    EXPECT_NE(xml.find(R"(UserID="operator")"), std::string::npos);
    EXPECT_NE(xml.find(R"(NetworkAccessPointID="10.0.0.9")"), std::string::npos);
}

TEST(AuditTrail, AnOverrideIsASecurityAlertNamingWhoWhyAndWhat) {
    const auto xml = auditMessageXml(overrideEvent("SONOLINK_T", "start-up self-test", "bench station <no patients>", "link BER test failed"), "engineer",
                                     "station-1", "SONOLINK", "2026-12-02T02:30:00+00:00");
    EXPECT_NE(xml.find(R"(<EventIdentification EventActionCode="E" EventDateTime="2026-12-02T02:30:00+00:00" EventOutcomeIndicator="0">)"), std::string::npos)
        << xml;
    EXPECT_NE(xml.find(R"(csd-code="110113")"), std::string::npos) << "Security Alert";
    EXPECT_NE(xml.find(R"(csd-code="110127")"), std::string::npos) << "Emergency Override";
    EXPECT_NE(xml.find(R"(<ActiveParticipant UserID="engineer" UserIsRequestor="true"/>)"), std::string::npos) << "who";
    EXPECT_NE(xml.find("reason: bench station &lt;no patients&gt;"), std::string::npos) << "why, escaped";
    EXPECT_NE(xml.find(R"(ParticipantObjectID="start-up self-test" ParticipantObjectTypeCode="2" ParticipantObjectTypeCodeRole="13")"), std::string::npos);
    EXPECT_EQ(xml.find("110152"), std::string::npos) << "no destination";
    EXPECT_EQ(xml.find("ParticipantObjectTypeCode=\"1\""), std::string::npos) << "no patient";
}

TEST(AuditTrail, TransfersAreGroupedByPatientStudyAndOutcome) {
    const PacsNode node{"PACS", "10.0.0.9", 104, false};
    ObjectInfo a{"a", "1.2.3", "9.1", "1.2.840.10008.1.2.1", "2.25.1", "P1", "One^Patient"};
    ObjectInfo b = a;
    b.sopInstanceUid = "9.2";
    ObjectInfo c{"c", "1.2.3", "9.3", "1.2.840.10008.1.2.1", "2.25.2", "P2", "Two^Patient"};
    const auto events =
        transferEvents("SONOLINK", node, {{a, std::nullopt, true}, {b, std::nullopt, true}, {c, Error(ErrorCode::Unavailable, "refused"), true}});
    ASSERT_EQ(events.size(), 2u);
    EXPECT_EQ(events[0].patientId, "P1");
    EXPECT_EQ(events[0].outcome, AuditOutcome::Success);
    EXPECT_EQ(events[0].sopClasses, (std::vector<std::pair<std::string, int>>{{"1.2.3", 2}}));
    EXPECT_EQ(events[1].patientId, "P2");
    EXPECT_EQ(events[1].outcome, AuditOutcome::MinorFailure);
    EXPECT_EQ(events[1].outcomeDescription, "refused");
}

TEST(AuditTrail, FileIsAppendedOneLineEachAndPrivate) {
    const auto path = std::filesystem::temp_directory_path() / ("sonolink_audit_" + std::to_string(::getpid())) / "audit.log";
    {
        AuditTrail audit({path.string(), "", 514, "SONOLINK"});
        AuditEvent e;
        e.kind = AuditEventKind::Query;
        e.query = "Modality Worklist: date any";
        ASSERT_TRUE(audit.record(e));
        ASSERT_TRUE(audit.record(e));
    }
    std::ifstream in(path);
    int lines = 0;
    for (std::string line; std::getline(in, line);) {
        ++lines;
        EXPECT_NE(line.find(R"(csd-code="110112")"), std::string::npos);
    }
    EXPECT_EQ(lines, 2);
    struct stat st {};
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    std::filesystem::remove_all(path.parent_path());
    AuditTrail broken({"/proc/no/such/dir/audit.log", "", 514, "SONOLINK"});
    auto failed = broken.record(AuditEvent{});
    ASSERT_FALSE(failed);
    EXPECT_NE(failed.error().message().find("/proc/no/such/dir/audit.log"), std::string::npos);
}

}  // namespace
}  // namespace sonolink::dicom
