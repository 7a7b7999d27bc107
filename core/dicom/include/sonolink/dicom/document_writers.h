// writeEncapsulatedPdf(): a PDF (the self-test QA report) as a DICOM Encapsulated PDF object;
// writeRawData(): an RF snippet as a DICOM Raw Data object, its samples in a private block that
// says what they are. Both carry the exam's Patient, Study and Equipment like its images, so a
// PACS files them with the study; UTF-8 text; Explicit VR Little Endian. DCMTK stays inside.
// Thread contract: pure functions (each writes only its own file).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sonolink/dicom/us_image_writer.h"
#include "sonolink/util/result.h"

namespace sonolink::dicom {

// context.series is the document's own series (Modality DOC).
[[nodiscard]] Status writeEncapsulatedPdf(const std::string& path, const InstanceContext& context, const std::vector<std::uint8_t>& pdf,
                                          const std::string& documentTitle);

// The private block's creator; its element xx10 holds the samples, xx11 their description.
inline constexpr const char* kRawDataPrivateCreator = "SONOLINK RF 1";

struct RawDataPayload {
    std::vector<std::uint8_t> bytes;  // e.g. int16 little-endian RF samples
    std::string description;          // e.g. "int16 LE; 2 frames x 3 waves x 64 channels x 1024 samples; fs=40 MHz"
    std::string formatVersionUid;     // Creator-Version UID: this layout's version
};

// context.series is the raw data's series (Modality US).
[[nodiscard]] Status writeRawData(const std::string& path, const InstanceContext& context, const RawDataPayload& payload);

}  // namespace sonolink::dicom
