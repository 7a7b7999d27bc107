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

// One kind of frame in the file: a channel_data group and its per-frame values beside it.
struct UffStreamWriter::Stream {
    UffChannelData metadata;
    std::string name;  // the group's path, for messages
    Handle group{-1, H5Gclose};
    Handle data{-1, H5Dclose};
    Handle acquisition{-1, H5Gclose};
    Handle frameIds{-1, H5Dclose};    // <acquisition>/frame_id: the front end's number of each frame
    Handle frameTimes{-1, H5Dclose};  // <acquisition>/frame_time_ns: its acquisition time
    Handle energies{-1, H5Dclose};    // <acquisition>/laser_energy_uj (laser shots only)
    int frames = 0;                   // in the data set (the last one may be partly written)
    int wholeFrames = 0;              // written whole
    int durableFrames = 0;            // on the disk: whole at the last flush that succeeded
    void closeHandles() {
        energies = Handle(-1, H5Dclose);
        frameTimes = Handle(-1, H5Dclose);
        frameIds = Handle(-1, H5Dclose);
        acquisition = Handle(-1, H5Gclose);
        data = Handle(-1, H5Dclose);
        group = Handle(-1, H5Gclose);
    }
};

struct UffStreamWriter::State {
    std::string path;
    std::string reservePath;
    std::string directory;  // where the recording grows: its free space is watched
    Handle file{-1, H5Fclose};
    std::vector<std::unique_ptr<Stream>> streams;
    Stream* current = nullptr;  // the frame begun last is this stream's
    bool broken = false;        // a write or flush failed
    std::chrono::steady_clock::time_point lastFlush = std::chrono::steady_clock::now();
    std::unique_ptr<BackgroundSync> sync;  // the file to the disk after each flush, off this thread
    [[nodiscard]] std::uint64_t largestFrameBytes() const {
        std::uint64_t largest = 0;
        for (const auto& st : streams) largest = std::max<std::uint64_t>(largest, st->metadata.geometry.samplesPerFrame() * 2);
        return largest;
    }
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

// A stream's group, its metadata, its extendible data set and its per-frame values.
Status UffStreamWriter::prepareStream(State& s, Stream& st, const std::string& group, const std::string& acquisitionGroup, bool laserShots) {
    const auto& path = s.path;
    const auto& metadata = st.metadata;
    st.name = group;
    st.group = Handle(H5Gcreate2(s.file.get(), group.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
    if (!st.group.ok()) return fail(ErrorCode::DataLoss, fmt::format("{}: cannot create group {}", path, group));
    if (auto ok = writeUffMetadata(st.group.get(), metadata, path + group); !ok) return ok;
    const hsize_t dims[4] = {0, static_cast<hsize_t>(metadata.geometry.waves), static_cast<hsize_t>(metadata.geometry.channels),
                             static_cast<hsize_t>(metadata.geometry.samples)};
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
    st.data = Handle(H5Dcreate2(st.group.get(), "data", H5T_STD_I16LE, space.get(), H5P_DEFAULT, properties.get(), access.get()), H5Dclose);
    if (!st.data.ok()) return fail(ErrorCode::DataLoss, fmt::format("{}: cannot create the data set of {}", path, group));
    if (auto ok = writeIntAttribute(st.data.get(), "complex", {0}); !ok) return ok;
    // Beside the UFF object (USTB skips a group without a class, with a warning), each frame's id
    // and time: a frame the front end dropped shows as a gap in the ids, never silently.
    st.acquisition = Handle(H5Gcreate2(s.file.get(), acquisitionGroup.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
    if (st.acquisition.ok()) {
        st.frameIds = createPerFrameSet(st.acquisition.get(), "frame_id", H5T_STD_U32LE);
        st.frameTimes = createPerFrameSet(st.acquisition.get(), "frame_time_ns", H5T_STD_U64LE);
        if (laserShots) st.energies = createPerFrameSet(st.acquisition.get(), "laser_energy_uj", H5T_STD_U32LE);
    }
    if (!st.frameIds.ok() || !st.frameTimes.ok() || (laserShots && !st.energies.ok())) {
        return fail(ErrorCode::DataLoss, fmt::format("{}: cannot create /{}", path, acquisitionGroup));
    }
    return {};
}

// The reserve and the first stream of a new recording, on the disk before the first frame.
Status UffStreamWriter::prepare(State& s, const std::string& group) {
    const auto& path = s.path;
    if (auto ok = writeReserve(s.reservePath); !ok) return ok;
    if (auto ok = prepareStream(s, *s.streams.front(), group, "acquisition", s.streams.front()->metadata.geometry.isShot()); !ok) return ok;
    // The file's skeleton on the disk before the first frame: a crash from now on leaves a file
    // that opens (its metadata is only ever written whole, at flushes).
    if (!flushToDisk(s.file.get())) return fail(ErrorCode::DataLoss, fmt::format("{}: cannot write the new recording: {}", path, std::strerror(errno)));
    if (auto ok = syncDirectoryOf(path); !ok) return ok;  // the new name itself survives a power cut
    s.sync = std::make_unique<BackgroundSync>(descriptorOf(s.file.get()));
    return {};
}

Result<std::unique_ptr<UffStreamWriter>> UffStreamWriter::create(const std::string& path, const beamform::AcquisitionGeometry& geometry,
                                                                 const std::string& group) {
    UffChannelData metadata;
    metadata.geometry = geometry;
    quietHdf5();
    if (auto ok = geometry.validate(); !ok) return fail(std::move(ok.error()).addContext(fmt::format("starting the recording {}", path)));
    auto state = std::make_unique<State>();
    state->path = path;
    state->streams.push_back(std::make_unique<Stream>());
    state->streams.front()->metadata = metadata;
    // Never over an existing file: a recording already there is somebody's data.
    std::error_code ec;
    if (std::filesystem::exists(path, ec)) {
        return fail(ErrorCode::FailedPrecondition, fmt::format("{} exists already: record to a new file (nothing was overwritten)", path));
    }
    state->file = Handle(H5Fcreate(path.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, crashSafeAccess().get()), H5Fclose);
    if (!state->file.ok())
        return fail(ErrorCode::Unavailable, fmt::format("cannot create recording {} (directory missing, no permission, or it exists?)", path));
    state->reservePath = path + ".reserve";
    state->directory = std::filesystem::absolute(std::filesystem::path(path)).parent_path().string();
    auto made = prepare(*state, group);
    if (!made) {  // what this call created goes again; nothing else is touched
        state->streams.front()->closeHandles();
        state->file = Handle(-1, H5Fclose);
        std::filesystem::remove(state->reservePath, ec);
        std::filesystem::remove(path, ec);
        return fail(std::move(made.error()));
    }
    return std::unique_ptr<UffStreamWriter>(new UffStreamWriter(std::move(state)));
}

UffStreamWriter::UffStreamWriter(std::unique_ptr<State> state) : state_(std::move(state)) {}

UffStreamWriter::~UffStreamWriter() { (void)close(); }

int UffStreamWriter::frames(int stream) const noexcept {
    return stream >= 0 && static_cast<std::size_t>(stream) < state_->streams.size() ? state_->streams[static_cast<std::size_t>(stream)]->wholeFrames : 0;
}

Result<int> UffStreamWriter::addStream(const beamform::AcquisitionGeometry& geometry, const std::string& group, const std::string& acquisitionGroup) {
    quietHdf5();
    auto& s = *state_;
    if (auto ok = geometry.validate(); !ok) return fail(std::move(ok.error()).addContext(fmt::format("adding {} to the recording {}", group, s.path)));
    if (s.broken) return fail(ErrorCode::FailedPrecondition, fmt::format("{}: the recording failed; nothing more is added", s.path));
    auto stream = std::make_unique<Stream>();
    stream->metadata.geometry = geometry;
    if (auto ok = prepareStream(s, *stream, group, acquisitionGroup, geometry.isShot()); !ok) {
        stream->closeHandles();
        return fail(std::move(ok.error()));
    }
    s.streams.push_back(std::move(stream));
    return static_cast<int>(s.streams.size() - 1);
}

// A write or flush failed: only the frames of the last flush that succeeded are surely on the
// disk (a failed write can lose chunks the cache held of any frame since). close() keeps those.
int UffStreamWriter::totalWholeFrames(const State& s) noexcept {
    int total = 0;
    for (const auto& st : s.streams) total += st->wholeFrames;
    return total;
}

void UffStreamWriter::brokenAt(State& s) noexcept {
    s.broken = true;
    for (auto& st : s.streams) st->wholeFrames = st->durableFrames;
}

Status UffStreamWriter::beginFrame(std::uint32_t frameId, std::uint64_t timeNs, int stream, std::uint32_t laserEnergyMicroJ) {
    quietHdf5();  // the recorder's thread, not the one that created the writer
    auto& s = *state_;
    if (stream < 0 || static_cast<std::size_t>(stream) >= s.streams.size()) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{}: no stream {} in the recording", s.path, stream));
    }
    if (s.current && s.current->frames != s.current->wholeFrames) {
        return fail(ErrorCode::FailedPrecondition, fmt::format("{}: frame begun in {} before the last one ended", s.path, s.current->name));
    }
    auto& st = *s.streams[static_cast<std::size_t>(stream)];
    // The disk is watched, not run into: HDF5 after a failed write or flush (ENOSPC) may leave
    // metadata cut short and drop cached chunks, so the recording ends while three frames and a
    // margin still fit beside the reserve, keeping every frame written whole (flushed at close).
    const auto frameBytes = s.largestFrameBytes();
    struct statvfs disk {};
    if (::statvfs(s.directory.c_str(), &disk) == 0) {
        const auto available = static_cast<std::uint64_t>(disk.f_bavail) * disk.f_frsize;
        if (available < 3 * frameBytes + kDiskMarginBytes) {
            s.broken = true;
            return fail(ErrorCode::DataLoss,
                        fmt::format("{}: the disk is full: {:.1f} MB left, a frame needs {:.1f} MB; the recording ends with "
                                    "its {} frames",
                                    s.path, static_cast<double>(available) / 1e6, static_cast<double>(frameBytes) / 1e6, totalWholeFrames(s)));
        }
    }
    const hsize_t dims[4] = {static_cast<hsize_t>(st.frames + 1), static_cast<hsize_t>(st.metadata.geometry.waves),
                             static_cast<hsize_t>(st.metadata.geometry.channels), static_cast<hsize_t>(st.metadata.geometry.samples)};
    const auto grown = static_cast<hsize_t>(st.frames + 1);
    if (H5Dset_extent(st.data.get(), dims) < 0 || !appendPerFrame(st.frameIds.get(), grown, H5T_NATIVE_UINT32, &frameId) ||
        !appendPerFrame(st.frameTimes.get(), grown, H5T_NATIVE_UINT64, &timeNs) ||
        (st.energies.ok() && !appendPerFrame(st.energies.get(), grown, H5T_NATIVE_UINT32, &laserEnergyMicroJ))) {
        brokenAt(s);
        return fail(ErrorCode::DataLoss, fmt::format("{}: cannot grow the data set of {} (disk full?)", s.path, st.name));
    }
    ++st.frames;
    s.current = &st;
    return {};
}

Status UffStreamWriter::endFrame() {
    auto& s = *state_;
    if (s.broken || !s.current || s.current->frames == s.current->wholeFrames)
        return fail(ErrorCode::FailedPrecondition, fmt::format("{}: no frame to end", s.path));
    s.current->wholeFrames = s.current->frames;
    const auto now = std::chrono::steady_clock::now();
    if (now - s.lastFlush < std::chrono::milliseconds(100)) return {};
    s.lastFlush = now;
    // A flush hands the frames to the kernel (a crash of the process keeps them); the sync asked
    // for after it puts them on the disk itself (a power cut keeps them), data and metadata alike,
    // while this thread goes on writing.
    const int syncFailed = s.sync->error();
    if (H5Fflush(s.file.get(), H5F_SCOPE_GLOBAL) < 0 || syncFailed != 0) {
        const int e = syncFailed != 0 ? syncFailed : errno;
        const int failedAt = s.current->wholeFrames - 1;
        brokenAt(s);
        return fail(ErrorCode::DataLoss,
                    fmt::format("{}: writing to the disk failed after frame {}: {}", s.path, failedAt, e == ENOSPC ? "the disk is full" : std::strerror(e)));
    }
    s.sync->request();
    for (auto& st : s.streams) st->durableFrames = st->wholeFrames;
    return {};
}

Status UffStreamWriter::writeBlock(int wave, int firstChannel, int channelCount, int firstSample, int sampleCount, std::span<const std::byte> payload) {
    auto& s = *state_;
    if (!s.current) return fail(ErrorCode::FailedPrecondition, fmt::format("{}: a block before any frame began", s.path));
    auto& st = *s.current;
    const auto& g = st.metadata.geometry;
    if (st.frames == 0 || wave < 0 || wave >= g.waves || firstChannel < 0 || channelCount <= 0 || firstChannel + channelCount > g.channels || firstSample < 0 ||
        sampleCount <= 0 || firstSample + sampleCount > g.samples ||
        payload.size() != static_cast<std::size_t>(channelCount) * static_cast<std::size_t>(sampleCount) * 2) {
        return fail(ErrorCode::InvalidArgument, fmt::format("block (wave {}, channels {}+{}, samples {}+{}, {} bytes) does not fit the recording's geometry",
                                                            wave, firstChannel, channelCount, firstSample, sampleCount, payload.size()));
    }
    Handle fileSpace(H5Dget_space(st.data.get()), H5Sclose);
    const hsize_t start[4] = {static_cast<hsize_t>(st.frames - 1), static_cast<hsize_t>(wave), static_cast<hsize_t>(firstChannel),
                              static_cast<hsize_t>(firstSample)};
    const hsize_t count[4] = {1, 1, static_cast<hsize_t>(channelCount), static_cast<hsize_t>(sampleCount)};
    H5Sselect_hyperslab(fileSpace.get(), H5S_SELECT_SET, start, nullptr, count, nullptr);
    Handle memorySpace(H5Screate_simple(4, count, nullptr), H5Sclose);
    // The payload is little-endian int16, as the file type: no conversion, written as it is.
    if (H5Dwrite(st.data.get(), H5T_STD_I16LE, memorySpace.get(), fileSpace.get(), H5P_DEFAULT, payload.data()) < 0) {
        brokenAt(s);
        return fail(ErrorCode::DataLoss, fmt::format("{}: writing frame {} of {} failed: {}", s.path, st.frames - 1, st.name,
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
    for (auto& stream : s.streams) {
        auto& st = *stream;
        if (st.frames == st.wholeFrames) continue;
        // A frame begun and never ended (or lost with a failed write): not kept.
        const auto& g = st.metadata.geometry;
        const hsize_t dims[4] = {static_cast<hsize_t>(st.wholeFrames), static_cast<hsize_t>(g.waves), static_cast<hsize_t>(g.channels),
                                 static_cast<hsize_t>(g.samples)};
        const hsize_t stamps[1] = {static_cast<hsize_t>(st.wholeFrames)};
        if (H5Dset_extent(st.data.get(), dims) < 0 || H5Dset_extent(st.frameIds.get(), stamps) < 0 || H5Dset_extent(st.frameTimes.get(), stamps) < 0 ||
            (st.energies.ok() && H5Dset_extent(st.energies.get(), stamps) < 0)) {
            if (closed) closed = fail(ErrorCode::DataLoss, fmt::format("{}: cannot drop the partial frame of {}", s.path, st.name));
        }
        st.frames = st.wholeFrames;
    }
    if (s.sync) s.sync->drain();
    s.sync.reset();  // before the descriptor closes
    if (!flushToDisk(s.file.get()) && closed) {
        closed = fail(ErrorCode::DataLoss,
                      fmt::format("{}: writing to the disk failed at close: {}", s.path, errno == ENOSPC ? "the disk is full" : std::strerror(errno)));
    }
    for (auto& st : s.streams) st->closeHandles();
    s.current = nullptr;
    s.file = Handle(-1, H5Fclose);
    // H5Fclose writes the superblock last: on the disk too before the recording is called done.
    if (auto synced = syncFile(s.path); !synced && closed) closed = std::move(synced);
    return closed;
}

}  // namespace sonolink::record
