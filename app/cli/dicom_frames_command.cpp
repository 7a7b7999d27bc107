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
    const double openS = secondsSince(start);
    const std::uint64_t headerFetched = counting->bytes();
    const auto& f = frames->format();
    const std::uint32_t firstFrame = o.all ? 0 : static_cast<std::uint32_t>(o.first);
    const std::uint32_t count = o.all ? f.frames : static_cast<std::uint32_t>(o.count);
    if (firstFrame >= f.frames || count > f.frames - firstFrame) {
        return failed(Error(ErrorCode::InvalidArgument, fmt::format("{}: frames {}-{} asked for, it has {} (0-{})", o.object, firstFrame, firstFrame + count - 1, f.frames, f.frames - 1)));
    }
    if (!o.pngFile.empty() && (f.samplesPerPixel != 1 || f.bitsAllocated != 8)) {
        return failed(Error(ErrorCode::InvalidArgument, fmt::format("--png writes 8-bit greyscale; {} has {} samples of {} bits (use --raw)", o.object, f.samplesPerPixel,
                                                                    f.bitsAllocated)));
    }
    // --raw to a file: written under a name of its own and renamed when whole, so that a run that
    // fails leaves neither a partial file nor a damaged earlier one. To a device or a pipe:
    // written straight, never removed.
    std::ofstream raw;
    std::string rawWriting;  // the temporary name; empty: written straight
    if (!o.rawFile.empty()) {
        std::error_code ignored;
        const bool special = std::filesystem::exists(o.rawFile, ignored) && !std::filesystem::is_regular_file(o.rawFile, ignored);
        if (!special) rawWriting = fmt::format("{}.sonolink-part-{}", o.rawFile, ::getpid());
        raw.open(special ? o.rawFile : rawWriting, std::ios::binary | std::ios::trunc);
        if (!raw) return failed(Error(ErrorCode::InvalidArgument, fmt::format("cannot write {}", o.rawFile)));
    }
    const auto failedWriting = [&](const Error& e) {
        if (raw.is_open()) raw.close();
        if (!rawWriting.empty()) std::filesystem::remove(rawWriting);
        return failed(e);
    };
    std::vector<std::byte> frame(f.frameBytes());
    double firstFrameS = 0;
    auto lastProgress = std::chrono::steady_clock::now();
    const auto readStart = std::chrono::steady_clock::now();
    for (std::uint32_t k = 0; k < count; ++k) {
        if (auto ok = frames->readFrame(firstFrame + k, frame); !ok) return failedWriting(ok.error());
        if (k == 0) {
            firstFrameS = secondsSince(start);
            if (!o.pngFile.empty()) {
                const std::span<const std::uint8_t> grey(reinterpret_cast<const std::uint8_t*>(frame.data()), frame.size());
                if (auto ok = image::writePng(o.pngFile, grey, static_cast<std::size_t>(f.rows), static_cast<std::size_t>(f.columns)); !ok) return failedWriting(ok.error());
            }
        }
        if (raw.is_open() && !raw.write(reinterpret_cast<const char*>(frame.data()), static_cast<std::streamsize>(frame.size()))) {
            return failedWriting(Error(ErrorCode::ResourceExhausted, fmt::format("writing frame {} to {} failed (disk full?)", firstFrame + k, o.rawFile)));
        }
        if (!o.json && std::chrono::steady_clock::now() - lastProgress > std::chrono::seconds(1)) {
            lastProgress = std::chrono::steady_clock::now();
            std::cerr << fmt::format("{} of {} frames, {:.1f} MB fetched\n", k + 1, count, counting->bytes() / 1e6);
        }
    }
    const double readS = secondsSince(readStart);
    if (raw.is_open()) {
        raw.close();  // flushes: a full disk shows here at the latest
        if (raw.fail()) return failedWriting(Error(ErrorCode::ResourceExhausted, fmt::format("writing {} failed (disk full?)", o.rawFile)));
        std::error_code renamed;
        if (!rawWriting.empty()) std::filesystem::rename(rawWriting, o.rawFile, renamed);
        if (renamed) return failedWriting(Error(ErrorCode::InvalidArgument, fmt::format("cannot write {}: {}", o.rawFile, renamed.message())));
    }
    const double fps = readS > 0 ? count / readS : 0;
    if (o.json) {
        nlohmann::json out{{"object", o.object},
                           {"object_bytes", counting->size()},
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
                           {"open_fetched_bytes", headerFetched},
                           {"open_s", openS},
                           {"first_frame_s", firstFrameS},
                           {"frames_read", count},
                           {"first", firstFrame},
                           {"frames_per_s", fps},
                           {"bytes_fetched", counting->bytes()},
                           {"reads", counting->reads()}};
        for (std::uint32_t k = 0; k < count && k < 64; ++k) {
            auto e = frames->frameExtent(firstFrame + k);
            out["extents"].push_back({{"frame", firstFrame + k}, {"offset", e->offset}, {"length", e->length}});
        }
        std::cout << out.dump(2) << '\n';
    } else {
        std::cout << fmt::format("{}: {} x {} x {} sample(s) of {} bits, {} frame(s), {} ({}), located by the {}\n", o.object, f.rows, f.columns, f.samplesPerPixel,
                                 f.bitsAllocated, f.frames, f.transferSyntaxUid, f.photometric, dicom::frameIndexName(f.index));
        std::cout << fmt::format("opened in {:.3f} s; first frame at {:.3f} s; {} frame(s) read at {:.1f} frames/s; {} of {} bytes fetched in {} reads\n", openS,
                                 firstFrameS, count, fps, counting->bytes(), counting->size(), counting->reads());
    }
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
