// worklistItemFrom(): one Modality Worklist C-FIND answer (an identifier dataset the server
// sent) read into a WorklistItem, converted to UTF-8 from the character set it names. Whatever
// the server sent, missing or malformed fields read as empty: never a crash (fuzz_worklist_answer).
// Private to sonolink_dicom. Thread contract: a pure function of its dataset (which it converts).
#pragma once

#include <dcmtk/dcmdata/dcdatset.h>

#include "sonolink/dicom/worklist.h"

namespace sonolink::dicom {

WorklistItem worklistItemFrom(DcmDataset& answer);

}  // namespace sonolink::dicom
