#include "sonolink/record/uff_channel_data.h"
#include "sonolink/record/uff_stream_writer.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>
#include <cmath>
#include <complex>
#include <type_traits>
#include <filesystem>
#include <limits>
#include <optional>
#include <utility>

#include <fmt/format.h>
#include <hdf5.h>

namespace sonolink::record {
namespace {

// An HDF5 identifier closed by its own close function.
class Handle {
public:
    Handle(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
    ~Handle() {
        if (id_ >= 0) close_(id_);
    }
    Handle(Handle&& other) noexcept : id_(std::exchange(other.id_, -1)), close_(other.close_) {}
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;
    Handle& operator=(Handle&& other) noexcept {
        if (this != &other) {
            if (id_ >= 0) close_(id_);
            id_ = std::exchange(other.id_, -1);
            close_ = other.close_;
        }
        return *this;
    }
    [[nodiscard]] hid_t get() const noexcept { return id_; }
    [[nodiscard]] bool ok() const noexcept { return id_ >= 0; }

private:
    hid_t id_;
    herr_t (*close_)(hid_t);
};

// Errors become Results, not stderr: once per thread (HDF5's error stack is per thread).
void quietHdf5() {
    thread_local bool quiet = false;
    if (quiet) return;
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    quiet = true;
}

std::string wavePath(int index) { return fmt::format("wave_{:04d}", index + 1); }

// ---- writing, in USTB's layout: every property a dataset or a group, arrays with "complex" = 0.
Status writeStringAttribute(hid_t object, const char* name, const std::string& value) {
    // Variable-length UTF-8, as h5py writes strings: they read back as str, not bytes.
    Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(type.get(), H5T_VARIABLE);
    H5Tset_cset(type.get(), H5T_CSET_UTF8);
    Handle space(H5Screate(H5S_SCALAR), H5Sclose);
    Handle attribute(H5Acreate2(object, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
    const char* text = value.c_str();
    if (!attribute.ok() || H5Awrite(attribute.get(), type.get(), &text) < 0) {
        return fail(ErrorCode::DataLoss, fmt::format("cannot write attribute {}", name));
    }
    return {};
}

Status writeIntAttribute(hid_t object, const char* name, std::vector<int> values) {
    const hsize_t dims[1] = {values.size()};
    Handle space(values.size() == 1 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, dims, nullptr), H5Sclose);
    Handle attribute(H5Acreate2(object, name, H5T_NATIVE_INT, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
    if (!attribute.ok() || H5Awrite(attribute.get(), H5T_NATIVE_INT, values.data()) < 0) {
        return fail(ErrorCode::DataLoss, fmt::format("cannot write attribute {}", name));
    }
    return {};
}

Status writeArray(hid_t parent, const char* name, hid_t memoryType, hid_t fileType, std::vector<hsize_t> dims, const void* values) {
    Handle space(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), H5Sclose);
    Handle dataset(H5Dcreate2(parent, name, fileType, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Dclose);
    if (!dataset.ok() || H5Dwrite(dataset.get(), memoryType, H5S_ALL, H5S_ALL, H5P_DEFAULT, values) < 0) {
        return fail(ErrorCode::DataLoss, fmt::format("cannot write dataset {} (disk full?)", name));
    }
    return writeIntAttribute(dataset.get(), "complex", {0});
}

Status writeScalar(hid_t parent, const char* name, double value) {
    return writeArray(parent, name, H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, {1, 1}, &value);
}

Status writePoint(hid_t parent, const char* name, double distance, double azimuth) {
    Handle group(H5Gcreate2(parent, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
    if (!group.ok()) return fail(ErrorCode::DataLoss, fmt::format("cannot create group {}", name));
    if (auto ok = writeStringAttribute(group.get(), "class", "uff.point"); !ok) return ok;
    if (auto ok = writeScalar(group.get(), "distance", distance); !ok) return ok;
    if (auto ok = writeScalar(group.get(), "azimuth", azimuth); !ok) return ok;
    return writeScalar(group.get(), "elevation", 0.0);
}

// USTB's uff.wavefront: plane 0, spherical 1 (focused or diverging: a finite source distance).
constexpr int kPlaneWavefront = 0, kSphericalWavefront = 1;

Status writeWave(hid_t wave, double angle, double sourceDistance, double soundSpeed) {
    if (auto ok = writeStringAttribute(wave, "class", "uff.wave"); !ok) return ok;
    const int wavefront = std::isinf(sourceDistance) ? kPlaneWavefront : kSphericalWavefront;
    if (auto ok = writeArray(wave, "wavefront", H5T_NATIVE_INT, H5T_STD_I32LE, {1, 1}, &wavefront); !ok) return ok;
    if (auto ok = writePoint(wave, "source", sourceDistance, angle); !ok) return ok;
    if (auto ok = writePoint(wave, "origin", 0, 0); !ok) return ok;
    if (auto ok = writeScalar(wave, "delay", 0.0); !ok) return ok;
    return writeScalar(wave, "sound_speed", soundSpeed);
}

// ---- reading
Result<Handle> openDataset(hid_t parent, const std::string& name, const std::string& where) {
    if (H5Lexists(parent, name.c_str(), H5P_DEFAULT) <= 0) return fail(ErrorCode::NotFound, fmt::format("{}: dataset '{}' is missing", where, name));
    Handle dataset(H5Dopen2(parent, name.c_str(), H5P_DEFAULT), H5Dclose);
    if (!dataset.ok()) return fail(ErrorCode::InvalidArgument, fmt::format("{}: '{}' is not a dataset (a group of 'real' and 'imag' is IQ data, which needs a modulation frequency)", where, name));
    return dataset;
}

Result<std::vector<hsize_t>> dimensions(hid_t dataset) {
    Handle space(H5Dget_space(dataset), H5Sclose);
    const int rank = H5Sget_simple_extent_ndims(space.get());
    std::vector<hsize_t> dims(static_cast<std::size_t>(std::max(rank, 0)));
    if (rank > 0) H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
    return dims;
}

// A data set stored as numbers: integers or floats of at most 8 bytes. A corrupt type (one of
// 4 GB elements, found by fuzz_uff) would make HDF5 allocate its size to convert one value.
Status checkNumberType(hid_t dataset, const std::string& name, const std::string& where) {
    Handle type(H5Dget_type(dataset), H5Tclose);
    const auto kind = H5Tget_class(type.get());
    const auto size = H5Tget_size(type.get());
    // And a standard one: every bit of it used, from bit 0 (a corrupt precision or offset made
    // HDF5's conversion read past its buffer, found by fuzz_uff).
    const bool standard = size > 0 && size <= 8 && H5Tget_precision(type.get()) == 8 * size && H5Tget_offset(type.get()) == 0;
    if ((kind != H5T_INTEGER && kind != H5T_FLOAT) || !standard) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{}: '{}' is not stored as numbers (type class {}, {} bytes a value)", where, name,
                                                            static_cast<int>(kind), size));
    }
    return {};
}

Result<std::vector<double>> readDoubles(hid_t parent, const std::string& name, const std::string& where) {
    auto dataset = openDataset(parent, name, where);
    if (!dataset) return fail(std::move(dataset.error()));
    if (auto ok = checkNumberType(dataset->get(), name, where); !ok) return fail(std::move(ok.error()));
    auto dims = dimensions(dataset->get());
    {  // compact or contiguous: the bytes stored must hold every value (a corrupt size made HDF5 copy from nowhere, found by fuzz_uff)
        Handle plist(H5Dget_create_plist(dataset->get()), H5Pclose);
        Handle type(H5Dget_type(dataset->get()), H5Tclose);
        hsize_t values = 1;
        for (auto d : *dims) values = d > 0 && values > (hsize_t{1} << 24) / d ? (hsize_t{1} << 24) + 1 : values * d;
        const auto layout = H5Pget_layout(plist.get());
        if ((layout == H5D_COMPACT || layout == H5D_CONTIGUOUS) && values <= (hsize_t{1} << 24) &&
            H5Dget_storage_size(dataset->get()) < values * H5Tget_size(type.get())) {
            return fail(ErrorCode::InvalidArgument, fmt::format("{}: '{}' stores fewer bytes than its {} values need", where, name, values));
        }
    }
    hsize_t count = 1;
    for (auto d : *dims) count = d > 0 && count > (hsize_t{1} << 24) / d ? (hsize_t{1} << 24) + 1 : count * d;
    if (count > (hsize_t{1} << 24)) return fail(ErrorCode::InvalidArgument, fmt::format("{}: '{}' declares more values than any UFF field holds", where, name));
    std::vector<double> values(count);
    if (count > 0 && H5Dread(dataset->get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) < 0) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{}: '{}' cannot be read as numbers", where, name));
    }
    return values;
}

Result<double> readScalar(hid_t parent, const std::string& name, const std::string& where) {
    auto values = readDoubles(parent, name, where);
    if (!values) return fail(std::move(values.error()));
    if (values->size() != 1) return fail(ErrorCode::InvalidArgument, fmt::format("{}: '{}' holds {} values, expected one", where, name, values->size()));
    return values->front();
}

struct WaveSource {
    double azimuth = 0;
    double distance = std::numeric_limits<double>::infinity();  // +inf: a plane wave
};

Result<WaveSource> readWaveSource(hid_t wave, const std::string& where) {
    std::optional<double> wavefront;
    if (H5Lexists(wave, "wavefront", H5P_DEFAULT) > 0) {
        auto read = readScalar(wave, "wavefront", where);
        if (!read) return fail(std::move(read.error()));
        wavefront = *read;
        if (*wavefront != kPlaneWavefront && *wavefront != kSphericalWavefront) {
            return fail(ErrorCode::Unimplemented, fmt::format("{}: wavefront {} is neither plane (0) nor spherical (1)", where, *wavefront));
        }
    }
    if (H5Lexists(wave, "source", H5P_DEFAULT) <= 0) return fail(ErrorCode::NotFound, fmt::format("{}: 'source' is missing", where));
    Handle group(H5Gopen2(wave, "source", H5P_DEFAULT), H5Gclose);
    WaveSource source;
    auto azimuth = readScalar(group.get(), "azimuth", where + "/source");
    if (!azimuth) return fail(std::move(azimuth.error()));
    source.azimuth = *azimuth;
    if (wavefront == kPlaneWavefront) return source;  // the distance of a plane wave's source does not matter
    auto distance = readScalar(group.get(), "distance", where + "/source");
    if (!distance) return fail(std::move(distance.error()));
    if (std::isnan(*distance) || *distance == 0 || (wavefront == kSphericalWavefront && std::isinf(*distance))) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{}/source: distance {} does not place a focus or virtual source", where, *distance));
    }
    source.distance = *distance;
    return source;
}

// Everything but "data" (the stream writer adds that frame by frame).
Status writeUffMetadata(hid_t g, const UffChannelData& d, const std::string& where) {
    auto step = [&](Status s) -> Status { return s ? s : fail(std::move(s.error()).addContext("writing " + where)); };
    if (!d.geometry.sourceDistance.empty() && d.geometry.sourceDistance.size() != static_cast<std::size_t>(d.geometry.waves)) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{} source distances for {} waves", d.geometry.sourceDistance.size(), d.geometry.waves));
    }
    if (auto ok = step(writeStringAttribute(g, "class", "uff.channel_data")); !ok) return ok;
    if (auto ok = step(writeStringAttribute(g, "name", "SonoLink recording")); !ok) return ok;
    if (auto ok = step(writeScalar(g, "sampling_frequency", d.geometry.samplingRateHz)); !ok) return ok;
    if (auto ok = step(writeScalar(g, "initial_time", d.geometry.initialTimeS)); !ok) return ok;
    if (auto ok = step(writeScalar(g, "sound_speed", d.geometry.soundSpeedMps)); !ok) return ok;
    if (auto ok = step(writeScalar(g, "modulation_frequency", d.modulationFrequencyHz)); !ok) return ok;
    {
        Handle probe(H5Gcreate2(g, "probe", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
        if (auto ok = step(writeStringAttribute(probe.get(), "class", "uff.linear_array")); !ok) return ok;
        const auto n = d.geometry.elementX.size();
        std::vector<double> geometry(7 * n, 0.0);  // rows: x, y, z, theta, phi, width, height
        for (std::size_t e = 0; e < n; ++e) {
            geometry[e] = d.geometry.elementX[e];
            geometry[5 * n + e] = d.geometry.elementWidthM;
            geometry[6 * n + e] = d.geometry.elementHeightM;
        }
        if (auto ok = step(writeArray(probe.get(), "geometry", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, {7, n}, geometry.data())); !ok) return ok;
        if (auto ok = step(writePoint(probe.get(), "origin", 0, 0)); !ok) return ok;
    }
    Handle sequence(H5Gcreate2(g, "sequence", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
    const auto distance = [&](int w) {
        return d.geometry.sourceDistance.empty() ? std::numeric_limits<double>::infinity() : d.geometry.sourceDistance[static_cast<std::size_t>(w)];
    };
    if (d.geometry.waves == 1) return step(writeWave(sequence.get(), d.geometry.angleRad[0], distance(0), d.geometry.soundSpeedMps));  // a 1x1 list is the object itself
    if (auto ok = step(writeIntAttribute(sequence.get(), "size", {1, d.geometry.waves})); !ok) return ok;
    for (int w = 0; w < d.geometry.waves; ++w) {
        Handle wave(H5Gcreate2(sequence.get(), wavePath(w).c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
        if (auto ok = step(writeWave(wave.get(), d.geometry.angleRad[static_cast<std::size_t>(w)], distance(w), d.geometry.soundSpeedMps)); !ok) return ok;
    }
    return {};
}

}  // namespace

Result<beamform::ChannelDataView> UffChannelData::frame(int index) const {
    if (index < 0 || index >= frames) return fail(ErrorCode::InvalidArgument, fmt::format("frame {} of {}", index, frames));
    const auto perFrame = geometry.samplesPerFrame();
    beamform::ChannelDataView view{&geometry, {}, {}};
    if (!data16.empty()) view.samples16 = std::span<const std::int16_t>(data16).subspan(static_cast<std::size_t>(index) * perFrame, perFrame);
    else if (!dataFloat.empty()) view.samples = std::span<const float>(dataFloat).subspan(static_cast<std::size_t>(index) * perFrame, perFrame);
    if (auto ok = isIq() ? geometry.validate() : view.validate(); !ok) return fail(std::move(ok.error()));
    return view;
}

std::span<const std::complex<float>> UffChannelData::iqFrame(int index) const {
    const auto perFrame = geometry.samplesPerFrame();
    if (!isIq() || index < 0 || index >= frames) return {};
    return std::span<const std::complex<float>>(dataIq).subspan(static_cast<std::size_t>(index) * perFrame, perFrame);
}

Status writeUffChannelData(const std::string& path, const UffChannelData& d, const std::string& group) {
    quietHdf5();
    const auto expected = static_cast<std::size_t>(d.frames) * static_cast<std::size_t>(d.geometry.waves) * static_cast<std::size_t>(d.geometry.channels) * static_cast<std::size_t>(d.geometry.samples);
    const auto held = d.data16.empty() ? d.dataFloat.size() : d.data16.size();
    if (held != expected || d.geometry.elementX.size() != static_cast<std::size_t>(d.geometry.channels) || d.geometry.angleRad.size() != static_cast<std::size_t>(d.geometry.waves)) {
        return fail(ErrorCode::InvalidArgument, fmt::format("inconsistent channel data: {} samples for {} frames x {} waves x {} channels x {} samples, {} elements, {} angles",
                                                            held, d.frames, d.geometry.waves, d.geometry.channels, d.geometry.samples, d.geometry.elementX.size(), d.geometry.angleRad.size()));
    }
    const bool exists = std::filesystem::exists(path);
    Handle file(exists ? H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT) : H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
    if (!file.ok()) return fail(ErrorCode::Unavailable, fmt::format("cannot {} HDF5 file {}", exists ? "open" : "create", path));
    if (H5Lexists(file.get(), group.c_str(), H5P_DEFAULT) > 0) H5Ldelete(file.get(), group.c_str(), H5P_DEFAULT);
    Handle g(H5Gcreate2(file.get(), group.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
    if (!g.ok()) return fail(ErrorCode::DataLoss, fmt::format("{}: cannot create group {}", path, group));
    auto step = [&](Status s) -> Status { return s ? s : fail(std::move(s.error()).addContext("writing " + path + group)); };
    if (auto ok = step(writeUffMetadata(g.get(), d, path + group)); !ok) return ok;
    const std::vector<hsize_t> dims{static_cast<hsize_t>(d.frames), static_cast<hsize_t>(d.geometry.waves), static_cast<hsize_t>(d.geometry.channels), static_cast<hsize_t>(d.geometry.samples)};
    return step(d.data16.empty() ? writeArray(g.get(), "data", H5T_NATIVE_FLOAT, H5T_IEEE_F32LE, dims, d.dataFloat.data())
                                 : writeArray(g.get(), "data", H5T_NATIVE_INT16, H5T_STD_I16LE, dims, d.data16.data()));
}

namespace {

std::uint64_t defaultMemoryBudget() {
    const long pages = ::sysconf(_SC_PHYS_PAGES), pageSize = ::sysconf(_SC_PAGE_SIZE);
    return pages > 0 && pageSize > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(pageSize) / 2 : (4ull << 30);
}

// The physical values a recording must have before anything is computed from them.
Status checkPhysics(const UffChannelData& d, const std::string& where) {
    const auto& g = d.geometry;
    auto bad = [&](const char* name, double value, const char* allowed) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{}: {} is {:g}, {}", where, name, value, allowed));
    };
    if (!std::isfinite(g.samplingRateHz) || g.samplingRateHz <= 0 || g.samplingRateHz > 10e9) return bad("sampling_frequency", g.samplingRateHz, "not a sampling rate (0 to 10 GHz)");
    if (!std::isfinite(g.soundSpeedMps) || g.soundSpeedMps < 100 || g.soundSpeedMps > 20000) return bad("sound_speed", g.soundSpeedMps, "not a speed of sound (100 to 20000 m/s)");
    if (!std::isfinite(g.initialTimeS) || std::abs(g.initialTimeS) > 1) return bad("initial_time", g.initialTimeS, "not a time of flight (within 1 s)");
    if (!std::isfinite(d.modulationFrequencyHz) || d.modulationFrequencyHz < 0 || d.modulationFrequencyHz > 10e9) {
        return bad("modulation_frequency", d.modulationFrequencyHz, "not a frequency (0 to 10 GHz)");
    }
    return {};
}

// The first non-finite sample of float data, named by frame, wave, channel and sample.
template <typename T>
Status checkFinite(const std::vector<T>& samples, const UffChannelData& d, const std::string& where) {
    const auto bad = std::find_if(samples.begin(), samples.end(), [](const T& v) {
        if constexpr (std::is_same_v<T, std::complex<float>>) return !std::isfinite(v.real()) || !std::isfinite(v.imag());
        else return !std::isfinite(v);
    });
    if (bad == samples.end()) return {};
    auto at = static_cast<std::size_t>(bad - samples.begin());
    const auto s = at % static_cast<std::size_t>(d.geometry.samples);
    at /= static_cast<std::size_t>(d.geometry.samples);
    const auto c = at % static_cast<std::size_t>(d.geometry.channels);
    at /= static_cast<std::size_t>(d.geometry.channels);
    const auto w = at % static_cast<std::size_t>(d.geometry.waves);
    const auto f = at / static_cast<std::size_t>(d.geometry.waves) + static_cast<std::size_t>(d.firstFrame);
    return fail(ErrorCode::InvalidArgument, fmt::format("{}: data holds a sample that is no number (NaN or infinite) in frame {}, wave {}, channel {}, "
                                                        "sample {}", where, f, w, c, s));
}

// Every stored chunk of frames [first, first + count) has the size its layout implies, where
// that is knowable (no filter but Fletcher-32, as we and USTB write): a corrupt chunk index
// that states another size makes HDF5 1.10 copy past its buffers (found by fuzz_uff), so such a
// file is refused before it is read. Compressed data sets (sizes vary) are left to HDF5.
Status checkChunkSizes(hid_t dataset, const std::vector<hsize_t>& dims, hsize_t first, hsize_t count, const std::string& where) {
    Handle plist(H5Dget_create_plist(dataset), H5Pclose);
    if (H5Pget_layout(plist.get()) != H5D_CHUNKED) return {};
    const int rank = static_cast<int>(dims.size());
    std::vector<hsize_t> chunk(dims.size(), 0);
    if (H5Pget_chunk(plist.get(), rank, chunk.data()) != rank) return fail(ErrorCode::DataLoss, fmt::format("{}: data has a damaged chunk layout", where));
    bool fletcher = false;
    for (int i = 0, n = H5Pget_nfilters(plist.get()); i < n; ++i) {
        unsigned flags = 0;
        std::size_t elements = 0;
        const auto filter = H5Pget_filter2(plist.get(), static_cast<unsigned>(i), &flags, &elements, nullptr, 0, nullptr, nullptr);
        if (filter != H5Z_FILTER_FLETCHER32) return {};
        fletcher = true;
    }
    Handle type(H5Dget_type(dataset), H5Tclose);
    hsize_t expected = H5Tget_size(type.get());
    for (auto c : chunk) {
        if (c == 0) return fail(ErrorCode::DataLoss, fmt::format("{}: data has a damaged chunk layout", where));
        expected *= c;
    }
    if (fletcher) expected += 4;
    std::vector<hsize_t> at(dims.size(), 0);
    const std::size_t frameAxis = dims.size() == 4 ? 1 : 0;  // the axes after the frame axis (all of them for 2-/3-d data)
    const hsize_t lastFrame = dims.size() == 4 ? first + count : 1;
    for (hsize_t f = dims.size() == 4 ? first : 0; f < lastFrame; f += dims.size() == 4 ? chunk[0] : 1) {
        if (dims.size() == 4) at[0] = f - f % chunk[0];
        // Every chunk of the frame: odometer over the remaining axes in chunk steps.
        std::fill(at.begin() + static_cast<std::ptrdiff_t>(frameAxis), at.end(), 0);
        for (;;) {
            unsigned mask = 0;
            haddr_t address = HADDR_UNDEF;
            hsize_t size = 0;
            if (H5Dget_chunk_info_by_coord(dataset, at.data(), &mask, &address, &size) >= 0 && address != HADDR_UNDEF && size != expected) {
                return fail(ErrorCode::DataLoss, fmt::format("{}: frame {} is damaged: a chunk of its data is stored as {} bytes, not {}", where,
                                                             dims.size() == 4 ? f : 0, size, expected));
            }
            std::size_t axis = dims.size();
            while (axis > frameAxis) {
                --axis;
                at[axis] += chunk[axis];
                if (at[axis] < dims[axis]) break;
                at[axis] = 0;
                if (axis == frameAxis) break;
            }
            if (axis == frameAxis && at[axis] == 0) break;
        }
    }
    return {};
}

// Reads frames [first, first + count) of the 4-d (or 2-/3-d, one frame) data set into out.
herr_t readFrames(hid_t dataset, hid_t memoryType, const std::vector<hsize_t>& dims, hsize_t first, hsize_t count, void* out) {
    Handle fileSpace(H5Dget_space(dataset), H5Sclose);
    std::vector<hsize_t> start(dims.size(), 0), extent = dims;
    if (dims.size() == 4) {
        start[0] = first;
        extent[0] = count;
    }
    if (H5Sselect_hyperslab(fileSpace.get(), H5S_SELECT_SET, start.data(), nullptr, extent.data(), nullptr) < 0) return -1;
    hsize_t total = 1;
    for (auto e : extent) total *= e;
    Handle memorySpace(H5Screate_simple(1, &total, nullptr), H5Sclose);
    return H5Dread(dataset, memoryType, memorySpace.get(), fileSpace.get(), H5P_DEFAULT, out);
}

}  // namespace

Result<UffChannelData> readUffChannelData(const std::string& path, const std::string& group, const UffReadOptions& options) {
    quietHdf5();
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return fail(ErrorCode::NotFound, fmt::format("no such file: {}", path));
    Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
    if (!file.ok()) return fail(ErrorCode::InvalidArgument, fmt::format("{} is not an HDF5 file", path));
    if (H5Lexists(file.get(), group.c_str(), H5P_DEFAULT) <= 0) return fail(ErrorCode::NotFound, fmt::format("{}: no group {}", path, group));
    Handle g(H5Gopen2(file.get(), group.c_str(), H5P_DEFAULT), H5Gclose);
    const std::string where = path + ":" + group;
    UffChannelData d;
    for (auto [name, out] : {std::pair{"sampling_frequency", &d.geometry.samplingRateHz}, std::pair{"initial_time", &d.geometry.initialTimeS},
                             std::pair{"sound_speed", &d.geometry.soundSpeedMps}, std::pair{"modulation_frequency", &d.modulationFrequencyHz}}) {
        auto value = readScalar(g.get(), name, where);
        if (!value) return fail(std::move(value.error()));
        *out = *value;
    }
    if (auto ok = checkPhysics(d, where); !ok) return fail(std::move(ok.error()));
    // data: frames x waves x channels x samples (USTB's [samples x channels x waves x frames] seen
    // from HDF5). RF is a dataset; IQ (modulation frequency > 0) a group of "real" and "imag".
    const bool iq = d.modulationFrequencyHz != 0;
    if (H5Lexists(g.get(), "data", H5P_DEFAULT) <= 0) return fail(ErrorCode::NotFound, fmt::format("{}: dataset 'data' is missing", where));
    Handle iqGroup(iq ? H5Gopen2(g.get(), "data", H5P_DEFAULT) : H5I_INVALID_HID, H5Gclose);
    if (iq && !iqGroup.ok()) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{}: modulation frequency {} Hz, but 'data' is not a group of 'real' and 'imag' (IQ)", where, d.modulationFrequencyHz));
    }
    const hid_t dataParent = iq ? iqGroup.get() : g.get();
    const std::string dataWhere = iq ? where + "/data" : where;
    auto dataset = openDataset(dataParent, iq ? "real" : "data", dataWhere);
    if (!dataset) return fail(std::move(dataset.error()));
    auto dims = dimensions(dataset->get());
    std::vector<hsize_t> full(4, 1);
    if (dims->size() < 2 || dims->size() > 4) return fail(ErrorCode::InvalidArgument, fmt::format("{}: data has rank {}, expected 2 to 4", where, dims->size()));
    std::copy(dims->begin(), dims->end(), full.end() - static_cast<std::ptrdiff_t>(dims->size()));
    // Sizes a recording can have, checked before anything is allocated from them.
    constexpr hsize_t kMaxFrames = 1u << 30, kMaxWaves = 4096, kMaxChannels = 8192, kMaxSamples = 1u << 22;
    if (full[0] > kMaxFrames || full[1] > kMaxWaves || full[2] > kMaxChannels || full[3] > kMaxSamples || full[1] * full[2] * full[3] == 0) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{}: data declares {} frames x {} waves x {} channels x {} samples: no recording is that "
                                                            "shape (at most {} x {} x {} x {}, none zero)",
                                                            where, full[0], full[1], full[2], full[3], kMaxFrames, kMaxWaves, kMaxChannels, kMaxSamples));
    }
    d.framesInFile = static_cast<int>(full[0]);
    if (options.firstFrame < 0 || (options.firstFrame > 0 && options.firstFrame >= d.framesInFile)) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{}: frame {} asked for; the file holds {} frames", where, options.firstFrame, d.framesInFile));
    }
    d.firstFrame = options.firstFrame;
    const int left = d.framesInFile - d.firstFrame;
    d.frames = options.frameCount < 0 ? left : std::min(options.frameCount, left);
    d.geometry.waves = static_cast<int>(full[1]);
    d.geometry.channels = static_cast<int>(full[2]);
    d.geometry.samples = static_cast<int>(full[3]);
    const auto count = static_cast<hsize_t>(d.frames) * full[1] * full[2] * full[3];
    if (auto ok = checkNumberType(dataset->get(), iq ? "data/real" : "data", where); !ok) return fail(std::move(ok.error()));
    Handle type(H5Dget_type(dataset->get()), H5Tclose);
    const bool int16 = !iq && H5Tget_class(type.get()) == H5T_INTEGER && H5Tget_size(type.get()) == 2;
    const std::uint64_t bytes = count * (iq ? 16u : int16 ? 2u : 4u);  // IQ: the real and imaginary parts read, then paired
    const std::uint64_t budget = options.memoryBudgetBytes ? options.memoryBudgetBytes : defaultMemoryBudget();
    if (bytes > budget) {
        return fail(ErrorCode::ResourceExhausted, fmt::format("{}: {} frames of {} x {} x {} samples need {:.2f} GB, more than the {:.2f} GB this read "
                                                              "may take: read fewer frames at a time", where, d.frames, full[1], full[2], full[3],
                                                              static_cast<double>(bytes) / 1e9, static_cast<double>(budget) / 1e9));
    }
    const auto first = static_cast<hsize_t>(d.firstFrame), frameCount = static_cast<hsize_t>(d.frames);
    if (auto ok = checkChunkSizes(dataset->get(), *dims, first, frameCount, where); !ok) return fail(std::move(ok.error()));
    herr_t status = 0;
    if (iq) {
        auto imag = openDataset(dataParent, "imag", dataWhere);
        if (!imag) return fail(std::move(imag.error()));
        if (auto ok = checkNumberType(imag->get(), "data/imag", where); !ok) return fail(std::move(ok.error()));
        if (*dimensions(imag->get()) != *dims) return fail(ErrorCode::InvalidArgument, fmt::format("{}/data: 'real' and 'imag' differ in shape", where));
        std::vector<float> re(count), im(count);
        status = readFrames(dataset->get(), H5T_NATIVE_FLOAT, *dims, first, frameCount, re.data());
        if (status >= 0) status = readFrames(imag->get(), H5T_NATIVE_FLOAT, *dims, first, frameCount, im.data());
        d.dataIq.resize(count);
        for (std::size_t i = 0; i < count; ++i) d.dataIq[i] = {re[i], im[i]};
    } else if (int16) {
        d.data16.resize(count);
        status = readFrames(dataset->get(), H5T_NATIVE_INT16, *dims, first, frameCount, d.data16.data());
    } else {
        d.dataFloat.resize(count);
        status = readFrames(dataset->get(), H5T_NATIVE_FLOAT, *dims, first, frameCount, d.dataFloat.data());
    }
    if (status < 0) {
        // Which frame: read them one at a time (rare: only a file that fails is read twice).
        if (H5Pget_nfilters(Handle(H5Dget_create_plist(dataset->get()), H5Pclose).get()) > 0) {
            std::vector<std::byte> one(bytes / std::max<hsize_t>(frameCount, 1));
            for (hsize_t f = 0; f < frameCount; ++f) {
                if (readFrames(dataset->get(), int16 ? H5T_NATIVE_INT16 : H5T_NATIVE_FLOAT, *dims, first + f, 1, one.data()) < 0) {
                    return fail(ErrorCode::DataLoss, fmt::format("{}: frame {} fails its checksum (Fletcher-32): the file is damaged there", where,
                                                                 first + f));
                }
            }
        }
        return fail(ErrorCode::InvalidArgument, fmt::format("{}: data cannot be read as samples", where));
    }
    if (auto ok = iq ? checkFinite(d.dataIq, d, where) : checkFinite(d.dataFloat, d, where); !ok) return fail(std::move(ok.error()));
    // probe geometry: 7 x N (x, y, z, theta, phi, width, height).
    if (H5Lexists(g.get(), "probe", H5P_DEFAULT) <= 0) return fail(ErrorCode::NotFound, fmt::format("{}: 'probe' is missing", where));
    Handle probe(H5Gopen2(g.get(), "probe", H5P_DEFAULT), H5Gclose);
    auto geometry = readDoubles(probe.get(), "geometry", where + "/probe");
    if (!geometry) return fail(std::move(geometry.error()));
    if (geometry->size() != 7u * static_cast<std::size_t>(d.geometry.channels)) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{}/probe: geometry holds {} values; {} channels need 7 x {}", where, geometry->size(), d.geometry.channels, d.geometry.channels));
    }
    d.geometry.elementX.assign(geometry->begin(), geometry->begin() + d.geometry.channels);
    d.geometry.elementWidthM = (*geometry)[5u * static_cast<std::size_t>(d.geometry.channels)];
    d.geometry.elementHeightM = (*geometry)[6u * static_cast<std::size_t>(d.geometry.channels)];
    // sequence: one wave object, or a list of them (attribute size = [1, n]).
    if (H5Lexists(g.get(), "sequence", H5P_DEFAULT) <= 0) return fail(ErrorCode::NotFound, fmt::format("{}: 'sequence' is missing", where));
    Handle sequence(H5Gopen2(g.get(), "sequence", H5P_DEFAULT), H5Gclose);
    int listed = 0;
    if (H5Aexists(sequence.get(), "size") > 0) {
        Handle attribute(H5Aopen(sequence.get(), "size", H5P_DEFAULT), H5Aclose);
        Handle space(H5Aget_space(attribute.get()), H5Sclose);
        const auto n = H5Sget_simple_extent_npoints(space.get());
        Handle sizeType(H5Aget_type(attribute.get()), H5Tclose);
        const auto kind = H5Tget_class(sizeType.get());
        if (n < 1 || n > 16 || (kind != H5T_INTEGER && kind != H5T_FLOAT) || H5Tget_size(sizeType.get()) > 8) {
            return fail(ErrorCode::InvalidArgument, fmt::format("{}/sequence: its size attribute is not a short list of numbers", where));
        }
        std::vector<double> size(static_cast<std::size_t>(n));
        if (H5Aread(attribute.get(), H5T_NATIVE_DOUBLE, size.data()) < 0) {
            return fail(ErrorCode::InvalidArgument, fmt::format("{}/sequence: its size attribute cannot be read as numbers", where));
        }
        const double waves = size.size() >= 2 ? size[1] : 0;
        if (!std::isfinite(waves) || waves < 0 || waves > 4096) {
            return fail(ErrorCode::InvalidArgument, fmt::format("{}/sequence: its size attribute lists {:g} waves", where, waves));
        }
        listed = static_cast<int>(waves);
    }
    if (listed > 1) {
        for (int w = 0; w < listed; ++w) {
            const auto name = wavePath(w);
            if (H5Lexists(sequence.get(), name.c_str(), H5P_DEFAULT) <= 0) return fail(ErrorCode::NotFound, fmt::format("{}/sequence: '{}' is missing", where, name));
            Handle wave(H5Gopen2(sequence.get(), name.c_str(), H5P_DEFAULT), H5Gclose);
            auto source = readWaveSource(wave.get(), where + "/sequence/" + name);
            if (!source) return fail(std::move(source.error()));
            d.geometry.angleRad.push_back(source->azimuth);
            d.geometry.sourceDistance.push_back(source->distance);
        }
    } else {
        auto source = readWaveSource(sequence.get(), where + "/sequence");
        if (!source) return fail(std::move(source.error()));
        d.geometry.angleRad.push_back(source->azimuth);
        d.geometry.sourceDistance.push_back(source->distance);
    }
    if (std::all_of(d.geometry.sourceDistance.begin(), d.geometry.sourceDistance.end(), [](double s) { return std::isinf(s); })) d.geometry.sourceDistance.clear();
    if (static_cast<int>(d.geometry.angleRad.size()) != d.geometry.waves) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{}: the sequence has {} waves but the data {}", where, d.geometry.angleRad.size(), d.geometry.waves));
    }
    return d;
}



// ---- UffStreamWriter

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

constexpr std::size_t kReserveBytes = 4 << 20;  // room to close a recording on a full disk

struct UffStreamWriter::State {
    std::string path;
    std::string reservePath;
    UffChannelData metadata;
    Handle file{-1, H5Fclose};
    Handle group{-1, H5Gclose};
    Handle data{-1, H5Dclose};
    int frames = 0;          // in the data set (the last one may be partly written)
    int wholeFrames = 0;     // written whole
    int durableFrames = 0;   // on the disk: whole at the last flush that succeeded
    bool broken = false;     // a write or flush failed
    std::chrono::steady_clock::time_point lastFlush = std::chrono::steady_clock::now();
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
    // The file's skeleton on the disk before the first frame: a crash from now on leaves a file
    // that opens (its metadata is only ever written whole, at flushes).
    if (H5Fflush(s.file.get(), H5F_SCOPE_GLOBAL) < 0) return fail(ErrorCode::DataLoss, fmt::format("{}: cannot write the new recording", path));
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
    auto made = prepare(*state, metadata, group);
    if (!made) {  // what this call created goes again; nothing else is touched
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

Status UffStreamWriter::beginFrame() {
    quietHdf5();  // the recorder's thread, not the one that created the writer
    auto& s = *state_;
    const hsize_t dims[4] = {static_cast<hsize_t>(s.frames + 1), static_cast<hsize_t>(s.metadata.geometry.waves),
                             static_cast<hsize_t>(s.metadata.geometry.channels), static_cast<hsize_t>(s.metadata.geometry.samples)};
    if (H5Dset_extent(s.data.get(), dims) < 0) {
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
    if (H5Fflush(s.file.get(), H5F_SCOPE_GLOBAL) < 0) {
        const int failedAt = s.wholeFrames - 1;
        brokenAt(s);
        return fail(ErrorCode::DataLoss, fmt::format("{}: writing to the disk failed after frame {}: {}", s.path, failedAt,
                                                     errno == ENOSPC ? "the disk is full" : std::strerror(errno)));
    }
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
        if (H5Dset_extent(s.data.get(), dims) < 0) closed = fail(ErrorCode::DataLoss, fmt::format("{}: cannot drop the partial frame", s.path));
        s.frames = s.wholeFrames;
    }
    if (H5Fflush(s.file.get(), H5F_SCOPE_GLOBAL) < 0 && closed) closed = fail(ErrorCode::DataLoss, fmt::format("{}: flush failed (disk full?)", s.path));
    s.data = Handle(-1, H5Dclose);
    s.group = Handle(-1, H5Gclose);
    s.file = Handle(-1, H5Fclose);
    return closed;
}

}  // namespace sonolink::record
