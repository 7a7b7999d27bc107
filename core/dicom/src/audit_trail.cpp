#include "sonolink/dicom/audit_trail.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "sonolink/util/station_user.h"

namespace sonolink::dicom {
namespace {

std::string escapeXml(const std::string& text) {
    std::string out;
    for (char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&apos;"; break;
            case '\n': out += "&#10;"; break;
            default: out += c;
        }
    }
    return out;
}

std::string code(const char* element, const char* value, const char* scheme, const char* meaning) {
    return fmt::format(R"(<{} csd-code="{}" codeSystemName="{}" originalText="{}"/>)", element, value, scheme, meaning);
}

std::string base64(const std::string& text) {
    static const char* table = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    unsigned bits = 0;
    int count = 0;
    for (unsigned char c : text) {
        bits = (bits << 8) | c;
        count += 8;
        while (count >= 6) out += table[(bits >> (count -= 6)) & 0x3F];
    }
    if (count > 0) out += table[(bits << (6 - count)) & 0x3F];
    while (out.size() % 4) out += '=';
    return out;
}

std::string hostName() {
    char name[256] = {};
    ::gethostname(name, sizeof name - 1);
    return name;
}

std::string nowIso8601() {
    const auto now = std::chrono::system_clock::now();
    const auto t = std::chrono::system_clock::to_time_t(now);
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
    std::tm local{};
    ::localtime_r(&t, &local);
    char base[32], zone[8];
    std::strftime(base, sizeof base, "%Y-%m-%dT%H:%M:%S", &local);
    std::strftime(zone, sizeof zone, "%z", &local);  // +0100 -> +01:00
    const std::string z = zone;
    return fmt::format("{}.{:03}{}:{}", base, ms, z.substr(0, 3), z.substr(3));
}

// The EventID (and for an alert its EventTypeCode) of an event of this kind.
std::string eventIdCodes(AuditEventKind kind) {
    std::string eventId;
    switch (kind) {
        case AuditEventKind::InstancesTransferred: eventId = code("EventID", "110104", "DCM", "DICOM Instances Transferred"); break;
        case AuditEventKind::Export: eventId = code("EventID", "110106", "DCM", "Export"); break;
        case AuditEventKind::Query: eventId = code("EventID", "110112", "DCM", "Query"); break;
        case AuditEventKind::EmergencyOverride:
            eventId = code("EventID", "110113", "DCM", "Security Alert") + code("EventTypeCode", "110127", "DCM", "Emergency Override");
            break;
        case AuditEventKind::SecurityConfiguration:
            eventId = code("EventID", "110113", "DCM", "Security Alert") + code("EventTypeCode", "110129", "DCM", "Security Configuration");
            break;
    }
    return eventId;
}

// What the event is about: the alert's subject, the query, or the study; then the patient.
std::string participantObjects(const AuditEvent& e, bool alert, bool queried) {
    std::string xml;
    if (alert) {  // the alert's subject: a system object (2) in the role of a security resource (13)
        xml += fmt::format(R"(<ParticipantObjectIdentification ParticipantObjectID="{}" ParticipantObjectTypeCode="2" ParticipantObjectTypeCodeRole="13">)",
                           escapeXml(e.alertSubject));
        xml += R"(<ParticipantObjectIDTypeCode csd-code="12" codeSystemName="RFC-3881" originalText="URI"/>)";
        xml += fmt::format(R"(<ParticipantObjectDetail type="Alert Description" value="{}"/></ParticipantObjectIdentification>)", base64(e.alertDescription));
    } else if (queried) {
        xml +=
            R"(<ParticipantObjectIdentification ParticipantObjectID="1.2.840.10008.5.1.4.31" ParticipantObjectTypeCode="2" ParticipantObjectTypeCodeRole="3">)";
        xml += R"(<ParticipantObjectIDTypeCode csd-code="110181" codeSystemName="DCM" originalText="SOP Class UID"/>)";
        xml += "<ParticipantObjectQuery>" + base64(e.query) + "</ParticipantObjectQuery>";
        xml += R"(<ParticipantObjectDetail type="TransferSyntax" value="MS4yLjg0MC4xMDAwOC4xLjIuMQ=="/></ParticipantObjectIdentification>)";
    } else if (!e.studyInstanceUid.empty()) {
        xml += fmt::format(R"(<ParticipantObjectIdentification ParticipantObjectID="{}" ParticipantObjectTypeCode="2" ParticipantObjectTypeCodeRole="3">)",
                           escapeXml(e.studyInstanceUid));
        xml += R"(<ParticipantObjectIDTypeCode csd-code="110180" codeSystemName="DCM" originalText="Study Instance UID"/>)";
        xml += "<ParticipantObjectDescription>";
        for (const auto& [sopClass, count] : e.sopClasses) {
            xml += fmt::format(R"(<SOPClass UID="{}" NumberOfInstances="{}"/>)", escapeXml(sopClass), count);
        }
        xml += "</ParticipantObjectDescription></ParticipantObjectIdentification>";
    }
    if (!e.patientId.empty() || !e.patientName.empty()) {
        xml += fmt::format(R"(<ParticipantObjectIdentification ParticipantObjectID="{}" ParticipantObjectTypeCode="1" ParticipantObjectTypeCodeRole="1">)",
                           escapeXml(e.patientId));
        xml += R"(<ParticipantObjectIDTypeCode csd-code="2" codeSystemName="RFC-3881" originalText="Patient Number"/>)";
        xml += "<ParticipantObjectName>" + escapeXml(e.patientName) + "</ParticipantObjectName></ParticipantObjectIdentification>";
    }
    return xml;
}

}  // namespace

std::string auditMessageXml(const AuditEvent& e, const std::string& userId, const std::string& host, const std::string& sourceId, const std::string& dateTime) {
    const bool alert = e.kind == AuditEventKind::EmergencyOverride || e.kind == AuditEventKind::SecurityConfiguration;
    const bool executed = e.kind == AuditEventKind::Query || alert;
    const char* action = executed ? "E" : "R";  // execute a query or an override; read (send, copy) instances
    const std::string eventId = eventIdCodes(e.kind);
    std::string xml = R"(<?xml version="1.0" encoding="UTF-8"?><AuditMessage>)";
    xml += fmt::format(R"(<EventIdentification EventActionCode="{}" EventDateTime="{}" EventOutcomeIndicator="{}">)", action, dateTime,
                       static_cast<int>(e.outcome));
    xml += eventId;
    if (!e.outcomeDescription.empty()) xml += "<EventOutcomeDescription>" + escapeXml(e.outcomeDescription) + "</EventOutcomeDescription>";
    xml += "</EventIdentification>";
    // The station (source of a transfer or export; requestor of a query) and the person using it.
    const bool queried = e.kind == AuditEventKind::Query;
    xml += fmt::format(
        R"(<ActiveParticipant UserID="{}" AlternativeUserID="AETITLES={}" UserIsRequestor="true" NetworkAccessPointID="{}" NetworkAccessPointTypeCode="1">)",
        escapeXml(e.localAeTitle), escapeXml(e.localAeTitle), escapeXml(host));
    xml += queried || alert ? "" : code("RoleIDCode", "110153", "DCM", "Source Role ID");
    xml += "</ActiveParticipant>";
    xml += fmt::format(R"(<ActiveParticipant UserID="{}" UserIsRequestor="true"/>)", escapeXml(userId));
    if (e.kind == AuditEventKind::Export) {
        xml += fmt::format(R"(<ActiveParticipant UserID="{}" UserIsRequestor="false" MediaType="filesystem">)", escapeXml(e.destination));
        xml += code("RoleIDCode", "110154", "DCM", "Destination Media") + "</ActiveParticipant>";
    } else if (!alert) {  // an override has no destination: its subject is the object below
        xml += fmt::format(
            R"(<ActiveParticipant UserID="{}" AlternativeUserID="AETITLES={}" UserIsRequestor="false" NetworkAccessPointID="{}" NetworkAccessPointTypeCode="1">)",
            escapeXml(e.remoteAeTitle), escapeXml(e.remoteAeTitle), escapeXml(e.remoteHost));
        xml += code("RoleIDCode", "110152", "DCM", "Destination Role ID") + "</ActiveParticipant>";
    }
    xml += fmt::format(R"(<AuditSourceIdentification AuditSourceID="{}">)", escapeXml(sourceId));
    xml += R"(<AuditSourceTypeCode csd-code="4" codeSystemName="DCM" originalText="Application Server Process"/></AuditSourceIdentification>)";
    xml += participantObjects(e, alert, queried);
    xml += "</AuditMessage>";
    return xml;
}

namespace {

// Messages gathered per key (patient, study, ...), each counting its instances per SOP class.
struct EventGroup {
    AuditEvent event;
    std::map<std::string, int> sopClasses;
};

template <typename Key> std::vector<AuditEvent> eventsOf(std::map<Key, EventGroup>& groups) {
    std::vector<AuditEvent> events;
    for (auto& [key, group] : groups) {
        group.event.sopClasses.assign(group.sopClasses.begin(), group.sopClasses.end());
        events.push_back(std::move(group.event));
    }
    return events;
}

}  // namespace

std::vector<AuditEvent> transferEvents(const std::string& localAeTitle, const PacsNode& node, const std::vector<TransferAttempt>& attempts) {
    std::map<std::tuple<std::string, std::string, int, std::string>, EventGroup> groups;
    for (const auto& a : attempts) {
        const auto& o = a.object;
        const auto outcome = !a.error ? AuditOutcome::Success : a.retryable ? AuditOutcome::MinorFailure : AuditOutcome::SeriousFailure;
        const std::string why = a.error ? a.error->message() : "";
        auto& group = groups[{o.patientId, o.studyInstanceUid, static_cast<int>(outcome), why}];
        auto& e = group.event;
        e.kind = AuditEventKind::InstancesTransferred;
        e.outcome = outcome;
        e.outcomeDescription = why;
        e.localAeTitle = localAeTitle;
        e.remoteAeTitle = node.aeTitle;
        e.remoteHost = node.host;
        e.patientId = o.patientId;
        e.patientName = o.patientName;
        e.studyInstanceUid = o.studyInstanceUid;
        ++group.sopClasses[o.sopClassUid];
    }
    return eventsOf(groups);
}

std::vector<AuditEvent> exportEvents(const std::string& localAeTitle, const std::string& destination, const std::vector<ExportAttempt>& attempts) {
    std::map<std::pair<std::string, std::string>, EventGroup> groups;
    for (const auto& a : attempts) {
        const auto& o = a.object;
        auto& group = groups[{o.patientId, o.studyInstanceUid}];
        auto& e = group.event;
        e.kind = AuditEventKind::Export;
        e.localAeTitle = localAeTitle;
        e.destination = destination;
        e.patientId = o.patientId;
        e.patientName = o.patientName;
        e.studyInstanceUid = o.studyInstanceUid;
        if (a.error) {
            e.outcome = AuditOutcome::SeriousFailure;
            e.outcomeDescription = a.error->message();
        } else if (a.deidentified && e.outcome == AuditOutcome::Success) {
            e.outcomeDescription = "de-identified (PS3.15 Basic profile)";
        }
        ++group.sopClasses[o.sopClassUid];
    }
    return eventsOf(groups);
}

AuditEvent queryEvent(const std::string& localAeTitle, const PacsNode& node, const std::string& query, const std::optional<Error>& failure, std::size_t items) {
    AuditEvent event;
    event.kind = AuditEventKind::Query;
    event.outcome = failure ? AuditOutcome::MinorFailure : AuditOutcome::Success;
    event.outcomeDescription = failure ? failure->message() : fmt::format("{} item(s)", items);
    event.localAeTitle = localAeTitle;
    event.remoteAeTitle = node.aeTitle;
    event.remoteHost = node.host;
    event.query = query;
    return event;
}

namespace {

// A 110113 Security Alert: what was done (done: "overridden", "changed"; did: "overrode",
// "changed") to subject, and the reason given.
AuditEvent securityAlert(AuditEventKind kind, const std::string& localAeTitle, const std::string& subject, const char* done, const char* did,
                         const std::string& what, const std::string& reason) {
    AuditEvent event;
    event.kind = kind;
    event.outcome = AuditOutcome::Success;
    event.outcomeDescription = fmt::format("{}: {}; reason: {}", done, what, reason);
    event.localAeTitle = localAeTitle;
    event.alertSubject = subject;
    event.alertDescription = fmt::format("reason: {}; it {}: {}", reason, did, what);
    return event;
}

}  // namespace

AuditEvent overrideEvent(const std::string& localAeTitle, const std::string& subject, const std::string& reason, const std::string& overridden) {
    return securityAlert(AuditEventKind::EmergencyOverride, localAeTitle, subject, "overridden", "overrode", overridden, reason);
}

AuditEvent configurationChangeEvent(const std::string& localAeTitle, const std::string& subject, const std::string& change, const std::string& reason) {
    return securityAlert(AuditEventKind::SecurityConfiguration, localAeTitle, subject, "changed", "changed", change, reason);
}

AuditTrail::AuditTrail(AuditSettings settings) : settings_(std::move(settings)) {
    if (!settings_.syslogHost.empty()) socket_ = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
}

AuditTrail::~AuditTrail() {
    if (socket_ >= 0) ::close(socket_);
}

Status AuditTrail::record(const std::vector<AuditEvent>& events) {
    if (events.empty()) return {};
    static const std::string user = stationUser();
    static const std::string host = hostName();
    const auto when = nowIso8601();
    std::vector<std::string> messages;
    std::string lines;
    for (const auto& event : events) {
        messages.push_back(auditMessageXml(event, user, host, settings_.auditSourceId, when));
        lines += messages.back() + "\n";
    }
    std::lock_guard lock(mutex_);
    Status status;
    if (!settings_.file.empty()) {
        const auto parent = std::filesystem::path(settings_.file).parent_path();
        std::error_code ignored;
        if (!parent.empty()) std::filesystem::create_directories(parent, ignored);
        const int fd = ::open(settings_.file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);  // PHI: owner only
        if (fd < 0 || ::write(fd, lines.data(), lines.size()) != static_cast<ssize_t>(lines.size()) || ::fdatasync(fd) != 0) {
            status = fail(ErrorCode::DataLoss, fmt::format("cannot append to the audit trail {}: {}", settings_.file, std::strerror(errno)));
        }
        if (fd >= 0) ::close(fd);
    }
    if (socket_ >= 0) {
        addrinfo hints{};
        hints.ai_family = AF_INET;
        hints.ai_socktype = SOCK_DGRAM;
        addrinfo* address = nullptr;
        if (::getaddrinfo(settings_.syslogHost.c_str(), std::to_string(settings_.syslogPort).c_str(), &hints, &address) == 0 && address) {
            for (const auto& xml : messages) {
                // RFC 5424: <PRI>1 TIMESTAMP HOST APP PROCID MSGID - MSG; facility 10 (authpriv), severity 5 (notice).
                const auto message = fmt::format("<85>1 {} {} SonoLink {} IHE+RFC-3881 - {}", when, host, ::getpid(), xml);
                ::sendto(socket_, message.data(), message.size(), 0, address->ai_addr, address->ai_addrlen);  // best effort: the file is the record
            }
            ::freeaddrinfo(address);
        }
    }
    return status;
}

}  // namespace sonolink::dicom
