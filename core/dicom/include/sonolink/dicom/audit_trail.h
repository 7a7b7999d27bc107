// AuditTrail: who did what with which patient's data, when and where, as DICOM audit messages
// (PS3.15 A.5, the IHE ATNA schema): instances transferred to a PACS (110104), exported to files
// (110106), worklist queries (110112), an engineer's override of a safety check (110113 Security
// Alert, 110127 Emergency Override: who, why, what it overrode) or change of its policy (110113,
// 110129 Security Configuration), each with its outcome (0 success, 4 minor, 8 serious
// failure) and one patient per message. Messages go, one per line, to an append-only file that
// is also the buffer when the audit repository is down, and optionally to a syslog collector
// (RFC 5424 over UDP, MSGID IHE+RFC-3881). The audit trail is the one place that names the
// patient; ordinary logs do not. Thread contract: record() is thread-safe.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sonolink/dicom/pacs_client.h"
#include "sonolink/util/result.h"

namespace sonolink::dicom {

enum class AuditEventKind { InstancesTransferred, Export, Query, EmergencyOverride, SecurityConfiguration };
enum class AuditOutcome { Success = 0, MinorFailure = 4, SeriousFailure = 8 };

struct AuditEvent {
    AuditEventKind kind = AuditEventKind::InstancesTransferred;
    AuditOutcome outcome = AuditOutcome::Success;
    std::string outcomeDescription;  // the failure, in words
    std::string localAeTitle;        // this station
    std::string remoteAeTitle;       // the PACS or worklist server (transfer, query)
    std::string remoteHost;
    std::string destination;  // export: the directory or medium written
    std::string patientId;    // one patient per message
    std::string patientName;
    std::string studyInstanceUid;
    std::vector<std::pair<std::string, int>> sopClasses;  // SOP Class UID, number of instances
    std::string query;                                    // worklist: the query keys, in words
    std::string alertSubject;                             // override: what was overridden ("start-up self-test")
    std::string alertDescription;                         // override: the reason given and what it overrode
};

struct AuditSettings {
    std::string file;        // empty: no file
    std::string syslogHost;  // empty: no syslog
    int syslogPort = 514;
    std::string auditSourceId = "SONOLINK";
};

// The XML of one message (no line breaks), at the given time (ISO 8601 with offset).
[[nodiscard]] std::string auditMessageXml(const AuditEvent& event, const std::string& userId, const std::string& hostName, const std::string& auditSourceId,
                                          const std::string& dateTime);

// One attempt to send an object: no error (stored), or why not and whether a retry can help.
struct TransferAttempt {
    ObjectInfo object;
    std::optional<Error> error;
    bool retryable = true;
};
// The 110104 messages for attempts to send to node: one per patient, study and outcome.
[[nodiscard]] std::vector<AuditEvent> transferEvents(const std::string& localAeTitle, const PacsNode& node, const std::vector<TransferAttempt>& attempts);

// One object written to a file or medium: it, and why not if it was not written.
struct ExportAttempt {
    ObjectInfo object;  // read before the export (the patient whose data it is)
    std::optional<Error> error;
    bool deidentified = false;
};
// The 110106 messages for objects exported to destination: one per patient and study; a
// failure of any of them makes that message's outcome a serious failure, with the reason.
[[nodiscard]] std::vector<AuditEvent> exportEvents(const std::string& localAeTitle, const std::string& destination, const std::vector<ExportAttempt>& attempts);

// The 110112 message for a worklist query: who asked which server for what, and how it went (a
// query names no patient).
[[nodiscard]] AuditEvent queryEvent(const std::string& localAeTitle, const PacsNode& node, const std::string& query, const std::optional<Error>& failure,
                                    std::size_t items);

// The 110113 (110127 Emergency Override) message for an override of subject: the reason the
// engineer gave and what it let through (the user is the audit trail's own: the station user).
[[nodiscard]] AuditEvent overrideEvent(const std::string& localAeTitle, const std::string& subject, const std::string& reason, const std::string& overridden);

// The 110113 (110129 Security Configuration) message for a change of a setting that affects
// safety (the start-up self-test's policy): its subject, what changed and the reason given.
[[nodiscard]] AuditEvent configurationChangeEvent(const std::string& localAeTitle, const std::string& subject, const std::string& change,
                                                  const std::string& reason);

class AuditTrail {
public:
    explicit AuditTrail(AuditSettings settings);
    ~AuditTrail();
    AuditTrail(const AuditTrail&) = delete;
    AuditTrail& operator=(const AuditTrail&) = delete;

    // Appends the message to the file (and syslog); an error names the file (the caller logs it
    // without the patient: an audit failure must not stop the work it audits).
    [[nodiscard]] Status record(const AuditEvent& event) { return record(std::vector<AuditEvent>{event}); }
    // Several messages, made durable together (one fsync).
    [[nodiscard]] Status record(const std::vector<AuditEvent>& events);

private:
    AuditSettings settings_;
    std::mutex mutex_;
    int socket_ = -1;
};

}  // namespace sonolink::dicom
