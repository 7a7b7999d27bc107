#include "sonolink/record/recording_kinds.h"

#include <algorithm>

#include <fmt/format.h>
#include <hdf5.h>

#include "uff_hdf5.h"

namespace sonolink::record {
namespace {

// A 1-D data set's values (none when it is not there); InvalidArgument when it is no such set.
Result<std::optional<std::vector<std::uint32_t>>> idsAt(hid_t file, const char* name, const std::string& path) {
    if (H5Lexists(file, name, H5P_DEFAULT) <= 0) return std::optional<std::vector<std::uint32_t>>{};
    Handle set(H5Dopen2(file, name, H5P_DEFAULT), H5Dclose);
    if (!set.ok()) return fail(ErrorCode::InvalidArgument, fmt::format("{}: {} cannot be opened", path, name));
    Handle space(H5Dget_space(set.get()), H5Sclose);
    if (H5Sget_simple_extent_ndims(space.get()) != 1) return fail(ErrorCode::InvalidArgument, fmt::format("{}: {} is not one value per frame", path, name));
    hsize_t n = 0;
    H5Sget_simple_extent_dims(space.get(), &n, nullptr);
    std::vector<std::uint32_t> ids(n);
    if (n > 0 && H5Dread(set.get(), H5T_NATIVE_UINT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, ids.data()) < 0) {
        return fail(ErrorCode::DataLoss, fmt::format("{}: {} cannot be read", path, name));
    }
    return std::optional(std::move(ids));
}

}  // namespace

Result<RecordingFrameIds> readFrameIds(const std::string& path) {
    quietHdf5();
    Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
    if (!file.ok()) return fail(ErrorCode::InvalidArgument, fmt::format("{} is no HDF5 file", path));
    auto ultrasound = idsAt(file.get(), "/acquisition/frame_id", path);
    if (!ultrasound) return fail(std::move(ultrasound.error()));
    if (!*ultrasound) return fail(ErrorCode::InvalidArgument, fmt::format("{} has no /acquisition/frame_id: not a SonoLink recording", path));
    auto shots = idsAt(file.get(), "/photoacoustic_acquisition/frame_id", path);
    if (!shots) return fail(std::move(shots.error()));
    RecordingFrameIds ids{std::move(**ultrasound), *shots ? std::move(**shots) : std::vector<std::uint32_t>{}};
    if (!std::is_sorted(ids.shots.begin(), ids.shots.end())) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{}: /photoacoustic_acquisition/frame_id is not in acquisition order", path));
    }
    return ids;
}

std::optional<std::size_t> lastShotBefore(const RecordingFrameIds& ids, std::uint32_t frameId) {
    const auto after = std::lower_bound(ids.shots.begin(), ids.shots.end(), frameId);
    if (after == ids.shots.begin()) return std::nullopt;
    return static_cast<std::size_t>(after - ids.shots.begin() - 1);
}

}  // namespace sonolink::record
