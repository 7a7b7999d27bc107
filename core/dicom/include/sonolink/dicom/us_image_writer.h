// writeUsImage() / writeUsCine(): B-mode frames as a DICOM Ultrasound Image (single frame) or
// Ultrasound Multi-frame Image (cine, with Cine and Multi-frame modules), 8-bit MONOCHROME2 (RGB
// where colour overlays are burnt in), with the Patient, General Study, General Series, General
// Equipment, General Image, Image Pixel, US Region Calibration (physical deltas in cm, so viewers
// measure in mm), US Image and SOP Common modules; UTF-8 text (ISO_IR 192); Explicit VR Little
// Endian, or lossless RLE / JPEG-LS. DCMTK stays inside. Thread contract: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sonolink/util/result.h"

namespace sonolink::dicom {

struct Patient {
    std::string name;  // PN, UTF-8, e.g. "Wang^Xiaoming=王^小明"
    std::string id;
    std::string birthDate;  // YYYYMMDD or empty
    std::string sex;        // M, F, O or empty
};

struct Study {
    std::string instanceUid;
    std::string id;
    std::string accessionNumber;
    std::string date;  // YYYYMMDD
    std::string time;  // HHMMSS
    std::string referringPhysician;
    std::string description;
};

struct Series {
    std::string instanceUid;
    int number = 1;
    std::string bodyPartExamined = "ABDOMEN";
    std::string description;  // Series Description (LO, 64 characters); empty: not written
};

// The order an exam fulfils (from the worklist): written as the Request Attributes Sequence
// when a requested procedure or scheduled step is named.
struct RequestAttributes {
    std::string requestedProcedureId;
    std::string requestedProcedureDescription;
    std::string scheduledProcedureStepId;
    std::string scheduledProcedureStepDescription;
};

struct Equipment {
    std::string manufacturer = "SonoLink";
    std::string modelName;
    std::string deviceSerialNumber;
    std::string softwareVersions;
    std::string stationName;
};

struct BModeFrame {
    int rows = 0;
    int columns = 0;
    std::vector<std::uint8_t> pixels;           // rows x columns, row-major (depth down the rows)
    double cmPerPixelX = 0;                     // lateral
    double cmPerPixelY = 0;                     // depth
    std::string imageTypeValue3 = "ABDOMINAL";  // the exam's defined term (PS3.3 C.8.5.6.1.1)
    int samplesPerPixel = 1;                    // 1: MONOCHROME2; 3: RGB, pixel-interleaved (R, G, B per pixel)
    double xStartCm = 0;                        // where the first pixel's centre lies: lateral (0 under the array's centre)
    double zStartCm = 0;                        // and depth from the array's face (the region's reference pixel)
    bool burnedInAnnotation = false;            // text or marks drawn into the pixels (Burned In Annotation YES)
    // Pixels derived from more than the acquisition shows in grey (a photoacoustic overlay): Image
    // Type DERIVED\SECONDARY and this Derivation Description (empty: ORIGINAL\PRIMARY).
    std::string derivation;
};

// What every object of an exam carries besides its pixels.
struct InstanceContext {
    Patient patient;
    Study study;
    Series series;
    Equipment equipment;
    RequestAttributes request;
    std::string sopInstanceUid;
    int instanceNumber = 1;
    std::string contentDate;  // YYYYMMDD
    std::string contentTime;  // HHMMSS
};

struct UsImageObject {
    InstanceContext context;
    BModeFrame frame;
};

// A cine loop: frames of one size and calibration, acquired frameTimeMs apart.
struct UsCineObject {
    InstanceContext context;
    std::vector<BModeFrame> frames;
    double frameTimeMs = 0;
};

// Lossless encodings of the pixel data: RLE (in the STD-US media profile) or JPEG-LS.
enum class Compression { None, Rle, JpegLs };
[[nodiscard]] std::string transferSyntaxUid(Compression compression);

// InvalidArgument naming the bad field (sizes, UIDs, calibration); DataLoss if the file cannot be
// written.
[[nodiscard]] Status writeUsImage(const std::string& path, const UsImageObject& object, Compression compression = Compression::None);
// The same as an Ultrasound Multi-frame Image with the Cine and Multi-frame modules (Frame
// Increment Pointer to Frame Time, Cine Rate).
[[nodiscard]] Status writeUsCine(const std::string& path, const UsCineObject& object, Compression compression = Compression::None);

}  // namespace sonolink::dicom
