// From configuration to the DICOM module's settings: the PACS destinations (nodes, TLS,
// storage commitment), the association timeouts and identity, and the store-and-forward retry
// policy. The composition root owns this mapping; core/dicom never sees AppConfig.
// Thread contract: pure functions.
#pragma once

#include <string>

#include "sonolink/config/app_config.h"
#include "sonolink/dicom/audit_trail.h"
#include "sonolink/dicom/store_forwarder.h"
#include "sonolink/dicom/store_queue.h"
#include "sonolink/dicom/us_image_writer.h"

namespace sonolink::app {

[[nodiscard]] dicom::AssociationSettings associationFrom(const config::DicomSettings& dicom);
[[nodiscard]] dicom::ForwarderSettings forwarderFrom(const config::DicomSettings& dicom);
[[nodiscard]] dicom::RetryPolicy retryPolicyFrom(const config::DicomSettings& dicom);
[[nodiscard]] dicom::AuditSettings auditFrom(const config::DicomSettings& dicom);
// This station as every object names it: SonoLink, the model, the serial number, the software
// version and the station's AE title as Station Name.
[[nodiscard]] dicom::Equipment equipmentFrom(const config::DicomSettings& dicom);
// The configured node called name; NotFound listing the configured names otherwise.
[[nodiscard]] Result<dicom::Destination> destinationNamed(const config::DicomSettings& dicom, const std::string& name);

}  // namespace sonolink::app
