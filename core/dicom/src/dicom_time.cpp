#include "sonolink/dicom/dicom_time.h"

#include <ctime>

namespace sonolink::dicom {

DicomDateTime dicomDateTimeNow() {
    const auto now = std::time(nullptr);
    std::tm local{};
    ::localtime_r(&now, &local);
    char date[16], time[16];
    std::strftime(date, sizeof date, "%Y%m%d", &local);
    std::strftime(time, sizeof time, "%H%M%S", &local);
    return {date, time};
}

}  // namespace sonolink::dicom
