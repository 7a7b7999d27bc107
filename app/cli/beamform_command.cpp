// sonolink-cli beamform: beamform a UFF file (or a SonoLink recording, which is one) on the CPU
// reference beamformer and write the envelope or dB image as .npy [nz, nx] on the grid, and the
// picture (true proportions, TGC, grey map) as a PNG and optionally DICOM.
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <new>
#include <numbers>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "beamform_run.h"
#include "beamform_overlay.h"
#include "commands.h"
#include "dicom_export.h"
#include "exit_codes.h"
#include "sonolink/app/archive_source.h"
#include "sonolink/beamform/cpu_beamformer.h"
#include "sonolink/config/config_loader.h"
#include "sonolink/beamform/iq_beamformer.h"
#include "sonolink/beamform/sector_beamformer.h"
#include "sonolink/image/grey_chain.h"
#include "sonolink/image/image_files.h"
#include "sonolink/record/uff_reader.h"

namespace sonolink::cli {
namespace {

struct Range {
    double start, stop;
    std::size_t count;
};

// Points per grid axis: far past any display (a 4K screen is 3840 wide), and small enough that
// a grid of them cannot exhaust memory before the beamformer checks it.
constexpr long long kMaxAxisPoints = 16384;

Result<Range> parseRange(const std::string& text, const char* what) {
    Range r{};
    long long count = 0;
    char extra = 0;
    const bool parsed = std::sscanf(text.c_str(), "%lf:%lf:%lld%c", &r.start, &r.stop, &count, &extra) == 3;
    if (!parsed || !std::isfinite(r.start) || !std::isfinite(r.stop) || count < 1 || count > kMaxAxisPoints || !(r.stop >= r.start)) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("--{} '{}': expected START:STOP:COUNT, finite, START <= STOP, 1 <= COUNT <= {}", what, text, kMaxAxisPoints));
    }
    r.count = static_cast<std::size_t>(count);
    return r;
}

// One axis of the grid in metres, from --NAME-range START:STOP:COUNT or --NAME v1,v2,... (mm).
Result<std::vector<double>> parseAxis(const std::string& rangeText, const std::string& valuesText, const std::string& name) {
    if (rangeText.empty() == valuesText.empty()) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("give the {} axis as --{}-range START:STOP:COUNT or --{} v1,v2,... (mm), one of the two", name, name, name));
    }
    std::vector<double> axis;
    if (!rangeText.empty()) {
        auto r = parseRange(rangeText, (name + "-range").c_str());
        if (!r) return fail(std::move(r.error()));
        for (std::size_t i = 0; i < r->count; ++i) {
            axis.push_back(1e-3 * (r->count == 1 ? r->start : r->start + (r->stop - r->start) * static_cast<double>(i) / static_cast<double>(r->count - 1)));
        }
        return axis;
    }
    std::size_t at = 0;
    while (at <= valuesText.size()) {
        const auto comma = std::min(valuesText.find(',', at), valuesText.size());
        const auto item = valuesText.substr(at, comma - at);
        char* end = nullptr;
        const double v = std::strtod(item.c_str(), &end);
        if (item.empty() || end != item.c_str() + item.size() || !std::isfinite(v)) {
            return fail(ErrorCode::InvalidArgument, fmt::format("--{} '{}': '{}' is not a number (mm)", name, valuesText, item));
        }
        axis.push_back(v * 1e-3);
        at = comma + 1;
    }
    return axis;
}

Status checkGridAgainstData(const beamform::PixelGrid& grid, const record::UffChannelData& data, double fNumber) {
    // The deepest echo the record holds came back at its last sample, from z = c t / 2 at most;
    // a laser shot's sound travels one way, from z = c t.
    const double recordEnd = data.geometry.initialTimeS + (data.geometry.samples - 1) / data.geometry.samplingRateHz;
    const bool oneWay = data.geometry.isPhotoacoustic(0);
    const double deepest = data.geometry.soundSpeedMps * recordEnd / (oneWay ? 1 : 2);
    if (grid.z.back() > deepest) {
        return fail(
            ErrorCode::InvalidArgument,
            fmt::format("the grid reaches z = {:.2f} mm but the record ends at {:.2f} mm (initial time {:.2f} us + {} samples at {:.1f} MHz)",
                        grid.z.back() * 1e3, deepest * 1e3, data.geometry.initialTimeS * 1e6, data.geometry.samples, data.geometry.samplingRateHz / 1e6));
    }
    const auto [lo, hi] = std::minmax_element(data.geometry.elementX.begin(), data.geometry.elementX.end());
    const double reach = grid.z.back() / (2 * fNumber);
    const auto [xlo, xhi] = std::minmax_element(grid.x.begin(), grid.x.end());
    if (*xhi < *lo - reach || *xlo > *hi + reach) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("the grid's x from {:.2f} to {:.2f} mm lies outside the array ({:.2f} to {:.2f} mm) and its aperture", *xlo * 1e3, *xhi * 1e3,
                                *lo * 1e3, *hi * 1e3));
    }
    return {};
}

// "COLUMNSxROWS", each 2 to 16384; empty: side x side.
Result<std::pair<int, int>> parseBox(const std::string& text, int side) {
    if (text.empty()) return std::pair{side, side};
    const auto bad = [&] {
        return fail(ErrorCode::InvalidArgument, fmt::format("--display {}: expected COLUMNSxROWS, each 2 to {}, e.g. 512x512", text, kMaxAxisPoints));
    };
    const auto x = text.find_first_of("xX");
    if (x == std::string::npos) return bad();
    const auto number = [](std::string_view part, int& out) {
        const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), out);
        return ec == std::errc() && end == part.data() + part.size() && out >= 2 && out <= kMaxAxisPoints;
    };
    int columns = 0, rows = 0;
    if (!number(std::string_view(text).substr(0, x), columns) || !number(std::string_view(text).substr(x + 1), rows)) return bad();
    return std::pair{columns, rows};
}

// The grid from --x-range/--x and --z-range/--z, checked.
Result<beamform::PixelGrid> parseBeamformGrid(const BeamformOptions& o) {
    auto x = parseAxis(o.xRange, o.xValues, "x");
    auto z = parseAxis(o.zRange, o.zValues, "z");
    if (!x) return fail(std::move(x.error()));
    if (!z) return fail(std::move(z.error()));
    beamform::PixelGrid grid{std::move(*x), std::move(*z)};
    if (auto ok = grid.validate(); !ok) return fail(std::move(ok.error()));
    return grid;
}

// Sector imaging: the rays from --sector-r and --sector-angles, r and theta only; none without them.
Result<std::optional<beamform::SectorImage>> parseSectorRays(const BeamformOptions& o) {
    if (o.sectorR.empty() && o.sectorAngles.empty()) return std::optional<beamform::SectorImage>();
    if (o.sectorR.empty() || o.sectorAngles.empty() || o.iqMHz > 0) {
        return fail(ErrorCode::InvalidArgument, "sector imaging needs both --sector-r and --sector-angles (and no --iq)");
    }
    auto rr = parseRange(o.sectorR, "sector-r");
    auto ar = parseRange(o.sectorAngles, "sector-angles");
    if (!rr) return fail(std::move(rr.error()));
    if (!ar) return fail(std::move(ar.error()));
    const auto rays = beamform::PixelGrid::fromRanges(ar->start * std::numbers::pi / 180, ar->stop * std::numbers::pi / 180, ar->count, rr->start * 1e-3,
                                                      rr->stop * 1e-3, rr->count);
    return std::optional(beamform::SectorImage{rays.z, rays.x, {}});
}

// Where each frame goes besides its .npy: the picture chain (PNG, true proportions), the shot
// overlay (--overlay-shots), the DICOM export (--dicom), and the report (--json).
struct BeamformOutputs {
    image::GreyChain picture;
    std::unique_ptr<ShotOverlay> shotOverlay;  // null: no overlay
    DicomExport dicomExport;
    nlohmann::json report;
};

// The outputs set up, and the output folder made, before the first frame is beamformed.
Result<BeamformOutputs> openBeamformOutputs(const BeamformOptions& o, const beamform::PixelGrid& grid, const beamform::BeamformParams& params,
                                            const record::UffChannelData& data, bool sector) {
    const int side = static_cast<int>(std::max(grid.x.size(), grid.z.size()));
    auto box = parseBox(o.displayBox, side);
    if (!box) return fail(std::move(box.error()));
    auto resampler = image::displayResampler(grid.x, grid.z, box->first, box->second);
    if (!resampler) return fail(std::move(resampler.error()));
    image::GreyChain picture(std::move(*resampler), {o.tgcDb, o.gainDb, o.dynamicRangeDb, o.persistence, o.greyMap});
    std::error_code ec;
    std::filesystem::create_directories(o.outputDir, ec);
    if (ec) return fail(ErrorCode::FailedPrecondition, fmt::format("cannot create {}: {}", o.outputDir, ec.message()));
    std::unique_ptr<ShotOverlay> shotOverlay;
    if (o.shots.enabled) {
        if (o.group != "/channel_data" || data.isIq() || sector || o.iqMHz > 0) {
            return fail(ErrorCode::InvalidArgument, "--overlay-shots lays a recording's shots over its ultrasound frames (/channel_data, RF, the x/z grid)");
        }
        auto opened = ShotOverlay::open(o.file, grid, params, box->first, box->second, o.shots);  // the B-mode's box: one raster
        if (!opened) return fail(std::move(opened.error()));
        shotOverlay = std::move(*opened);
    }
    const auto& raster = picture.raster();
    nlohmann::json report{{"file", o.file},
                          {"frames", nlohmann::json::array()},
                          {"display",
                           {{"columns", raster.columns},
                            {"rows", raster.rows},
                            {"mm_per_pixel", raster.metresPerPixel * 1e3},
                            {"x_start_mm", raster.xStartM * 1e3},
                            {"z_start_mm", raster.zStartM * 1e3}}}};
    return BeamformOutputs{std::move(picture), std::move(shotOverlay), DicomExport(o.dicom), std::move(report)};
}

// One frame beamformed as its file and the options ask, its envelope on the grid.
Result<beamform::BeamformedImage> beamformOneFrame(const BeamformOptions& o, const record::UffChannelData& data, const beamform::ChannelDataView& view,
                                                   const beamform::PixelGrid& grid, const beamform::BeamformParams& params,
                                                   const std::optional<beamform::SectorImage>& sectorRays) {
    if (data.isIq()) {  // an IQ file: beamformed as IQ at its own modulation frequency
        if (sectorRays || o.iqMHz > 0) {
            return fail(ErrorCode::InvalidArgument, fmt::format("{} holds IQ data: --iq and sector imaging apply to RF files", o.file));
        }
        auto complexImage = beamform::delayAndSumIq(data.geometry, data.iqFrame(0), data.modulationFrequencyHz, grid, params, o.threads);
        if (!complexImage) return fail(std::move(complexImage.error()));
        return complexImage->magnitude();
    }
    if (sectorRays) {  // along rays, envelope along each, then onto the x/z grid
        auto sector = beamform::delayAndSumSector(view, sectorRays->r, sectorRays->theta, params);
        if (!sector) return fail(std::move(sector.error()));
        beamform::envelopeAlongRays(*sector);
        return beamform::scanConvert(*sector, grid, 0.0f);
    }
    if (o.iqMHz > 0) {  // IQ: demodulate (decimated as the band allows), beamform with phase rotation, the magnitude is the envelope
        const double fd = o.iqMHz * 1e6;
        auto complexImage = beamform::delayAndSumIq(view, fd, beamform::iqDecimation(data.geometry.samplingRateHz, fd), grid, params, o.threads);
        if (!complexImage) return fail(std::move(complexImage.error()));
        return complexImage->magnitude();
    }
    auto image = beamform::delayAndSum(view, grid, params, o.threads);
    if (!image) return image;
    beamform::envelopeAlongDepth(*image, o.threads);
    return image;
}

// Frame f's files from `base`: the .npy on the grid (for analysis), the picture as a PNG, the
// shot overlay; its picture to the DICOM export and its entry to the report.
Status writeBeamformFrame(const BeamformOptions& o, int f, double ms, const std::string& base, const beamform::BeamformedImage& beamformed,
                          BeamformOutputs& out) {
    const auto& raster = out.picture.raster();
    const auto envelope = beamformed.rowMajor();
    const auto npy = o.output == "envelope" ? envelope : beamform::logCompress(envelope, o.dynamicRangeDb, o.gainDb);  // on the grid, for analysis
    if (auto ok = image::writeNpy(base + ".npy", npy, beamformed.nz, beamformed.nx); !ok) return ok;
    std::vector<std::uint8_t> pixels(static_cast<std::size_t>(raster.rows) * static_cast<std::size_t>(raster.columns));
    out.picture.process(beamformed.columns, pixels);  // the picture, true proportions
    if (auto ok = image::writePng(base + ".png", pixels, static_cast<std::size_t>(raster.rows), static_cast<std::size_t>(raster.columns)); !ok) {
        return ok;
    }
    nlohmann::json entry{{"frame", f}, {"ms", ms}, {"npy", base + ".npy"}, {"png", base + ".png"}};
    if (out.shotOverlay) {
        auto overlay = out.shotOverlay->write(f, pixels, base);
        if (!overlay) return fail(std::move(overlay.error()));
        if (*overlay) entry["overlay_png"] = (*overlay)->png, entry["shot_frame_id"] = (*overlay)->shotFrameId;
    }
    if (out.dicomExport.enabled()) out.dicomExport.addFrame(std::move(pixels));
    out.report["frames"].push_back(std::move(entry));
    return {};
}

}  // namespace

Result<nlohmann::json> beamformRecording(const BeamformOptions& o, const std::function<void(const std::string&)>& progress) {
    auto fail1 = [](const Error& e) -> Result<nlohmann::json> { return fail(e); };
    auto parsedGrid = parseBeamformGrid(o);
    if (!parsedGrid) return fail1(parsedGrid.error());
    const auto& grid = *parsedGrid;
    // The file opened once; its first frame (or the one asked for) checks the grid; the others
    // are read one at a time, so a recording of any length fits in memory.
    auto archive = config::loadConfig(o.configFile, {});  // the archive section, for s3:// recordings
    if (!archive) return fail1(archive.error());
    auto reader = app::openRecording(o.file, archive->archive, o.group);
    if (!reader) return fail1(reader.error());
    record::UffReadOptions one{std::max(o.frame, 0), 1, 0};
    auto data = reader->read(one);
    if (!data) return fail1(data.error());
    beamform::BeamformParams params;
    params.fNumber = o.fNumber;
    params.window = o.window == "hann" ? beamform::Window::Hann : o.window == "tukey" ? beamform::Window::Tukey : beamform::Window::Rectangular;
    if (auto ok = checkGridAgainstData(grid, *data, o.fNumber); !ok) return fail1(ok.error());
    const auto sectorRays = parseSectorRays(o);
    if (!sectorRays) return fail1(sectorRays.error());
    if (data->frames == 0) return fail1(Error(ErrorCode::InvalidArgument, fmt::format("{} holds no frames", o.file)));
    auto outputs = openBeamformOutputs(o, grid, params, *data, sectorRays->has_value());
    if (!outputs) return fail1(outputs.error());
    auto& out = *outputs;
    const int first = o.frame >= 0 ? o.frame : 0, last = o.frame >= 0 ? o.frame : data->framesInFile - 1;
    for (int f = first; f <= last; ++f) {
        if (f != data->firstFrame) {
            one.firstFrame = f;
            data = reader->read(one);
            if (!data) return fail1(data.error());
        }
        auto view = data->frame(0);
        if (!view) return fail1(view.error());
        const auto start = std::chrono::steady_clock::now();
        const auto image = beamformOneFrame(o, *data, *view, grid, params, *sectorRays);
        if (!image) return fail1(image.error());
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        const auto base = (std::filesystem::path(o.outputDir) / (first == last ? o.name : fmt::format("{}_{:04d}", o.name, f))).string();
        if (auto ok = writeBeamformFrame(o, f, ms, base, *image, out); !ok) return fail1(ok.error());
        if (progress)
            progress(fmt::format("frame {}: {:.1f} ms ({} x {} pixels, {} channels, {} waves) -> {}.npy, {}.png", f, ms, image->nx, image->nz,
                                 data->geometry.channels, data->geometry.waves, base, base));
    }
    if (out.dicomExport.enabled()) {
        if (auto ok = out.dicomExport.write(out.picture.raster()); !ok) return fail1(ok.error());
        out.report["dicom"] = o.dicom.file;
        if (progress) progress(fmt::format("DICOM: {}", o.dicom.file));
    }
    return std::move(out.report);
}

namespace {

int runBeamform(const BeamformOptions& o) {
    auto report = beamformRecording(
        o, o.json ? std::function<void(const std::string&)>() : [](const std::string& line) { std::cout << line << '\n'; });
    if (!report) {
        std::cerr << "sonolink-cli beamform: " << report.error().describe() << '\n';
        return kExitFailed;
    }
    if (o.json) std::cout << report->dump(2) << '\n';
    return kExitOk;
}

// Dual mode's overlay: how the shots are laid over the B-mode (--overlay-shots and its levels).
void addBeamformShotOptions(CLI::App& command, BeamformOptions& options) {
    command.add_flag("--overlay-shots", options.shots.enabled,
                     "A dual-mode recording: each ultrasound frame with the last laser shot before it laid over it in colour, <name>_overlay.png");
    command.add_option("--shot-dynamic-range", options.shots.dynamicRangeDb, "With --overlay-shots: the shots' dynamic range (dB)")
        ->check(CLI::Range(10.0, 120.0))
        ->capture_default_str();
    command.add_option("--shot-gain", options.shots.gainDb, "With --overlay-shots: the shots' gain (dB)")
        ->check(CLI::Range(-60.0, 60.0))
        ->capture_default_str();
    command.add_option("--shot-threshold", options.shots.threshold, "With --overlay-shots: below this fraction of the colour scale, not drawn")
        ->check(CLI::Range(0.0, 1.0))
        ->capture_default_str();
    command.add_option("--shot-opacity", options.shots.opacity, "With --overlay-shots: the colour's opacity")
        ->check(CLI::Range(0.0, 1.0))
        ->capture_default_str();
    command.add_option("--shot-map", options.shots.map, "With --overlay-shots: hot or iron")->check(CLI::IsMember({"hot", "iron"}))->capture_default_str();
}

// --dicom and what the DICOM object names: the patient, the order, UIDs, compression, frame time.
void addBeamformDicomOptions(CLI::App& command, BeamformOptions& options) {
    command.add_option("--dicom", options.dicom.file, "Also write the pictures (as the PNG) as a DICOM US Image, or a US Multi-frame cine for several frames");
    command.add_option("--patient-name", options.dicom.patientName, "With --dicom: the patient's name (DICOM PN, UTF-8)");
    command.add_option("--patient-id", options.dicom.patientId, "With --dicom: the patient ID");
    command.add_option("--uid-root", options.dicom.uidRoot, "With --dicom: the organisation's UID root (default: 2.25 UUID-derived UIDs)");
    command.add_option("--dicom-compression", options.dicom.compression, "With --dicom: none, rle or jpeg-ls (lossless)")
        ->transform(CLI::CheckedTransformer(std::map<std::string, dicom::Compression>{
            {"none", dicom::Compression::None}, {"rle", dicom::Compression::Rle}, {"jpeg-ls", dicom::Compression::JpegLs}}));
    command.add_flag("--depth-scale", options.dicom.depthScale, "With --dicom: RGB with a colour depth scale burnt in (ticks every 5 mm)");
    command.add_option("--worklist", options.dicom.worklistFile, "With --dicom: the exam's patient and order from `dicom worklist --json` output")
        ->check(CLI::ExistingFile);
    command.add_option("--worklist-index", options.dicom.worklistIndex, "With --worklist: which item (default 0)");
    command.add_option("--frame-time-ms", options.dicom.frameTimeMs, "With --dicom and several frames: the cine's frame time in ms (default 33.3)")
        ->check(CLI::Range(0.1, 100000.0));
}

}  // namespace

void addBeamformCommand(CLI::App& app, int& exitCode) {
    auto o = std::make_shared<BeamformOptions>();
    auto* cmd = app.add_subcommand("beamform", "Beamform a UFF file (plane waves) into an envelope or dB image: .npy [nz, nx] and PNG");
    cmd->add_option("FILE", o->file, "UFF file (HDF5) with a channel_data group, or s3://bucket/key read in place (only the ranges each frame needs)")
        ->required();
    cmd->add_option("--config", o->configFile, "Configuration file (JSON): its archive section reaches s3:// recordings")->check(CLI::ExistingFile);
    cmd->add_option("--group", o->group, "The channel_data group in the file")->capture_default_str();
    cmd->add_option("--x-range", o->xRange, "Lateral grid START:STOP:COUNT in mm");
    cmd->add_option("--z-range", o->zRange, "Depth grid START:STOP:COUNT in mm");
    cmd->add_option("--x", o->xValues, "Lateral grid positions v1,v2,... in mm (instead of --x-range)");
    cmd->add_option("--z", o->zValues, "Depths v1,v2,... in mm, increasing (instead of --z-range)");
    cmd->add_option("--f-number", o->fNumber, "Receive F-number")->check(CLI::Range(0.1, 20.0))->capture_default_str();
    cmd->add_option("--window", o->window, "rectangular, hann or tukey")->check(CLI::IsMember({"rectangular", "hann", "tukey"}))->capture_default_str();
    cmd->add_option("--output", o->output, "What the .npy holds: db or envelope")->check(CLI::IsMember({"db", "envelope"}))->capture_default_str();
    cmd->add_option("--dynamic-range", o->dynamicRangeDb, "dB shown (PNG, dB image)")->check(CLI::Range(1.0, 200.0))->capture_default_str();
    cmd->add_option("--gain", o->gainDb, "dB added before clipping")->check(CLI::Range(-200.0, 200.0))->capture_default_str();
    addBeamformShotOptions(*cmd, *o);
    cmd->add_option("--frame", o->frame, "Only this frame (default: every frame)")->check(CLI::NonNegativeNumber);
    cmd->add_option("--output-dir", o->outputDir, "Where the files go")->capture_default_str();
    cmd->add_option("--name", o->name, "Base name of the files")->capture_default_str();
    cmd->add_option("--sector-r", o->sectorR, "Sector imaging: ray depths START:STOP:COUNT in mm from the array's centre");
    cmd->add_option("--sector-angles", o->sectorAngles, "Sector imaging: ray angles START:STOP:COUNT in degrees (then scan-converted onto the x/z grid)");
    addBeamformDicomOptions(*cmd, *o);
    cmd->add_option("--display", o->displayBox,
                    "The picture's box COLUMNSxROWS (PNG, DICOM): the largest raster with equal mm per pixel "
                    "that fits it (default: the grid's larger side, square)");
    cmd->add_option("--tgc", o->tgcDb,
                    "Time-gain compensation: dB at points spread evenly from the top of the picture to its bottom, "
                    "joined smoothly (PNG, DICOM)")
        ->delimiter(',')
        ->check(CLI::Range(-40.0, 40.0));
    cmd->add_option("--persistence", o->persistence, "Frame averaging over several frames: the weight of the picture before (0: off)")
        ->check(CLI::Range(0.0, 0.95))
        ->capture_default_str();
    cmd->add_option("--grey-map", o->greyMap, "linear, soft (low echoes lifted) or contrast (S-curve)")
        ->transform(CLI::CheckedTransformer(
            std::map<std::string, image::GreyMap>{{"linear", image::GreyMap::Linear}, {"soft", image::GreyMap::Soft}, {"contrast", image::GreyMap::Contrast}}));
    cmd->add_option("--iq", o->iqMHz, "Demodulate at this frequency (MHz) and beamform IQ with phase rotation")->check(CLI::Range(0.01, 1000.0));
    cmd->add_option("--threads", o->threads, "Threads of the RF beamformer and envelope (0: every core; the same bits either way)");
    cmd->add_flag("--json", o->json, "Print JSON");
    cmd->callback([o, &exitCode] {
        try {
            exitCode = runBeamform(*o);
        } catch (const std::bad_alloc&) {  // a legal grid can still need more than this process may have
            std::cerr << fmt::format(
                "sonolink-cli beamform: out of memory: the grid (--x-range/--x by --z-range/--z) and the picture "
                "(--display) need more memory than this process may have; ask for fewer points\n");
            exitCode = kExitFailed;
        }
    });
}

}  // namespace sonolink::cli
