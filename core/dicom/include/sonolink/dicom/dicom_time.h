// The local date and time now as DICOM DA (YYYYMMDD) and TM (HHMMSS) values, for study, content
// and instance creation dates. Thread contract: thread-safe (localtime_r).
#pragma once

#include <string>

namespace sonolink::dicom {

struct DicomDateTime {
    std::string date;  // YYYYMMDD
    std::string time;  // HHMMSS
};
[[nodiscard]] DicomDateTime dicomDateTimeNow();

}  // namespace sonolink::dicom
