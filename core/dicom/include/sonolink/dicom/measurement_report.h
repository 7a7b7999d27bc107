// writeMeasurementReport(): the calipers a user placed on one exported image, as a DICOM
// Comprehensive SR following TID 1500 (Imaging Measurement Report): one Measurement Group
// (TID 1501) per caliper, named by its label on the image (Tracking Identifier) and a UID; its
// values as NUM in UCUM units (Length mm; Area mm2 and Perimeter mm for an ellipse), each inferred
// from the SCOORD drawn on the referenced image (POLYLINE, ELLIPSE; a note: TEXT at a POINT).
// Carries the exam's Patient, Study and Equipment. DCMTK stays inside. Thread contract: pure.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "sonolink/dicom/uid_generator.h"
#include "sonolink/dicom/us_image_writer.h"
#include "sonolink/util/result.h"

namespace sonolink::dicom {

// The image the measurements were made on, and its pixel calibration (as written in its US
// Region Calibration), to place the calipers in its pixels.
struct MeasuredImage {
    std::string sopClassUid;  // e.g. Ultrasound Image Storage
    std::string sopInstanceUid;
    std::string seriesInstanceUid;
    int frameNumber = 0;  // in a multi-frame object (1-based); 0: a single frame
    int rows = 0;
    int columns = 0;
    double cmPerPixelX = 0;  // lateral
    double cmPerPixelY = 0;  // depth
    double xStartCm = 0;     // the first pixel's centre, lateral and in depth
    double zStartCm = 0;
};

enum class CaliperKind { Distance, Ellipse, Note };

struct Caliper {
    CaliperKind kind = CaliperKind::Distance;
    std::string label;                                // "D1", "A1", "T1": as the image shows it
    std::vector<std::pair<double, double>> pointsMm;  // (lateral, depth); Distance 2, Ellipse 3 (major axis' ends, minor's end), Note 1
    double lengthMm = 0;                              // Distance
    double areaMm2 = 0, perimeterMm = 0;              // Ellipse
    std::string text;                                 // Note
};

// context.series is the report's own series (Modality SR); context.study is the image's study;
// uids makes the calipers' Tracking UIDs. InvalidArgument names the caliper (label) with a
// missing point, a non-finite or negative value, or a point outside the image; DataLoss when
// the file cannot be written.
[[nodiscard]] Status writeMeasurementReport(const std::string& path, const InstanceContext& context, const MeasuredImage& image,
                                            const std::vector<Caliper>& calipers, const UidGenerator& uids);

}  // namespace sonolink::dicom
