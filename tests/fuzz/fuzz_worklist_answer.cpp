// libFuzzer target: one Modality Worklist answer as a worklist server sends it (an identifier
// dataset in Explicit VR Little Endian, read the way DIMSE reads a C-FIND response), then read
// into a WorklistItem with its character set converted: a clear refusal or an item, never a
// crash. Seeds: answers in UTF-8, Latin-1, ISO 2022 (Japanese) and with no character set.
#include <dcmtk/dcmdata/dcdatset.h>
#include <dcmtk/dcmdata/dcistrmb.h>

#include <cstddef>
#include <cstdint>

#include "worklist_answer.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    DcmInputBufferStream in;
    in.setBuffer(data, static_cast<offile_off_t>(size));
    in.setEos();
    DcmDataset answer;
    answer.transferInit();
    const OFCondition read = answer.read(in, EXS_LittleEndianExplicit, EGL_withoutGL);
    answer.transferEnd();
    if (read.bad()) return 0;  // DIMSE refuses the response: the query fails with the reason
    (void)sonolink::dicom::worklistItemFrom(answer);
    return 0;
}
