#include "sonolink/record/recording_recovery.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <vector>

#include <fmt/format.h>
#include <hdf5.h>

#include "sonolink/util/durable_file.h"
#include "sonolink/record/recorder.h"
#include "uff_hdf5.h"

namespace sonolink::record {

namespace {

// File access that opens a file shorter than its superblock declares: HDF5's own property for
// h5clear ("skip_eof_check"); reads past the end give zeros, which the checksums then refuse.
Handle pastTheEndAccess() {
    Handle access(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
    hbool_t skip = true;
    if (access.ok() && H5Pexist(access.get(), "skip_eof_check") > 0) H5Pset(access.get(), "skip_eof_check", &skip);
    return access;
}

std::uint64_t sizeOf(const std::string& path) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    return ec ? 0 : size;
}

// Reads element `index` of the first axis of `set` (the rest whole) into out: every chunk it
// touches is read and its checksum checked.
bool readSlab(hid_t set, hid_t memoryType, hsize_t index, void* out) {
    Handle fileSpace(H5Dget_space(set), H5Sclose);
    hsize_t dims[4] = {0, 1, 1, 1};
    const int rank = H5Sget_simple_extent_ndims(fileSpace.get());
    if (rank < 1 || rank > 4) return false;
    H5Sget_simple_extent_dims(fileSpace.get(), dims, nullptr);
    hsize_t start[4] = {index, 0, 0, 0};
    hsize_t count[4] = {1, dims[1], dims[2], dims[3]};
    H5Sselect_hyperslab(fileSpace.get(), H5S_SELECT_SET, start, nullptr, count, nullptr);
    Handle memorySpace(H5Screate_simple(rank, count, nullptr), H5Sclose);
    return H5Dread(set, memoryType, memorySpace.get(), fileSpace.get(), H5P_DEFAULT, out) >= 0;
}

hsize_t framesOf(hid_t set) {
    Handle space(H5Dget_space(set), H5Sclose);
    hsize_t dims[4] = {0, 0, 0, 0};
    if (H5Sget_simple_extent_ndims(space.get()) < 1) return 0;
    H5Sget_simple_extent_dims(space.get(), dims, nullptr);
    return dims[0];
}

// Every attribute of `from` onto `to` (the UFF's class, name, size...), as stored.
bool copyAttributes(hid_t from, hid_t to) {
    const int count = H5Aget_num_attrs(from);
    for (int i = 0; i < count; ++i) {
        Handle attribute(H5Aopen_by_idx(from, ".", H5_INDEX_CRT_ORDER, H5_ITER_INC, static_cast<hsize_t>(i), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
        if (!attribute.ok())
            attribute = Handle(H5Aopen_by_idx(from, ".", H5_INDEX_NAME, H5_ITER_INC, static_cast<hsize_t>(i), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
        if (!attribute.ok()) return false;
        const ssize_t nameLength = H5Aget_name(attribute.get(), 0, nullptr);
        std::string name(static_cast<std::size_t>(std::max<ssize_t>(nameLength, 0)) + 1, '\0');
        H5Aget_name(attribute.get(), name.size(), name.data());
        name.resize(static_cast<std::size_t>(std::max<ssize_t>(nameLength, 0)));
        Handle type(H5Aget_type(attribute.get()), H5Tclose);
        Handle space(H5Aget_space(attribute.get()), H5Sclose);
        const auto points = static_cast<std::size_t>(std::max<hssize_t>(H5Sget_simple_extent_npoints(space.get()), 0));
        std::vector<unsigned char> value(std::max<std::size_t>(points * H5Tget_size(type.get()), 1));
        if (H5Aread(attribute.get(), type.get(), value.data()) < 0) return false;
        Handle copy(H5Acreate2(to, name.c_str(), type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
        const bool written = copy.ok() && H5Awrite(copy.get(), type.get(), value.data()) >= 0;
        if (H5Tdetect_class(type.get(), H5T_VLEN) > 0 || H5Tis_variable_str(type.get()) > 0)
            H5Dvlen_reclaim(type.get(), space.get(), H5P_DEFAULT, value.data());
        if (!written) return false;
    }
    return true;
}

// A per-frame data set anew in `to`: its type, chunks, checksums and attributes, its first
// `frames` frames copied (each already read whole).
bool copyFrames(hid_t from, hid_t toGroup, const char* name, hsize_t frames) {
    Handle type(H5Dget_type(from), H5Tclose);
    Handle space(H5Dget_space(from), H5Sclose);
    Handle create(H5Dget_create_plist(from), H5Pclose);
    const int rank = H5Sget_simple_extent_ndims(space.get());
    if (rank < 1 || rank > 4) return false;
    hsize_t dims[4] = {0, 1, 1, 1}, maxDims[4] = {0, 1, 1, 1};
    H5Sget_simple_extent_dims(space.get(), dims, maxDims);
    dims[0] = frames;
    Handle newSpace(H5Screate_simple(rank, dims, maxDims), H5Sclose);
    Handle to(H5Dcreate2(toGroup, name, type.get(), newSpace.get(), H5P_DEFAULT, create.get(), H5P_DEFAULT), H5Dclose);
    if (!to.ok() || !copyAttributes(from, to.get())) return false;
    std::vector<unsigned char> frame(static_cast<std::size_t>(dims[1] * dims[2] * dims[3]) * H5Tget_size(type.get()));
    for (hsize_t f = 0; f < frames; ++f) {
        if (!readSlab(from, type.get(), f, frame.data())) return false;
        Handle fileSpace(H5Dget_space(to.get()), H5Sclose);
        hsize_t start[4] = {f, 0, 0, 0}, count[4] = {1, dims[1], dims[2], dims[3]};
        H5Sselect_hyperslab(fileSpace.get(), H5S_SELECT_SET, start, nullptr, count, nullptr);
        Handle memorySpace(H5Screate_simple(rank, count, nullptr), H5Sclose);
        if (H5Dwrite(to.get(), type.get(), memorySpace.get(), fileSpace.get(), H5P_DEFAULT, frame.data()) < 0) return false;
    }
    return true;
}

// Copies group `from` (at `path`) into `to`: what holds no per-frame data set whole (H5Ocopy),
// each per-frame set cut to its stream's whole frames; a lost chunk of them is never read.
struct TreeCopy {
    const std::vector<std::pair<std::string, hsize_t>>& perFrame;  // absolute paths, and the frames each keeps

    bool holdsPerFrame(const std::string& path) const {
        return std::any_of(perFrame.begin(), perFrame.end(), [&](const auto& p) { return p.first == path || p.first.starts_with(path + "/"); });
    }

    bool group(hid_t from, hid_t to, const std::string& path) const {
        if (!copyAttributes(from, to)) return false;
        H5G_info_t info{};
        if (H5Gget_info(from, &info) < 0) return false;
        for (hsize_t i = 0; i < info.nlinks; ++i) {
            const ssize_t length = H5Lget_name_by_idx(from, ".", H5_INDEX_NAME, H5_ITER_INC, i, nullptr, 0, H5P_DEFAULT);
            if (length <= 0) return false;
            std::string name(static_cast<std::size_t>(length) + 1, '\0');
            H5Lget_name_by_idx(from, ".", H5_INDEX_NAME, H5_ITER_INC, i, name.data(), name.size(), H5P_DEFAULT);
            name.resize(static_cast<std::size_t>(length));
            const auto child = (path == "/" ? "" : path) + "/" + name;
            const auto set = std::find_if(perFrame.begin(), perFrame.end(), [&](const auto& p) { return p.first == child; });
            if (!holdsPerFrame(child)) {
                if (H5Ocopy(from, name.c_str(), to, name.c_str(), H5P_DEFAULT, H5P_DEFAULT) < 0) return false;
            } else if (set != perFrame.end()) {
                Handle opened(H5Dopen2(from, name.c_str(), H5P_DEFAULT), H5Dclose);
                if (!opened.ok() || !copyFrames(opened.get(), to, name.c_str(), set->second)) return false;
            } else {
                Handle sub(H5Gopen2(from, name.c_str(), H5P_DEFAULT), H5Gclose);
                Handle made(H5Gcreate2(to, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
                if (!sub.ok() || !made.ok() || !group(sub.get(), made.get(), child)) return false;
            }
        }
        return true;
    }
};

struct RecordingSets {
    Handle file{-1, H5Fclose};
    Handle data{-1, H5Dclose};
    Handle frameIds{-1, H5Dclose};
    Handle frameTimes{-1, H5Dclose};
    Handle energies{-1, H5Dclose};  // laser shots' (dual mode's second stream, or photoacoustic-only)
};

// Whether every chunk of frame `frame` of a 4-d data set is stored: a recording cut (SIGKILL,
// power) while a flush wrote its metadata may declare a frame whose chunks the chunk index does
// not yet list, and HDF5 reads those as the fill value, silently.
bool frameIsStored(hid_t set, hsize_t frame) {
    Handle space(H5Dget_space(set), H5Sclose);
    Handle plist(H5Dget_create_plist(set), H5Pclose);
    hsize_t dims[4] = {0, 0, 0, 0}, chunk[4] = {1, 1, 1, 1};
    if (H5Sget_simple_extent_ndims(space.get()) != 4 || H5Pget_layout(plist.get()) != H5D_CHUNKED) return true;
    H5Sget_simple_extent_dims(space.get(), dims, nullptr);
    if (H5Pget_chunk(plist.get(), 4, chunk) != 4 || chunk[1] == 0 || chunk[2] == 0 || chunk[3] == 0) return false;
    for (hsize_t w = 0; w < dims[1]; w += chunk[1]) {
        for (hsize_t c = 0; c < dims[2]; c += chunk[2]) {
            for (hsize_t s = 0; s < dims[3]; s += chunk[3]) {
                const hsize_t at[4] = {frame - frame % chunk[0], w, c, s};
                unsigned mask = 0;
                haddr_t address = HADDR_UNDEF;
                hsize_t size = 0;
                if (H5Dget_chunk_info_by_coord(set, at, &mask, &address, &size) < 0 || address == HADDR_UNDEF) return false;
            }
        }
    }
    return true;
}

// The whole frames from the first: each frame's samples, id and time read back with their checksums.
int wholeFrames(const RecordingSets& sets) {
    Handle space(H5Dget_space(sets.data.get()), H5Sclose);
    hsize_t dims[4] = {0, 0, 0, 0};
    H5Sget_simple_extent_dims(space.get(), dims, nullptr);
    hsize_t frames = dims[0];
    if (sets.frameIds.ok()) frames = std::min(frames, framesOf(sets.frameIds.get()));
    if (sets.frameTimes.ok()) frames = std::min(frames, framesOf(sets.frameTimes.get()));
    if (sets.energies.ok()) frames = std::min(frames, framesOf(sets.energies.get()));
    std::vector<std::int16_t> samples(static_cast<std::size_t>(dims[1] * dims[2] * dims[3]));
    for (hsize_t f = 0; f < frames; ++f) {
        std::uint32_t id = 0, energy = 0;
        std::uint64_t time = 0;
        if (!frameIsStored(sets.data.get(), f) || !readSlab(sets.data.get(), H5T_NATIVE_INT16, f, samples.data())) return static_cast<int>(f);
        if (sets.frameIds.ok() && !readSlab(sets.frameIds.get(), H5T_NATIVE_UINT32, f, &id)) return static_cast<int>(f);
        if (sets.frameTimes.ok() && !readSlab(sets.frameTimes.get(), H5T_NATIVE_UINT64, f, &time)) return static_cast<int>(f);
        if (sets.energies.ok() && !readSlab(sets.energies.get(), H5T_NATIVE_UINT32, f, &energy)) return static_cast<int>(f);
    }
    return static_cast<int>(frames);
}

Handle openSet(hid_t file, const std::string& name) {
    if (H5Lexists(file, name.c_str(), H5P_DEFAULT) <= 0) return Handle(-1, H5Dclose);
    return Handle(H5Dopen2(file, name.c_str(), H5P_DEFAULT), H5Dclose);
}

}  // namespace

std::optional<RecoveredRecording> cutShortHdf5(const std::string& path) {
    quietHdf5();
    if (H5Fis_hdf5(path.c_str()) <= 0) return std::nullopt;
    Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, pastTheEndAccess().get()), H5Fclose);
    haddr_t eoa = 0;
    if (!file.ok() || H5Fget_eoa(file.get(), &eoa) < 0) return std::nullopt;
    RecoveredRecording sizes;
    sizes.bytesOnDisk = sizeOf(path);
    sizes.bytesDeclared = eoa;
    if (sizes.bytesOnDisk >= sizes.bytesDeclared) return std::nullopt;
    return sizes;
}

namespace {

// Dual mode: the laser shots, a stream of their own, each cut to its own whole frames (their
// data sets and how many of their frames to keep, added to perFrame); none: nothing added.
void keepWholeShots(hid_t file, RecoveredRecording& result, std::vector<std::pair<std::string, hsize_t>>& perFrame) {
    RecordingSets shots;
    shots.data = openSet(file, std::string(kShotGroup) + "/data");
    if (!shots.data.ok()) return;
    const std::string acquisition = std::string("/") + kShotAcquisitionGroup;
    shots.frameIds = openSet(file, acquisition + "/frame_id");
    shots.frameTimes = openSet(file, acquisition + "/frame_time_ns");
    shots.energies = openSet(file, acquisition + "/laser_energy_uj");
    const auto kept = static_cast<hsize_t>(wholeFrames(shots));
    result.shotsDeclared = static_cast<int>(framesOf(shots.data.get()));
    result.shotsKept = static_cast<int>(kept);
    perFrame.emplace_back(std::string(kShotGroup) + "/data", kept);
    for (const auto* name : {"/frame_id", "/frame_time_ns", "/laser_energy_uj"}) {
        if (H5Lexists(file, (acquisition + name).c_str(), H5P_DEFAULT) > 0) perFrame.emplace_back(acquisition + name, kept);
    }
}

}  // namespace

Result<RecoveredRecording> recoverRecording(const std::string& damaged, const std::string& output, const std::string& group) {
    quietHdf5();
    if (auto ok = requireRegularFile(damaged, "recording"); !ok) return fail(std::move(ok.error()));
    std::error_code ec;
    if (std::filesystem::exists(output, ec)) {
        return fail(ErrorCode::FailedPrecondition,
                    fmt::format("{} exists already: name a new file for the recovered recording (nothing was overwritten)", output));
    }
    RecoveredRecording result;
    result.bytesOnDisk = sizeOf(damaged);
    RecordingSets sets;  // the damaged file, read only: it is left as it was
    sets.file = Handle(H5Fopen(damaged.c_str(), H5F_ACC_RDONLY, pastTheEndAccess().get()), H5Fclose);
    if (!sets.file.ok())
        return fail(ErrorCode::InvalidArgument, fmt::format("{} is no HDF5 file, or its superblock is lost: nothing can be recovered", damaged));
    haddr_t eoa = 0;
    if (H5Fget_eoa(sets.file.get(), &eoa) >= 0) result.bytesDeclared = eoa;
    const std::string dataPath = (group.starts_with("/") ? group : "/" + group) + "/data";
    sets.data = openSet(sets.file.get(), dataPath);
    if (!sets.data.ok())
        return fail(ErrorCode::InvalidArgument, fmt::format("{}: no data set {} (or its header is lost): nothing can be recovered", damaged, dataPath));
    sets.frameIds = openSet(sets.file.get(), "/acquisition/frame_id");
    sets.frameTimes = openSet(sets.file.get(), "/acquisition/frame_time_ns");
    sets.energies = openSet(sets.file.get(), "/acquisition/laser_energy_uj");
    result.framesDeclared = static_cast<int>(framesOf(sets.data.get()));
    result.framesKept = wholeFrames(sets);
    if (result.framesKept == 0)
        return fail(ErrorCode::DataLoss, fmt::format("{}: not one of its {} frames is whole on the disk", damaged, result.framesDeclared));
    std::vector<std::pair<std::string, hsize_t>> perFrame{{dataPath, result.framesKept}};
    for (const auto* name : {"/acquisition/frame_id", "/acquisition/frame_time_ns", "/acquisition/laser_energy_uj"}) {
        if (H5Lexists(sets.file.get(), name, H5P_DEFAULT) > 0) perFrame.emplace_back(name, result.framesKept);
    }
    if (group == "/channel_data") keepWholeShots(sets.file.get(), result, perFrame);
    // Written anew under a temporary name, put in place whole and synced: a recovery cut short
    // leaves nothing that looks like a recording.
    const std::string working = output + ".recovering";
    std::filesystem::remove(working, ec);
    auto abandon = [&](Error e) {
        std::error_code ignored;
        std::filesystem::remove(working, ignored);
        return fail(std::move(e).addContext(fmt::format("recovering {}", damaged)));
    };
    {
        Handle out(H5Fcreate(working.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
        if (!out.ok()) return abandon(ioError("create", working, errno));
        Handle fromRoot(H5Gopen2(sets.file.get(), "/", H5P_DEFAULT), H5Gclose);
        Handle toRoot(H5Gopen2(out.get(), "/", H5P_DEFAULT), H5Gclose);
        const TreeCopy copy{perFrame};
        if (!copy.group(fromRoot.get(), toRoot.get(), "/")) {
            return abandon(
                Error(ErrorCode::DataLoss, fmt::format("{}: cannot copy its metadata and {} whole frames into {}", damaged, result.framesKept, working)));
        }
        if (H5Fflush(out.get(), H5F_SCOPE_GLOBAL) < 0) return abandon(ioError("write", working, errno));
    }
    if (auto ok = syncFile(working); !ok) return abandon(std::move(ok.error()));
    if (::link(working.c_str(), output.c_str()) != 0) return abandon(ioError("name the recovered recording", output, errno));
    std::filesystem::remove(working, ec);
    if (auto ok = syncDirectoryOf(output); !ok) return fail(std::move(ok.error()));
    return result;
}

}  // namespace sonolink::record
