#include "sonolink/record/uff_stream_writer.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <sys/statvfs.h>
#include <unistd.h>
#include <filesystem>
#include <vector>

#include <fmt/format.h>
#include <hdf5.h>

#include "background_sync.h"
#include "sonolink/util/durable_file.h"
#include "uff_hdf5.h"

namespace sonolink::record {

namespace {

// File access for a recording that a crash may cut short: the metadata cache never evicts (it
// writes metadata only when the file is flushed, every 100 ms), so between flushes the file's
// metadata on disk is the last flush's, whole: a SIGKILL or a power cut of the process leaves a
// file that opens with every frame flushed, and new chunks only ever land past it.
Handle crashSafeAccess() {
    Handle access(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
    H5AC_cache_config_t cache{};
    cache.version = H5AC__CURR_CACHE_CONFIG_VERSION;
    H5Pget_mdc_config(access.get(), &cache);
    cache.evictions_enabled = false;
    cache.incr_mode = H5C_incr__off;
    cache.flash_incr_mode = H5C_flash_incr__off;
    cache.decr_mode = H5C_decr__off;
    cache.set_initial_size = true;
    cache.initial_size = 16 << 20;
    cache.max_size = std::max<std::size_t>(cache.max_size, cache.initial_size);
    cache.min_size = std::min<std::size_t>(cache.min_size, cache.initial_size);
    H5Pset_mdc_config(access.get(), &cache);
    return access;
}

}  // namespace

constexpr std::size_t kReserveBytes = 4 << 20;
  // room to close a recording on a full disk
constexpr std::uint64_t kDiskMarginBytes = 1 << 20;  // beyond three frames: HDF5's metadata as the file grows

struct UffStreamWriter::State {
    std::string path;
    std::string reservePath;
    std::string directory;  // where the recording grows: its free space is watched
    UffChannelData metadata;
    Handle file{-1, H5Fclose};
    Handle group{-1, H5Gclose};
    Handle data{-1, H5Dclose};
    Handle acquisition{-1, H5Gclose};
    Handle frameIds{-1, H5Dclose};    // /acquisition/frame_id: the front end's number of each frame
    Handle frameTimes{-1, H5Dclose};  // /acquisition/frame_time_ns: its acquisition time
    int frames = 0;          // in the data set (the last one may be partly written)
    int wholeFrames = 0;     // written whole
    int durableFrames = 0;   // on the disk: whole at the last flush that succeeded
    bool broken = false;     // a write or flush failed
    std::chrono::steady_clock::time_point lastFlush = std::chrono::steady_clock::now();
    std::unique_ptr<BackgroundSync> sync;  // the file to the disk after each flush, off this thread
};

namespace {

// A file of real blocks (not a sparse hole), so that deleting it really frees room.
Status writeReserve(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return fail(ErrorCode::Unavailable, fmt::format("cannot create {}: {}", path, std::strerror(errno)));
    std::vector<char> zeros(64 << 10, 0);
    bool ok = true;
    for (std::size_t written = 0; ok && written < kReserveBytes; written += zeros.size()) ok = std::fwrite(zeros.data(), 1, zeros.size(), f) == zeros.size();
    ok = std::fflush(f) == 0 && ok;
    std::fclose(f);
    if (!ok) {
        std::remove(path.c_str());
        return fail(ErrorCode::ResourceExhausted, fmt::format("no room to record beside {}: the disk is full", path));
    }
    return {};
}

// A 1-D extendible data set of one number per frame, checksummed like the samples.
Handle createPerFrameSet(hid_t group, const char* name, hid_t type) {
    const hsize_t dims[1] = {0};
    const hsize_t maxDims[1] = {H5S_UNLIMITED};
    const hsize_t chunk[1] = {4096};
    Handle space(H5Screate_simple(1, dims, maxDims), H5Sclose);
    Handle properties(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
    H5Pset_chunk(properties.get(), 1, chunk);
    H5Pset_fletcher32(properties.get());
    return Handle(H5Dcreate2(group, name, type, space.get(), H5P_DEFAULT, properties.get(), H5P_DEFAULT), H5Dclose);
}

// Grows a per-frame data set to `frames` and writes the last frame's value.
bool appendPerFrame(hid_t set, hsize_t frames, hid_t memoryType, const void* value) {
    const hsize_t dims[1] = {frames};
    if (H5Dset_extent(set, dims) < 0) return false;
    Handle fileSpace(H5Dget_space(set), H5Sclose);
    const hsize_t start[1] = {frames - 1};
    const hsize_t count[1] = {1};
    H5Sselect_hyperslab(fileSpace.get(), H5S_SELECT_SET, start, nullptr, count, nullptr);
    Handle memorySpace(H5Screate_simple(1, count, nullptr), H5Sclose);
    return H5Dwrite(set, memoryType, memorySpace.get(), fileSpace.get(), H5P_DEFAULT, value) >= 0;
}

// The POSIX descriptor under HDF5's sec2 driver; -1 if there is none.
int descriptorOf(hid_t file) {
    void* handle = nullptr;
    if (H5Fget_vfd_handle(file, H5P_DEFAULT, &handle) < 0 || handle == nullptr) return -1;
    return *static_cast<int*>(handle);
}

// Flushes HDF5's caches to the file and the file to the disk: data and metadata survive a power
// cut. errno tells why when it fails.
bool flushToDisk(hid_t file) {
    if (H5Fflush(file, H5F_SCOPE_GLOBAL) < 0) return false;
    const int fd = descriptorOf(file);
    if (fd < 0) return false;
    return ::fsync(fd) == 0;
}

}  // namespace

// The reserve, the group, its metadata and the extendible data set of a new recording.
Status UffStreamWriter::prepare(State& s, const UffChannelData& metadata, const std::string& group) {
    const auto& path = s.path;
    if (auto ok = writeReserve(s.reservePath); !ok) return ok;
    s.group = Handle(H5Gcreate2(s.file.get(), group.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
    if (!s.group.ok()) return fail(ErrorCode::DataLoss, fmt::format("{}: cannot create group {}", path, group));
    if (auto ok = writeUffMetadata(s.group.get(), metadata, path + group); !ok) return ok;
    const hsize_t dims[4] = {0, static_cast<hsize_t>(metadata.geometry.waves), static_cast<hsize_t>(metadata.geometry.channels), static_cast<hsize_t>(metadata.geometry.samples)};
    const hsize_t maxDims[4] = {H5S_UNLIMITED, dims[1], dims[2], dims[3]};
    const hsize_t chunk[4] = {1, 1, std::min<hsize_t>(dims[2], 16), dims[3]};
    Handle space(H5Screate_simple(4, dims, maxDims), H5Sclose);
    Handle properties(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
    H5Pset_chunk(properties.get(), 4, chunk);
    H5Pset_fletcher32(properties.get());  // every chunk checksummed; h5py and our reader verify it
    // A frame's chunks stay in the chunk cache until it is whole (blocks arrive in any order):
    // each chunk is checksummed and written once.
    const std::size_t frameBytes = static_cast<std::size_t>(dims[1] * dims[2] * dims[3]) * 2;
    Handle access(H5Pcreate(H5P_DATASET_ACCESS), H5Pclose);
    H5Pset_chunk_cache(access.get(), 12421, 2 * frameBytes + (1 << 20), 1.0);
    s.data = Handle(H5Dcreate2(s.group.get(), "data", H5T_STD_I16LE, space.get(), H5P_DEFAULT, properties.get(), access.get()), H5Dclose);
    if (!s.data.ok()) return fail(ErrorCode::DataLoss, fmt::format("{}: cannot create the data set", path));
    if (auto ok = writeIntAttribute(s.data.get(), "complex", {0}); !ok) return ok;
    // Beside the UFF object (USTB skips a group without a class, with a warning), each frame's id
    // and time: a frame the front end dropped shows as a gap in the ids, never silently.
    s.acquisition = Handle(H5Gcreate2(s.file.get(), "acquisition", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
    if (s.acquisition.ok()) {
        s.frameIds = createPerFrameSet(s.acquisition.get(), "frame_id", H5T_STD_U32LE);
        s.frameTimes = createPerFrameSet(s.acquisition.get(), "frame_time_ns", H5T_STD_U64LE);
    }
    if (!s.frameIds.ok() || !s.frameTimes.ok()) return fail(ErrorCode::DataLoss, fmt::format("{}: cannot create /acquisition", path));
    // The file's skeleton on the disk before the first frame: a crash from now on leaves a file
    // that opens (its metadata is only ever written whole, at flushes).
    if (!flushToDisk(s.file.get())) return fail(ErrorCode::DataLoss, fmt::format("{}: cannot write the new recording: {}", path, std::strerror(errno)));
    if (auto ok = syncDirectoryOf(path); !ok) return ok;  // the new name itself survives a power cut
    s.sync = std::make_unique<BackgroundSync>(descriptorOf(s.file.get()));
    return {};
}

Result<std::unique_ptr<UffStreamWriter>> UffStreamWriter::create(const std::string& path, const beamform::AcquisitionGeometry& geometry, const std::string& group) {
    UffChannelData metadata;
    metadata.geometry = geometry;
    quietHdf5();
    if (auto ok = geometry.validate(); !ok) return fail(std::move(ok.error()).addContext(fmt::format("starting the recording {}", path)));
    auto state = std::make_unique<State>();
    state->path = path;
    state->metadata = metadata;
    // Never over an existing file: a recording already there is somebody's data.
    std::error_code ec;
    if (std::filesystem::exists(path, ec)) {
        return fail(ErrorCode::FailedPrecondition, fmt::format("{} exists already: record to a new file (nothing was overwritten)", path));
    }
    state->file = Handle(H5Fcreate(path.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, crashSafeAccess().get()), H5Fclose);
    if (!state->file.ok()) return fail(ErrorCode::Unavailable, fmt::format("cannot create recording {} (directory missing, no permission, or it exists?)", path));
    state->reservePath = path + ".reserve";
    state->directory = std::filesystem::absolute(std::filesystem::path(path)).parent_path().string();
    auto made = prepare(*state, metadata, group);
    if (!made) {  // what this call created goes again; nothing else is touched
        state->frameTimes = Handle(-1, H5Dclose);
        state->frameIds = Handle(-1, H5Dclose);
        state->acquisition = Handle(-1, H5Gclose);
        state->data = Handle(-1, H5Dclose);
        state->group = Handle(-1, H5Gclose);
        state->file = Handle(-1, H5Fclose);
        std::filesystem::remove(state->reservePath, ec);
        std::filesystem::remove(path, ec);
        return fail(std::move(made.error()));
    }
    return std::unique_ptr<UffStreamWriter>(new UffStreamWriter(std::move(state)));
}

UffStreamWriter::UffStreamWriter(std::unique_ptr<State> state) : state_(std::move(state)) {}

UffStreamWriter::~UffStreamWriter() { (void)close(); }

int UffStreamWriter::frames() const noexcept { return state_->wholeFrames; }

// A write or flush failed: only the frames of the last flush that succeeded are surely on the
// disk (a failed write can lose chunks the cache held of any frame since). close() keeps those.
void UffStreamWriter::brokenAt(State& s) noexcept {
    s.broken = true;
    s.wholeFrames = s.durableFrames;
}

Status UffStreamWriter::beginFrame(std::uint32_t frameId, std::uint64_t timeNs) {
    quietHdf5();  // the recorder's thread, not the one that created the writer
    auto& s = *state_;
    // The disk is watched, not run into: HDF5 after a failed write or flush (ENOSPC) may leave
    // metadata cut short and drop cached chunks, so the recording ends while three frames and a
    // margin still fit beside the reserve, keeping every frame written whole (flushed at close).
    const auto frameBytes = static_cast<std::uint64_t>(s.metadata.geometry.samplesPerFrame()) * 2;
    struct statvfs disk {};
    if (::statvfs(s.directory.c_str(), &disk) == 0) {
        const auto available = static_cast<std::uint64_t>(disk.f_bavail) * disk.f_frsize;
        if (available < 3 * frameBytes + kDiskMarginBytes) {
            s.broken = true;
            return fail(ErrorCode::DataLoss, fmt::format("{}: the disk is full: {:.1f} MB left, a frame needs {:.1f} MB; the recording ends with "
                                                         "its {} frames", s.path, static_cast<double>(available) / 1e6,
                                                         static_cast<double>(frameBytes) / 1e6, s.wholeFrames));
        }
    }
    const hsize_t dims[4] = {static_cast<hsize_t>(s.frames + 1), static_cast<hsize_t>(s.metadata.geometry.waves),
                             static_cast<hsize_t>(s.metadata.geometry.channels), static_cast<hsize_t>(s.metadata.geometry.samples)};
    const auto grown = static_cast<hsize_t>(s.frames + 1);
    if (H5Dset_extent(s.data.get(), dims) < 0 || !appendPerFrame(s.frameIds.get(), grown, H5T_NATIVE_UINT32, &frameId) ||
        !appendPerFrame(s.frameTimes.get(), grown, H5T_NATIVE_UINT64, &timeNs)) {
        brokenAt(s);
        return fail(ErrorCode::DataLoss, fmt::format("{}: cannot grow the data set (disk full?)", s.path));
    }
    ++s.frames;
    return {};
}

Status UffStreamWriter::endFrame() {
    auto& s = *state_;
    if (s.broken || s.frames == s.wholeFrames) return fail(ErrorCode::FailedPrecondition, fmt::format("{}: no frame to end", s.path));
    s.wholeFrames = s.frames;
    const auto now = std::chrono::steady_clock::now();
    if (now - s.lastFlush < std::chrono::milliseconds(100)) return {};
    s.lastFlush = now;
    // A flush hands the frames to the kernel (a crash of the process keeps them); the sync asked
    // for after it puts them on the disk itself (a power cut keeps them), data and metadata alike,
    // while this thread goes on writing.
    const int syncFailed = s.sync->error();
    if (H5Fflush(s.file.get(), H5F_SCOPE_GLOBAL) < 0 || syncFailed != 0) {
        const int e = syncFailed != 0 ? syncFailed : errno;
        const int failedAt = s.wholeFrames - 1;
        brokenAt(s);
        return fail(ErrorCode::DataLoss, fmt::format("{}: writing to the disk failed after frame {}: {}", s.path, failedAt,
                                                     e == ENOSPC ? "the disk is full" : std::strerror(e)));
    }
    s.sync->request();
    s.durableFrames = s.wholeFrames;
    return {};
}

Status UffStreamWriter::writeBlock(int wave, int firstChannel, int channelCount, int firstSample, int sampleCount, std::span<const std::byte> payload) {
    auto& s = *state_;
    if (s.frames == 0 || wave < 0 || wave >= s.metadata.geometry.waves || firstChannel < 0 || channelCount <= 0 ||
        firstChannel + channelCount > s.metadata.geometry.channels || firstSample < 0 || sampleCount <= 0 || firstSample + sampleCount > s.metadata.geometry.samples ||
        payload.size() != static_cast<std::size_t>(channelCount) * static_cast<std::size_t>(sampleCount) * 2) {
        return fail(ErrorCode::InvalidArgument, fmt::format("block (wave {}, channels {}+{}, samples {}+{}, {} bytes) does not fit the recording's geometry",
                                                            wave, firstChannel, channelCount, firstSample, sampleCount, payload.size()));
    }
    Handle fileSpace(H5Dget_space(s.data.get()), H5Sclose);
    const hsize_t start[4] = {static_cast<hsize_t>(s.frames - 1), static_cast<hsize_t>(wave), static_cast<hsize_t>(firstChannel), static_cast<hsize_t>(firstSample)};
    const hsize_t count[4] = {1, 1, static_cast<hsize_t>(channelCount), static_cast<hsize_t>(sampleCount)};
    H5Sselect_hyperslab(fileSpace.get(), H5S_SELECT_SET, start, nullptr, count, nullptr);
    Handle memorySpace(H5Screate_simple(4, count, nullptr), H5Sclose);
    // The payload is little-endian int16, as the file type: no conversion, written as it is.
    if (H5Dwrite(s.data.get(), H5T_STD_I16LE, memorySpace.get(), fileSpace.get(), H5P_DEFAULT, payload.data()) < 0) {
        brokenAt(s);
        return fail(ErrorCode::DataLoss, fmt::format("{}: writing frame {} failed: {}", s.path, s.frames - 1,
                                                     errno == ENOSPC ? "the disk is full" : "(disk full?)"));
    }
    return {};
}

Status UffStreamWriter::close() {
    quietHdf5();
    auto& s = *state_;
    if (!s.file.ok()) return {};
    std::remove(s.reservePath.c_str());  // its room is what closing needs when the disk is full
    Status closed;
    if (s.frames != s.wholeFrames) {  // a frame begun and never ended: not kept
        const hsize_t dims[4] = {static_cast<hsize_t>(s.wholeFrames), static_cast<hsize_t>(s.metadata.geometry.waves),
                                 static_cast<hsize_t>(s.metadata.geometry.channels), static_cast<hsize_t>(s.metadata.geometry.samples)};
        const hsize_t stamps[1] = {static_cast<hsize_t>(s.wholeFrames)};
        if (H5Dset_extent(s.data.get(), dims) < 0 || H5Dset_extent(s.frameIds.get(), stamps) < 0 || H5Dset_extent(s.frameTimes.get(), stamps) < 0) {
            closed = fail(ErrorCode::DataLoss, fmt::format("{}: cannot drop the partial frame", s.path));
        }
        s.frames = s.wholeFrames;
    }
    if (s.sync) s.sync->drain();
    s.sync.reset();  // before the descriptor closes
    if (!flushToDisk(s.file.get()) && closed) {
        closed = fail(ErrorCode::DataLoss, fmt::format("{}: writing to the disk failed at close: {}", s.path,
                                                       errno == ENOSPC ? "the disk is full" : std::strerror(errno)));
    }
    s.frameTimes = Handle(-1, H5Dclose);
    s.frameIds = Handle(-1, H5Dclose);
    s.acquisition = Handle(-1, H5Gclose);
    s.data = Handle(-1, H5Dclose);
    s.group = Handle(-1, H5Gclose);
    s.file = Handle(-1, H5Fclose);
    // H5Fclose writes the superblock last: on the disk too before the recording is called done.
    if (auto synced = syncFile(s.path); !synced && closed) closed = std::move(synced);
    return closed;
}

}  // namespace sonolink::record
