#include "sonolink/record/recording_kinds.h"

#include <algorithm>

#include <fmt/format.h>
#include <hdf5.h>

#include "uff_hdf5.h"

namespace sonolink::record {
namespace {

// A 1-D data set's values (none when it is not there); InvalidArgument when it is no such set.
template <typename T> Result<std::optional<std::vector<T>>> valuesAt(hid_t file, const char* name, const std::string& path, hid_t memoryType) {
    if (H5Lexists(file, name, H5P_DEFAULT) <= 0) return std::optional<std::vector<T>>{};
    Handle set(H5Dopen2(file, name, H5P_DEFAULT), H5Dclose);
    if (!set.ok()) return fail(ErrorCode::InvalidArgument, fmt::format("{}: {} cannot be opened", path, name));
    Handle space(H5Dget_space(set.get()), H5Sclose);
    if (H5Sget_simple_extent_ndims(space.get()) != 1) return fail(ErrorCode::InvalidArgument, fmt::format("{}: {} is not one value per frame", path, name));
    hsize_t n = 0;
    H5Sget_simple_extent_dims(space.get(), &n, nullptr);
    std::vector<T> values(n);
    if (n > 0 && H5Dread(set.get(), memoryType, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) < 0) {
        return fail(ErrorCode::DataLoss, fmt::format("{}: {} cannot be read", path, name));
    }
    return std::optional(std::move(values));
}

}  // namespace

Result<RecordingFrameIds> readFrameIds(const std::string& path) {
    quietHdf5();
    Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
    if (!file.ok()) return fail(ErrorCode::InvalidArgument, fmt::format("{} is no HDF5 file", path));
    auto ultrasound = valuesAt<std::uint32_t>(file.get(), "/acquisition/frame_id", path, H5T_NATIVE_UINT32);
    if (!ultrasound) return fail(std::move(ultrasound.error()));
    if (!*ultrasound) return fail(ErrorCode::InvalidArgument, fmt::format("{} has no /acquisition/frame_id: not a SonoLink recording", path));
    auto shots = valuesAt<std::uint32_t>(file.get(), "/photoacoustic_acquisition/frame_id", path, H5T_NATIVE_UINT32);
    if (!shots) return fail(std::move(shots.error()));
    auto times = valuesAt<std::uint64_t>(file.get(), "/photoacoustic_acquisition/frame_time_ns", path, H5T_NATIVE_UINT64);
    if (!times) return fail(std::move(times.error()));
    RecordingFrameIds ids{std::move(**ultrasound), *shots ? std::move(**shots) : std::vector<std::uint32_t>{},
                          *times ? std::move(**times) : std::vector<std::uint64_t>{}};
    if (!ids.shotTimesNs.empty() && ids.shotTimesNs.size() != ids.shots.size()) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{}: {} shot times for {} shots", path, ids.shotTimesNs.size(), ids.shots.size()));
    }
    if (!std::is_sorted(ids.shots.begin(), ids.shots.end())) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{}: /photoacoustic_acquisition/frame_id is not in acquisition order", path));
    }
    return ids;
}

double RecordingFrameIds::laserRateHz() const {
    if (shotTimesNs.size() < 2) return 0;
    std::vector<std::uint64_t> intervals;
    for (std::size_t i = 1; i < shotTimesNs.size(); ++i) intervals.push_back(shotTimesNs[i] - shotTimesNs[i - 1]);
    std::nth_element(intervals.begin(), intervals.begin() + static_cast<std::ptrdiff_t>(intervals.size() / 2), intervals.end());
    const auto median = intervals[intervals.size() / 2];  // a missed shot doubles one interval; the median is the laser's
    return median == 0 ? 0.0 : 1e9 / static_cast<double>(median);
}

std::optional<std::size_t> lastShotBefore(const RecordingFrameIds& ids, std::uint32_t frameId) {
    const auto after = std::lower_bound(ids.shots.begin(), ids.shots.end(), frameId);
    if (after == ids.shots.begin()) return std::nullopt;
    return static_cast<std::size_t>(after - ids.shots.begin() - 1);
}

}  // namespace sonolink::record
