// deidentifyFile(): a DICOM object de-identified by the Basic Application Level Confidentiality
// Profile (PS3.15 E.2): identifying attributes removed, emptied or replaced by a pseudonym,
// dates removed, UIDs replaced by ones derived from a key (the same key gives the same new UIDs,
// so a study stays one study across exports), private attributes removed but for SonoLink's own
// RF block (Retain Safe Private), and the method recorded (Patient Identity Removed, codes 113100
// and 113111 where it applies). Objects with burnt-in annotation (a PDF report showing the
// patient) are refused: the Basic profile does not clean pixels or documents.
// Thread contract: a pure function (writes only its output file).
#pragma once

#include <string>

#include "sonolink/util/result.h"

namespace sonolink::dicom {

struct DeidentifyOptions {
    // The new Patient's Name: a PN whose family name is the pseudonym ("ANONYMOUS^": a bare
    // "ANONYMOUS" is the retired person-name form dciodvfy warns about).
    std::string pseudonym = "ANONYMOUS^";
    std::string pseudonymId;  // the new Patient ID; empty: the pseudonym's family name
    std::string uidKey;       // secret; new UID = 2.25.<128 bits of SHA-256(key, old UID)>
};

[[nodiscard]] Status deidentifyFile(const std::string& input, const std::string& output, const DeidentifyOptions& options);

// The UID that replaces uid under key (exposed for tests and for linking exports).
[[nodiscard]] std::string replacementUid(const std::string& key, const std::string& uid);

}  // namespace sonolink::dicom
