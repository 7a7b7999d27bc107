#include "dicom_export.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include <fmt/format.h>

#include "sonolink/dicom/dicom_time.h"
#include "sonolink/dicom/exam.h"
#include "sonolink/dicom/uid_generator.h"
#include "sonolink/dicom/us_image_writer.h"
#include "worklist_json.h"

namespace sonolink::cli {
namespace {

// Grey to RGB with a depth scale burnt in: a yellow tick on the right edge every 5 mm of depth,
// twice as long at each whole centimetre. Graphics only, no patient data (Burned In Annotation NO).
std::vector<std::uint8_t> withDepthScale(const std::vector<std::uint8_t>& grey, const image::RasterGeometry& raster) {
    const auto columns = static_cast<std::size_t>(raster.columns);
    std::vector<std::uint8_t> rgb;
    rgb.reserve(grey.size() * 3);
    for (auto v : grey) rgb.insert(rgb.end(), {v, v, v});
    const double stepMm = raster.metresPerPixel * 1000.0;
    for (int row = 0; row < raster.rows; ++row) {
        const double mm = raster.zM(row) * 1000.0;
        const double nearest5 = std::round(mm / 5.0) * 5.0;
        if (std::abs(mm - nearest5) > stepMm / 2) continue;  // the row nearest each 5 mm mark
        const bool wholeCm = std::fmod(std::abs(nearest5), 10.0) < 1e-9;
        const std::size_t length = std::min<std::size_t>(columns, wholeCm ? 10 : 5);
        for (std::size_t c = columns - length; c < columns; ++c) {
            auto* p = &rgb[(static_cast<std::size_t>(row) * columns + c) * 3];
            p[0] = 255, p[1] = 220, p[2] = 0;
        }
    }
    return rgb;
}

}  // namespace

Result<dicom::InstanceContext> makeInstanceContext(const DicomExportOptions& options) {
    auto uids = dicom::UidGenerator::create(options.uidRoot.empty() ? std::nullopt : std::optional(options.uidRoot));
    if (!uids) return fail(std::move(uids.error()));
    dicom::Exam exam;
    exam.patient = {options.patientName, options.patientId, "", ""};
    if (!options.worklistFile.empty()) {
        auto item = readWorklistItem(options.worklistFile, options.worklistIndex);
        if (!item) return fail(std::move(item.error()));
        exam = dicom::examFrom(*item);
    }
    return dicom::makeInstanceContext(exam, options.equipment, *uids, dicom::dicomDateTimeNow());
}

void DicomExport::addFrame(std::vector<std::uint8_t> pixels) { frames_.push_back(std::move(pixels)); }

Status DicomExport::write(const image::RasterGeometry& raster) const {
    if (frames_.empty()) return fail(ErrorCode::InvalidArgument, "no frame to export");
    auto context = makeInstanceContext(options_);
    if (!context) return fail(std::move(context.error()));
    const double cm = raster.metresPerPixel * 100;
    std::vector<dicom::BModeFrame> frames;
    for (const auto& pixels : frames_) {
        frames.push_back({raster.rows,
                          raster.columns,
                          options_.depthScale ? withDepthScale(pixels, raster) : pixels,
                          cm,
                          cm,
                          "ABDOMINAL",
                          options_.depthScale ? 3 : 1,
                          raster.xStartM * 100,
                          raster.zStartM * 100,
                          false,
                          {}});
    }
    if (frames.size() == 1) return dicom::writeUsImage(options_.file, {*context, frames.front()}, options_.compression);
    return dicom::writeUsCine(options_.file, {*context, frames, options_.frameTimeMs > 0 ? options_.frameTimeMs : 1000.0 / 30}, options_.compression);
}

}  // namespace sonolink::cli
