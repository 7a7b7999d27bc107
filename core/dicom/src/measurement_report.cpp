#include "sonolink/dicom/measurement_report.h"

#include <cmath>

#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcfilefo.h>
#include <dcmtk/dcmdata/dcuid.h>
#include <dcmtk/dcmsr/dsrdoc.h>
#include <fmt/format.h>

#include "codecs.h"
#include "dataset_puts.h"
#include "sonolink/dicom/deidentify.h"
#include "sonolink/dicom/uid_generator.h"

namespace sonolink::dicom {
namespace {

using Point = std::pair<double, double>;

DSRCodedEntryValue code(const char* value, const char* scheme, const char* meaning) { return {value, scheme, meaning}; }

// Concepts of TID 1500 / 1501 (PS3.16) and the units (UCUM).
const auto kReport = code("126000", "DCM", "Imaging Measurement Report");
const auto kLanguage = code("121049", "DCM", "Language of Content Item and Descendants");
const auto kEnglish = code("en-US", "RFC5646", "English (United States)");
const auto kObserverType = code("121005", "DCM", "Observer Type");
const auto kDevice = code("121007", "DCM", "Device");
const auto kDeviceUid = code("121012", "DCM", "Device Observer UID");
const auto kDeviceName = code("121013", "DCM", "Device Observer Name");
const auto kDeviceManufacturer = code("121014", "DCM", "Device Observer Manufacturer");
const auto kDeviceModel = code("121015", "DCM", "Device Observer Model Name");
const auto kDeviceSerial = code("121016", "DCM", "Device Observer Serial Number");
const auto kProcedureReported = code("121058", "DCM", "Procedure reported");
const auto kUltrasonography = code("16310003", "SCT", "Ultrasonography");
const auto kImageLibrary = code("111028", "DCM", "Image Library");
const auto kImageLibraryGroup = code("126200", "DCM", "Image Library Group");
const auto kImagingMeasurements = code("126010", "DCM", "Imaging Measurements");
const auto kMeasurementGroup = code("125007", "DCM", "Measurement Group");
const auto kTrackingId = code("112039", "DCM", "Tracking Identifier");
const auto kTrackingUid = code("112040", "DCM", "Tracking Unique Identifier");
const auto kLength = code("410668003", "SCT", "Length");
const auto kArea = code("42798000", "SCT", "Area");
const auto kPerimeter = code("131191004", "SCT", "Perimeter");
const auto kComment = code("121106", "DCM", "Comment");
const auto kImageRegion = code("111030", "DCM", "Image Region");
const auto kMillimetre = code("mm", "UCUM", "millimeter");
const auto kSquareMillimetre = code("mm2", "UCUM", "square millimeter");

// A point of the picture (mm) in the image's pixels (PS3.3 C.18.6.1.2: the top left corner of
// the top left pixel is 0,0, so a pixel's centre is at +0.5).
Point pixelOf(Point mm, const MeasuredImage& image) {
    return {(mm.first / 10 - image.xStartCm) / image.cmPerPixelX + 0.5, (mm.second / 10 - image.zStartCm) / image.cmPerPixelY + 0.5};
}

// The caliper's shape in pixels: an ellipse as its SCOORD wants it (the major axis' ends, then
// the minor axis' ends, the third point's distance from the major axis either side).
std::vector<Point> shapeOf(const Caliper& c, const MeasuredImage& image) {
    if (c.kind != CaliperKind::Ellipse) {
        std::vector<Point> points;
        for (const auto& p : c.pointsMm) points.push_back(pixelOf(p, image));
        return points;
    }
    const auto& a = c.pointsMm[0];
    const auto& b = c.pointsMm[1];
    const auto& m = c.pointsMm[2];
    const Point centre{(a.first + b.first) / 2, (a.second + b.second) / 2};
    const double dx = b.first - a.first, dz = b.second - a.second, major = std::hypot(dx, dz);
    const Point normal{-dz / major, dx / major};
    const double minor = std::abs((m.first - centre.first) * normal.first + (m.second - centre.second) * normal.second);
    return {pixelOf(a, image), pixelOf(b, image), pixelOf({centre.first + normal.first * minor, centre.second + normal.second * minor}, image),
            pixelOf({centre.first - normal.first * minor, centre.second - normal.second * minor}, image)};
}

// "" when the caliper can be reported, else why not (naming it).
std::string caliperProblem(const Caliper& c, const MeasuredImage& image) {
    const std::size_t needed = c.kind == CaliperKind::Distance ? 2 : c.kind == CaliperKind::Ellipse ? 3 : 1;
    if (c.label.empty()) return "a measurement has no label";
    if (c.pointsMm.size() != needed) return fmt::format("measurement {} has {} points; it needs {}", c.label, c.pointsMm.size(), needed);
    for (const double v : {c.lengthMm, c.areaMm2, c.perimeterMm}) {
        if (!std::isfinite(v) || v < 0) return fmt::format("measurement {} has a value that is not a finite length or area ({})", c.label, v);
    }
    if (c.kind == CaliperKind::Ellipse && c.pointsMm[0] == c.pointsMm[1]) return fmt::format("ellipse {} has no major axis", c.label);
    if (c.kind == CaliperKind::Ellipse) {  // its third point on the major axis' line: no minor axis
        const auto shape = shapeOf(c, image);
        if (std::hypot(shape[2].first - shape[3].first, shape[2].second - shape[3].second) < 1e-3) return fmt::format("ellipse {} has no minor axis", c.label);
    }
    if (c.kind == CaliperKind::Note && c.text.empty()) return fmt::format("note {} has no text", c.label);
    // The points the user placed lie on the image (a pixel's slack); an ellipse's minor axis may reach past it.
    for (const auto& p : c.pointsMm) {
        const auto [column, row] = pixelOf(p, image);
        if (!std::isfinite(column) || !std::isfinite(row)) return fmt::format("measurement {} has a point that is not a number", c.label);
        if (column < -1 || row < -1 || column > image.columns + 1 || row > image.rows + 1) {
            return fmt::format("measurement {} has a point ({:.1f}, {:.1f}) outside the {} x {} image", c.label, column, row, image.columns, image.rows);
        }
    }
    return {};
}

// Builds the content tree with DCMTK's SR document, whose checks refuse a relationship that
// Comprehensive SR does not allow.
class ReportTree {
public:
    explicit ReportTree(DSRDocumentTree& tree) : tree_(tree) {}

    // A content item after the current one (sibling) or below it (child), then its value.
    ReportTree& child(DSRTypes::E_RelationshipType relation, DSRTypes::E_ValueType type, const DSRCodedEntryValue& name) {
        return check(tree_.addChildContentItem(relation, type, name), name);
    }
    ReportTree& sibling(DSRTypes::E_RelationshipType relation, DSRTypes::E_ValueType type, const DSRCodedEntryValue& name) {
        return check(tree_.addContentItem(relation, type, name), name);
    }
    // An item with no name name (IMAGE, SCOORD below a value).
    ReportTree& childUnnamed(DSRTypes::E_RelationshipType relation, DSRTypes::E_ValueType type) {
        if (ok_ && tree_.addContentItem(relation, type, DSRTypes::AM_belowCurrent) == 0) setFailure("a content item below " + where());
        return *this;
    }
    ReportTree& text(const std::string& value) { return value_(tree_.getCurrentContentItem().setStringValue(value.c_str())); }
    ReportTree& coded(const DSRCodedEntryValue& value) { return value_(tree_.getCurrentContentItem().setCodeValue(value)); }
    ReportTree& number(double value, const DSRCodedEntryValue& unit) {
        return value_(tree_.getCurrentContentItem().setNumericValue(DSRNumericMeasurementValue(fmt::format("{:.3f}", value).c_str(), unit)));
    }
    ReportTree& image(const MeasuredImage& image) {
        DSRImageReferenceValue reference(image.sopClassUid.c_str(), image.sopInstanceUid.c_str());
        if (image.frameNumber > 0) reference.getFrameList().addItem(static_cast<Sint32>(image.frameNumber));
        return value_(tree_.getCurrentContentItem().setImageReference(reference));
    }
    ReportTree& coordinates(DSRTypes::E_GraphicType shape, const std::vector<Point>& points) {
        DSRSpatialCoordinatesValue value(shape);
        for (const auto& [column, row] : points) value.getGraphicDataList().addItem(static_cast<Float32>(column), static_cast<Float32>(row));
        return value_(tree_.getCurrentContentItem().setSpatialCoordinates(value));
    }
    // Back to the item named by its id (to add its next sibling).
    ReportTree& at(std::size_t id) {
        if (ok_ && tree_.gotoNode(id) != id) setFailure("content item " + std::to_string(id));
        return *this;
    }
    [[nodiscard]] std::size_t here() const { return tree_.getNodeID(); }
    [[nodiscard]] Status status() const {
        return ok_ ? Status{} : Status(sonolink::fail(ErrorCode::Internal, "cannot build the measurement report: " + error_));
    }

private:
    ReportTree& check(const OFCondition& added, const DSRCodedEntryValue& name) {
        if (ok_ && added.bad()) setFailure(fmt::format("'{}': {}", name.getCodeMeaning().c_str(), added.text()));
        return *this;
    }
    ReportTree& value_(const OFCondition& set) {
        if (ok_ && set.bad()) setFailure(fmt::format("the value of {}: {}", where(), set.text()));
        return *this;
    }
    std::string where() const { return tree_.getCurrentContentItem().getConceptName().getCodeMeaning().c_str(); }
    void setFailure(const std::string& why) {
        ok_ = false;
        error_ = why;
    }
    DSRDocumentTree& tree_;
    bool ok_ = true;
    std::string error_;
};

// The report's header: the language, the station as the observer (TID 1001, a device), the procedure.
void addHeader(ReportTree& t, const InstanceContext& c, const std::string& deviceUid) {
    t.child(DSRTypes::RT_hasConceptMod, DSRTypes::VT_Code, kLanguage).coded(kEnglish);
    t.sibling(DSRTypes::RT_hasObsContext, DSRTypes::VT_Code, kObserverType).coded(kDevice);
    t.sibling(DSRTypes::RT_hasObsContext, DSRTypes::VT_UIDRef, kDeviceUid).text(deviceUid);
    const std::pair<const DSRCodedEntryValue*, const std::string*> device[] = {{&kDeviceName, &c.equipment.stationName},
                                                                               {&kDeviceManufacturer, &c.equipment.manufacturer},
                                                                               {&kDeviceModel, &c.equipment.modelName},
                                                                               {&kDeviceSerial, &c.equipment.deviceSerialNumber}};
    for (const auto& [name, value] : device) {
        if (!value->empty()) t.sibling(DSRTypes::RT_hasObsContext, DSRTypes::VT_Text, *name).text(*value);
    }
    t.sibling(DSRTypes::RT_hasConceptMod, DSRTypes::VT_Code, kProcedureReported).coded(kUltrasonography);
}

// One value of a caliper after the current item, inferred from its shape on the image.
void addValue(ReportTree& t, const DSRCodedEntryValue& name, double value, const DSRCodedEntryValue& unit, DSRTypes::E_GraphicType shape,
              const std::vector<Point>& points, const MeasuredImage& image) {
    const auto num = t.sibling(DSRTypes::RT_contains, DSRTypes::VT_Num, name).number(value, unit).here();
    t.childUnnamed(DSRTypes::RT_inferredFrom, DSRTypes::VT_SCoord).coordinates(shape, points);
    t.childUnnamed(DSRTypes::RT_selectedFrom, DSRTypes::VT_Image).image(image);
    t.at(num);
}

// A Measurement Group (TID 1501) below (first) or after the current item: the caliper's label
// and UID, then its values.
void addGroup(ReportTree& t, const Caliper& c, const MeasuredImage& image, const UidGenerator& uids, bool first) {
    if (first) t.child(DSRTypes::RT_contains, DSRTypes::VT_Container, kMeasurementGroup);
    else t.sibling(DSRTypes::RT_contains, DSRTypes::VT_Container, kMeasurementGroup);
    const auto group = t.here();
    t.child(DSRTypes::RT_hasObsContext, DSRTypes::VT_Text, kTrackingId).text(c.label);
    t.sibling(DSRTypes::RT_hasObsContext, DSRTypes::VT_UIDRef, kTrackingUid).text(uids.next());
    const auto points = shapeOf(c, image);
    switch (c.kind) {
        case CaliperKind::Distance: addValue(t, kLength, c.lengthMm, kMillimetre, DSRTypes::GT_Polyline, points, image); break;
        case CaliperKind::Ellipse:
            addValue(t, kArea, c.areaMm2, kSquareMillimetre, DSRTypes::GT_Ellipse, points, image);
            addValue(t, kPerimeter, c.perimeterMm, kMillimetre, DSRTypes::GT_Ellipse, points, image);
            break;
        case CaliperKind::Note: {
            t.sibling(DSRTypes::RT_contains, DSRTypes::VT_Text, kComment).text(c.text);
            const auto note = t.here();
            t.childUnnamed(DSRTypes::RT_inferredFrom, DSRTypes::VT_SCoord).coordinates(DSRTypes::GT_Point, points);
            t.childUnnamed(DSRTypes::RT_selectedFrom, DSRTypes::VT_Image).image(image);
            t.at(note);
            break;
        }
    }
    t.at(group);
}

}  // namespace

Status writeMeasurementReport(const std::string& path, const InstanceContext& c, const MeasuredImage& image, const std::vector<Caliper>& calipers,
                              const UidGenerator& uids) {
    for (const auto& [uid, what] :
         {std::pair{&c.study.instanceUid, "Study Instance UID"}, std::pair{&c.series.instanceUid, "Series Instance UID"},
          std::pair{&c.sopInstanceUid, "SOP Instance UID"}, std::pair{&image.sopClassUid, "the image's SOP Class UID"},
          std::pair{&image.sopInstanceUid, "the image's SOP Instance UID"}, std::pair{&image.seriesInstanceUid, "the image's Series Instance UID"}}) {
        if (auto ok = checkUid(*uid, what); !ok) return ok;
    }
    if (calipers.empty()) return fail(ErrorCode::InvalidArgument, "a measurement report needs at least one measurement");
    if (image.rows <= 0 || image.columns <= 0 || !(image.cmPerPixelX > 0) || !(image.cmPerPixelY > 0) || !std::isfinite(image.xStartCm) ||
        !std::isfinite(image.zStartCm)) {
        return fail(ErrorCode::InvalidArgument, fmt::format("the measured image's size or calibration is not usable ({} x {} pixels, {} x {} cm each)",
                                                            image.columns, image.rows, image.cmPerPixelX, image.cmPerPixelY));
    }
    for (const auto& caliper : calipers) {
        if (auto problem = caliperProblem(caliper, image); !problem.empty()) return fail(ErrorCode::InvalidArgument, problem);
    }

    DSRDocument document(DSRTypes::DT_ComprehensiveSR);
    document.setSpecificCharacterSetType(DSRTypes::CS_UTF8);
    ReportTree t(document.getTree());
    if (document.getTree().addContentItem(DSRTypes::RT_isRoot, DSRTypes::VT_Container) == 0 ||
        document.getTree().getCurrentContentItem().setConceptName(kReport).bad() || document.getTree().setTemplateIdentification("1500", "DCMR").bad()) {
        return fail(ErrorCode::Internal, "cannot start the measurement report's content tree");
    }
    const auto root = t.here();
    addHeader(t, c,
              replacementUid("SonoLink device observer", c.equipment.manufacturer + '\0' + c.equipment.modelName + '\0' + c.equipment.deviceSerialNumber));
    const auto library = t.sibling(DSRTypes::RT_contains, DSRTypes::VT_Container, kImageLibrary).here();
    t.child(DSRTypes::RT_contains, DSRTypes::VT_Container, kImageLibraryGroup);
    t.childUnnamed(DSRTypes::RT_contains, DSRTypes::VT_Image).image(image);
    t.at(library).sibling(DSRTypes::RT_contains, DSRTypes::VT_Container, kImagingMeasurements);
    for (std::size_t i = 0; i < calipers.size(); ++i) addGroup(t, calipers[i], image, uids, i == 0);
    t.at(root);
    if (auto ok = t.status(); !ok) return ok;
    document.completeDocument();
    // The evidence: the image the report is about (PS3.3 C.17.2.3).
    if (document.getCurrentRequestedProcedureEvidence()
            .addItem(c.study.instanceUid.c_str(), image.seriesInstanceUid.c_str(), image.sopClassUid.c_str(), image.sopInstanceUid.c_str())
            .bad()) {
        return fail(ErrorCode::Internal, "cannot list the measured image as the report's evidence");
    }
    DcmFileFormat file;
    DcmDataset& ds = *file.getDataset();
    if (auto cond = document.write(ds); cond.bad()) return fail(ErrorCode::Internal, fmt::format("cannot encode the measurement report: {}", cond.text()));
    // The exam's own values over the document's defaults (its UIDs, dates, patient, equipment).
    Puts put(ds);
    putPatientStudyEquipment(put, c, UID_ComprehensiveSRStorage, "SR");
    put.string(DCM_InstanceNumber, std::to_string(c.instanceNumber))
        .string(DCM_ContentDate, c.contentDate)
        .string(DCM_ContentTime, c.contentTime)
        .string(DCM_SeriesDescription, "Measurements");
    if (auto ok = put.status(); !ok) return ok;
    return saveEncoded(file, path, Compression::None);
}

}  // namespace sonolink::dicom
