// Puts: a chain of DCMTK attribute puts that keeps the first failure, naming the attribute; and
// putPatientStudyEquipment(): the SOP Common, Patient, General Study, General Series and General
// Equipment attributes every object of an exam carries. Private to sonolink_dicom.
// Thread contract: one dataset per Puts, one thread.
#pragma once

#include <string>

#include <dcmtk/dcmdata/dcitem.h>

#include "sonolink/dicom/us_image_writer.h"
#include "sonolink/util/result.h"

namespace sonolink::dicom {

class Puts {
public:
    explicit Puts(DcmItem& item) : item_(item) {}
    Puts& string(const DcmTagKey& tag, const std::string& value) { return check(item_.putAndInsertString(tag, value.c_str()), tag); }
    Puts& u16(const DcmTagKey& tag, Uint16 value) { return check(item_.putAndInsertUint16(tag, value), tag); }
    Puts& u32(const DcmTagKey& tag, Uint32 value) { return check(item_.putAndInsertUint32(tag, value), tag); }
    Puts& s32(const DcmTagKey& tag, Sint32 value) { return check(item_.putAndInsertSint32(tag, value), tag); }
    Puts& f64(const DcmTagKey& tag, Float64 value) { return check(item_.putAndInsertFloat64(tag, value), tag); }
    Puts& tagKey(const DcmTagKey& tag, const DcmTagKey& value) { return check(item_.putAndInsertTagKey(tag, value), tag); }
    [[nodiscard]] Status status() const { return status_; }

private:
    Puts& check(const OFCondition& condition, const DcmTagKey& tag);
    DcmItem& item_;
    Status status_;
};

// SOP Common (UTF-8), Patient, General Study, General Series (the given modality) and General
// Equipment, from the exam's context.
void putPatientStudyEquipment(Puts& put, const InstanceContext& c, const char* sopClassUid, const char* modality);

}  // namespace sonolink::dicom
