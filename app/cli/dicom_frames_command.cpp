// sonolink-cli dicom frames: a DICOM image's frames read in place (dicom::FrameSource), from a
// local file (mapped) or an s3:// object of the archive (ranged reads): its layout, how its
// frames were located, the time to the first frame and the bytes fetched, and the frames written
// out raw (--raw) or as a PNG (--png, 8-bit greyscale), with --json. A cine is reviewed without
// downloading it: each frame costs one read of its own bytes.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "exit_codes.h"
#include "sonolink/app/archive_source.h"
#include "sonolink/config/config_loader.h"
#include "sonolink/dicom/frame_source.h"
#include "sonolink/image/image_files.h"

namespace sonolink::cli {
namespace {

struct FramesOptions {
    std::string object;
    std::string configFile;
    int first = 0;
    int count = 1;
    bool all = false;
    std::string rawFile;
    std::string pngFile;
    bool json = false;
};

// Counts what is fetched, so the output shows that a frame costs its own bytes, not the object's.
class CountingSource final : public ByteSource {
public:
    explicit CountingSource(std::shared_ptr<ByteSource> inner) : inner_(std::move(inner)) {}
    std::string name() const override { return inner_->name(); }
    std::uint64_t size() const override { return inner_->size(); }
    bool remote() const override { return inner_->remote(); }
    Status read(std::uint64_t offset, std::span<std::byte> into) override {
        bytes_ += into.size();
        ++reads_;
        return inner_->read(offset, into);
    }
    std::uint64_t bytes() const { return bytes_; }
    std::uint64_t reads() const { return reads_; }

private:
    std::shared_ptr<ByteSource> inner_;
    std::atomic<std::uint64_t> bytes_{0}, reads_{0};
};

// An output that is the object itself would truncate the file being read (mapped: the read
// would fault) and lose it.
Status notTheObject(const std::string& object, const std::string& output, const char* option) {
    std::error_code ignored;
    if (!output.empty() && std::filesystem::equivalent(object, output, ignored)) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{} {} is the object being read: choose another file", option, output));
    }
    return {};
}

double secondsSince(std::chrono::steady_clock::time_point start) { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); }

// --raw to a file: written under a name of its own and renamed when whole, so that a run that
// fails leaves neither a partial file nor a damaged earlier one. To a device or a pipe:
// written straight, never removed.
struct RawFramesFile {
    std::ofstream out;
    std::string writing;  // the temporary name; empty: written straight
};

Status openRawFrames(const std::string& rawFile, RawFramesFile& raw) {
    std::error_code ignored;
    const bool special = std::filesystem::exists(rawFile, ignored) && !std::filesystem::is_regular_file(rawFile, ignored);
    if (!special) raw.writing = fmt::format("{}.sonolink-part-{}", rawFile, ::getpid());
    raw.out.open(special ? rawFile : raw.writing, std::ios::binary | std::ios::trunc);
    if (!raw.out) return fail(ErrorCode::InvalidArgument, fmt::format("cannot write {}", rawFile));
    return {};
}

// A failed run: closed, and the temporary file removed.
void abandonRawFrames(RawFramesFile& raw) {
    if (raw.out.is_open()) raw.out.close();
    if (!raw.writing.empty()) std::filesystem::remove(raw.writing);
}

// Closed (a full disk shows here at the latest), then renamed to its own name.
Status finishRawFrames(RawFramesFile& raw, const std::string& rawFile) {
    raw.out.close();  // flushes
    if (raw.out.fail()) return fail(ErrorCode::ResourceExhausted, fmt::format("writing {} failed (disk full?)", rawFile));
    std::error_code renamed;
    if (!raw.writing.empty()) std::filesystem::rename(raw.writing, rawFile, renamed);
    if (renamed) return fail(ErrorCode::InvalidArgument, fmt::format("cannot write {}: {}", rawFile, renamed.message()));
    return {};
}

// Which frames are read, and how long the object took to open, its first frame to come and the
// frames to be read.
struct FramesRead {
    std::uint32_t first = 0, count = 0;
    double openS = 0, firstFrameS = 0, readS = 0;
    std::uint64_t headerFetched = 0;  // fetched by the open: the header and the frame index
};

// Reads r.count frames from r.first: the first one to --png, each to --raw, a progress line a
// second; r's firstFrameS (from `start`, the open's) and readS set.
Status readDicomFrames(dicom::FrameSource& frames, const CountingSource& counting, const FramesOptions& o, RawFramesFile& raw, FramesRead& r,
                       std::chrono::steady_clock::time_point start) {
    const auto& f = frames.format();
    std::vector<std::byte> frame(f.frameBytes());
    auto lastProgress = std::chrono::steady_clock::now();
    const auto readStart = std::chrono::steady_clock::now();
    for (std::uint32_t k = 0; k < r.count; ++k) {
        if (auto ok = frames.readFrame(r.first + k, frame); !ok) return ok;
        if (k == 0) {
            r.firstFrameS = secondsSince(start);
            if (!o.pngFile.empty()) {
                const std::span<const std::uint8_t> grey(reinterpret_cast<const std::uint8_t*>(frame.data()), frame.size());
                if (auto ok = image::writePng(o.pngFile, grey, static_cast<std::size_t>(f.rows), static_cast<std::size_t>(f.columns)); !ok) return ok;
            }
        }
        if (raw.out.is_open() && !raw.out.write(reinterpret_cast<const char*>(frame.data()), static_cast<std::streamsize>(frame.size()))) {
            return fail(ErrorCode::ResourceExhausted, fmt::format("writing frame {} to {} failed (disk full?)", r.first + k, o.rawFile));
        }
        if (!o.json && std::chrono::steady_clock::now() - lastProgress > std::chrono::seconds(1)) {
            lastProgress = std::chrono::steady_clock::now();
            std::cerr << fmt::format("{} of {} frames, {:.1f} MB fetched\n", k + 1, r.count, counting.bytes() / 1e6);
        }
    }
    r.readS = secondsSince(readStart);
    return {};
}

void printFramesJson(const dicom::FrameSource& frames, const CountingSource& counting, const FramesOptions& o, const FramesRead& r, double fps) {
    const auto& f = frames.format();
    nlohmann::json out{{"object", o.object},
                       {"object_bytes", counting.size()},
                       {"sop_class_uid", f.sopClassUid},
                       {"transfer_syntax", f.transferSyntaxUid},
                       {"rows", f.rows},
                       {"columns", f.columns},
                       {"samples_per_pixel", f.samplesPerPixel},
                       {"bits_allocated", f.bitsAllocated},
                       {"photometric", f.photometric},
                       {"frames", f.frames},
                       {"frame_time_ms", f.frameTimeMs},
                       {"bits_stored", f.bitsStored},
                       {"pixel_spacing_mm", {f.pixelSpacingXMm, f.pixelSpacingYMm}},  // across, down; 0: not stated
                       {"first_pixel_mm", f.firstPixelXMm && f.firstPixelYMm ? nlohmann::json{*f.firstPixelXMm, *f.firstPixelYMm} : nlohmann::json()},
                       {"frame_index", dicom::frameIndexName(f.index)},
                       {"header_bytes", f.headerBytes},
                       {"open_fetched_bytes", r.headerFetched},
                       {"open_s", r.openS},
                       {"first_frame_s", r.firstFrameS},
                       {"frames_read", r.count},
                       {"first", r.first},
                       {"frames_per_s", fps},
                       {"bytes_fetched", counting.bytes()},
                       {"reads", counting.reads()}};
    for (std::uint32_t k = 0; k < r.count && k < 64; ++k) {
        auto e = frames.frameExtent(r.first + k);
        out["extents"].push_back({{"frame", r.first + k}, {"offset", e->offset}, {"length", e->length}});
    }
    std::cout << out.dump(2) << '\n';
}

void printFramesText(const dicom::FrameFormat& f, const CountingSource& counting, const FramesOptions& o, const FramesRead& r, double fps) {
    std::cout << fmt::format("{}: {} x {} x {} sample(s) of {} bits, {} frame(s), {} ({}), located by the {}\n", o.object, f.rows, f.columns, f.samplesPerPixel,
                             f.bitsAllocated, f.frames, f.transferSyntaxUid, f.photometric, dicom::frameIndexName(f.index));
    std::cout << fmt::format("opened in {:.3f} s; first frame at {:.3f} s; {} frame(s) read at {:.1f} frames/s; {} of {} bytes fetched in {} reads\n", r.openS,
                             r.firstFrameS, r.count, fps, counting.bytes(), counting.size(), counting.reads());
}

int runFrames(const FramesOptions& o) {
    auto failed = [&](const Error& e) {
        std::cerr << "sonolink-cli dicom frames: " << e.describe() << '\n';
        return exitCodeFor(e);
    };
    for (const auto& [output, option] : {std::pair{o.rawFile, "--raw"}, std::pair{o.pngFile, "--png"}}) {
        if (auto ok = notTheObject(o.object, output, option); !ok) return failed(ok.error());
    }
    auto config = config::loadConfig(o.configFile, {});  // the archive section, for s3:// objects
    if (!config) return failed(config.error());
    const auto start = std::chrono::steady_clock::now();
    auto opened = app::openSource(o.object, config->archive);
    if (!opened) return failed(opened.error());
    auto counting = std::make_shared<CountingSource>(std::move(*opened));
    auto frames = dicom::FrameSource::open(counting);
    if (!frames) return failed(frames.error());
    FramesRead r;
    r.openS = secondsSince(start);
    r.headerFetched = counting->bytes();
    const auto& f = frames->format();
    r.first = o.all ? 0 : static_cast<std::uint32_t>(o.first);
    r.count = o.all ? f.frames : static_cast<std::uint32_t>(o.count);
    if (r.first >= f.frames || r.count > f.frames - r.first) {
        return failed(Error(ErrorCode::InvalidArgument,
                            fmt::format("{}: frames {}-{} asked for, it has {} (0-{})", o.object, r.first, r.first + r.count - 1, f.frames, f.frames - 1)));
    }
    if (!o.pngFile.empty() && (f.samplesPerPixel != 1 || f.bitsAllocated != 8)) {
        return failed(Error(ErrorCode::InvalidArgument, fmt::format("--png writes 8-bit greyscale; {} has {} samples of {} bits (use --raw)", o.object,
                                                                    f.samplesPerPixel, f.bitsAllocated)));
    }
    RawFramesFile raw;
    if (!o.rawFile.empty()) {
        if (auto ok = openRawFrames(o.rawFile, raw); !ok) return failed(ok.error());
    }
    const auto failedWriting = [&](const Error& e) {
        abandonRawFrames(raw);
        return failed(e);
    };
    if (auto ok = readDicomFrames(*frames, *counting, o, raw, r, start); !ok) return failedWriting(ok.error());
    if (raw.out.is_open()) {
        if (auto ok = finishRawFrames(raw, o.rawFile); !ok) return failedWriting(ok.error());
    }
    const double fps = r.readS > 0 ? r.count / r.readS : 0;
    if (o.json) printFramesJson(*frames, *counting, o, r, fps);
    else printFramesText(f, *counting, o, r, fps);
    return kExitOk;
}

}  // namespace

void addDicomFramesCommand(CLI::App& dicom, int& exitCode) {
    auto o = std::make_shared<FramesOptions>();
    auto* cmd = dicom.add_subcommand("frames", "Read a DICOM image's frames in place (a local file or s3://bucket/key), without loading the object");
    cmd->add_option("object", o->object, "A DICOM file, or s3://bucket/key (with --config's archive section)")->required();
    cmd->add_option("--config", o->configFile, "Configuration file (JSON): its archive section reaches s3:// objects")->check(CLI::ExistingFile);
    auto* frame = cmd->add_option("--frame", o->first, "The first frame to read (from 0)")->check(CLI::NonNegativeNumber)->capture_default_str();
    auto* count = cmd->add_option("--count", o->count, "How many frames to read")->check(CLI::PositiveNumber)->capture_default_str();
    cmd->add_flag("--all", o->all, "Read every frame")->excludes(frame)->excludes(count);
    cmd->add_option("--raw", o->rawFile, "Write the frames read, decoded (rows x columns x samples, colour by pixel), one after another");
    cmd->add_option("--png", o->pngFile, "Write the first frame read as a PNG (8-bit greyscale images)");
    cmd->add_flag("--json", o->json, "Print JSON");
    cmd->callback([o, &exitCode] { exitCode = runFrames(*o); });
}

}  // namespace sonolink::cli
