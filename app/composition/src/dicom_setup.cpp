#include "sonolink/app/dicom_setup.h"

#include <fmt/format.h>

#include "sonolink/util/build_info.h"

namespace sonolink::app {

dicom::AssociationSettings associationFrom(const config::DicomSettings& d) {
    dicom::AssociationSettings s;
    s.callingAeTitle = d.stationAeTitle;
    s.dimseTimeoutS = d.dimseTimeoutS;
    s.tls = {d.tls.certificate, d.tls.privateKey, d.tls.trustedCertificates};
    return s;
}

dicom::ForwarderSettings forwarderFrom(const config::DicomSettings& d) {
    dicom::ForwarderSettings s;
    s.association = associationFrom(d);
    s.retentionS = d.queueRetentionDays * 86400;
    for (const auto& n : d.nodes) s.destinations.push_back({n.name, {n.aeTitle, n.host, n.port, n.tls}, n.storageCommitment});
    return s;
}

dicom::RetryPolicy retryPolicyFrom(const config::DicomSettings& d) {
    dicom::RetryPolicy p;
    p.initialDelayS = d.retryInitialS;
    p.maxDelayS = d.retryMaxS;
    p.commitmentTimeoutS = d.commitmentTimeoutS;
    return p;
}

dicom::AuditSettings auditFrom(const config::DicomSettings& d) { return {d.auditFile, d.auditSyslogHost, d.auditSyslogPort, d.stationAeTitle}; }

Result<dicom::Destination> destinationNamed(const config::DicomSettings& d, const std::string& name) {
    std::string names;
    for (const auto& destination : forwarderFrom(d).destinations) {
        if (destination.name == name) return destination;
        names += (names.empty() ? "" : ", ") + destination.name;
    }
    return fail(ErrorCode::NotFound, fmt::format("no PACS node named '{}' is configured ({})", name, names.empty() ? "none are" : "configured: " + names));
}

dicom::Equipment equipmentFrom(const config::DicomSettings& dicom) {
    return {"SonoLink", "SonoLink Workstation", dicom.deviceSerialNumber, buildInfo().version, dicom.stationAeTitle};
}

}  // namespace sonolink::app
