// The beamform command's run as a function, for `beamform` and for `reprocess` (one task of a
// batch), so that both write the same bytes: the options, and beamformRecording(), which reads
// the recording, beamforms each frame asked for and writes its .npy and PNG (and the DICOM) into
// outputDir, and returns the report `beamform --json` prints. Thread contract: one call at a time
// per options; the progress callback is called on the caller's thread.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "beamform_overlay.h"
#include "dicom_export.h"
#include "sonolink/image/grey_chain.h"
#include "sonolink/util/result.h"

namespace sonolink::cli {

struct BeamformOptions {
    std::string file;
    std::string configFile;  // its archive section, for s3:// recordings
    std::string group = "/channel_data";
    std::string xRange, zRange;    // "start:stop:count" in mm
    std::string xValues, zValues;  // or the positions themselves, "v1,v2,..." in mm
    double fNumber = 1.5;
    std::string window = "rectangular";
    std::string output = "db";  // db or envelope
    double dynamicRangeDb = 60;
    double gainDb = 0;
    int frame = -1;  // -1: every frame
    std::string outputDir = ".";
    std::string name = "image";
    double iqMHz = 0;                   // > 0: demodulate at this frequency and beamform IQ
    std::string sectorR, sectorAngles;  // sector imaging: rays "start:stop:count" (mm, degrees)
    DicomExportOptions dicom;           // --dicom FILE: the frames as a US Image or a cine
    // The picture (PNG, DICOM): the display raster's box (0: as large as the grid's larger side,
    // square), TGC points in dB top to bottom, frame averaging, grey map.
    std::string displayBox;  // "COLUMNSxROWS"
    std::vector<double> tgcDb;
    double persistence = 0;
    image::GreyMap greyMap = image::GreyMap::Linear;
    ShotOverlayOptions shots;  // --overlay-shots: a dual-mode recording's laser shots laid over the B-mode
    bool json = false;
    unsigned threads = 0;  // the RF beamformer's and the envelope's (0: every core); a batch task takes 1
};

// Every frame asked for beamformed and written; progress gets one line per frame.
[[nodiscard]] Result<nlohmann::json> beamformRecording(const BeamformOptions& o, const std::function<void(const std::string&)>& progress);

}  // namespace sonolink::cli
