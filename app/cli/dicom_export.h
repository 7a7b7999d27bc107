// DicomExport: the pictures of beamformed frames (8-bit, on the display raster) collected frame
// by frame and written as one DICOM object, a US Image (one frame) or a US Multi-frame Image (a
// cine), calibrated from the raster (equal mm per pixel, the first pixel's place), optionally RGB
// with a colour depth scale burnt in and losslessly compressed. Used by `sonolink-cli beamform --dicom FILE`.
// Thread contract: one thread.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sonolink/app/dicom_setup.h"
#include "sonolink/dicom/us_image_writer.h"
#include "sonolink/image/display_raster.h"
#include "sonolink/util/result.h"

namespace sonolink::cli {

struct DicomExportOptions {
    std::string file;         // empty: no export
    std::string patientName;  // PN, UTF-8
    std::string patientId;
    std::string uidRoot;                                                       // empty: 2.25 UUID-derived UIDs
    dicom::Equipment equipment = app::equipmentFrom(config::DicomSettings{});  // the station, as the engine names it
    double frameTimeMs = 0;                                                    // cine frame time; 0: 1000 / 30
    std::string worklistFile;                                                  // `dicom worklist --json` output: the exam's patient and order
    std::size_t worklistIndex = 0;
    dicom::Compression compression = dicom::Compression::None;
    bool depthScale = false;  // RGB, with a yellow depth scale (ticks every 5 mm) on the right edge
};

// The exam's context for a new object (dicom::makeInstanceContext): the patient from the options,
// or the worklist item's exam; fresh UIDs (the worklist's Study Instance UID when it has one).
[[nodiscard]] Result<dicom::InstanceContext> makeInstanceContext(const DicomExportOptions& options);

class DicomExport {
public:
    explicit DicomExport(DicomExportOptions options) : options_(std::move(options)) {}
    [[nodiscard]] bool enabled() const noexcept { return !options_.file.empty(); }
    // pixels: the raster's rows x columns, row-major (GreyChain's levels).
    void addFrame(std::vector<std::uint8_t> pixels);
    [[nodiscard]] Status write(const image::RasterGeometry& raster) const;

private:
    DicomExportOptions options_;
    std::vector<std::vector<std::uint8_t>> frames_;
};

}  // namespace sonolink::cli
