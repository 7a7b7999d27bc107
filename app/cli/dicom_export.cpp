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

// The spacing of an evenly spaced axis in cm, or an error naming the axis.
Result<double> spacingCm(const std::vector<double>& axis, const char* name) {
    if (axis.size() < 2) return fail(ErrorCode::InvalidArgument, fmt::format("DICOM export needs at least two {} positions for its calibration", name));
    const double step = (axis.back() - axis.front()) / static_cast<double>(axis.size() - 1);
    for (std::size_t i = 1; i < axis.size(); ++i) {
        if (std::abs(axis[i] - axis[i - 1] - step) > 1e-6 * std::abs(step)) {
            return fail(ErrorCode::InvalidArgument, fmt::format("DICOM export needs evenly spaced {} positions (the calibration is one spacing)", name));
        }
    }
    return std::abs(step) * 100;
}

// Grey to RGB with a depth scale burnt in: a yellow tick on the right edge every 5 mm of depth,
// twice as long at each whole centimetre. Graphics only, no patient data (Burned In Annotation NO).
std::vector<std::uint8_t> withDepthScale(const std::vector<std::uint8_t>& grey, const beamform::PixelGrid& grid) {
    const auto columns = grid.x.size();
    std::vector<std::uint8_t> rgb;
    rgb.reserve(grey.size() * 3);
    for (auto v : grey) rgb.insert(rgb.end(), {v, v, v});
    const double stepMm = std::abs(grid.z.back() - grid.z.front()) * 1000.0 / static_cast<double>(grid.z.size() - 1);
    for (std::size_t row = 0; row < grid.z.size(); ++row) {
        const double mm = grid.z[row] * 1000.0;
        const double nearest5 = std::round(mm / 5.0) * 5.0;
        if (std::abs(mm - nearest5) > stepMm / 2) continue;  // the row nearest each 5 mm mark
        const bool wholeCm = std::fmod(std::abs(nearest5), 10.0) < 1e-9;
        const std::size_t length = std::min<std::size_t>(columns, wholeCm ? 10 : 5);
        for (std::size_t c = columns - length; c < columns; ++c) {
            auto* p = &rgb[(row * columns + c) * 3];
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

void DicomExport::addFrame(std::span<const float> db, double dynamicRangeDb) {
    std::vector<std::uint8_t> pixels;
    pixels.reserve(db.size());
    for (float v : db) pixels.push_back(static_cast<std::uint8_t>(std::lround(std::clamp((v + dynamicRangeDb) / dynamicRangeDb, 0.0, 1.0) * 255)));
    frames_.push_back(std::move(pixels));
}

Status DicomExport::write(const beamform::PixelGrid& grid) const {
    if (frames_.empty()) return fail(ErrorCode::InvalidArgument, "no frame to export");
    auto dx = spacingCm(grid.x, "x");
    auto dz = spacingCm(grid.z, "z");
    if (!dx) return fail(std::move(dx.error()));
    if (!dz) return fail(std::move(dz.error()));
    auto context = makeInstanceContext(options_);
    if (!context) return fail(std::move(context.error()));
    std::vector<dicom::BModeFrame> frames;
    for (const auto& pixels : frames_) {
        frames.push_back({static_cast<int>(grid.z.size()), static_cast<int>(grid.x.size()), options_.depthScale ? withDepthScale(pixels, grid) : pixels,
                          *dx, *dz, "ABDOMINAL", options_.depthScale ? 3 : 1});
    }
    if (frames.size() == 1) return dicom::writeUsImage(options_.file, {*context, frames.front()}, options_.compression);
    return dicom::writeUsCine(options_.file, {*context, frames, options_.frameTimeMs > 0 ? options_.frameTimeMs : 1000.0 / 30}, options_.compression);
}

}  // namespace sonolink::cli
