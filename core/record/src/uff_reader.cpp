#include "sonolink/record/uff_reader.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <type_traits>
#include <vector>

#include <fmt/format.h>
#include <hdf5.h>

#include "frame_places.h"
#include "sonolink/record/recording_recovery.h"
#include "range_driver.h"
#include "uff_hdf5.h"

namespace sonolink::record {
namespace {

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
    bool photoacoustic = false;                                  // USTB's wavefront 2: no source, received only
};

Result<WaveSource> readWaveSource(hid_t wave, const std::string& where) {
    std::optional<double> wavefront;
    if (H5Lexists(wave, "wavefront", H5P_DEFAULT) > 0) {
        auto read = readScalar(wave, "wavefront", where);
        if (!read) return fail(std::move(read.error()));
        wavefront = *read;
        if (*wavefront == kPhotoacousticWavefront) return WaveSource{0, std::numeric_limits<double>::infinity(), true};  // its source is ignored (USTB)
        if (*wavefront != kPlaneWavefront && *wavefront != kSphericalWavefront) {
            return fail(ErrorCode::Unimplemented, fmt::format("{}: wavefront {} is neither plane (0), spherical (1) nor photoacoustic (2)", where, *wavefront));
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
            const bool known = H5Dget_chunk_info_by_coord(dataset, at.data(), &mask, &address, &size) >= 0;
            if (known && fletcher && address == HADDR_UNDEF) {  // as we record: every chunk of a frame is written
                return fail(ErrorCode::DataLoss, fmt::format("{}: frame {} was never written whole: the recording was cut while it was being flushed "
                                                             "to the disk; `sonolink-cli recording recover` keeps the frames before it", where,
                                                             dims.size() == 4 ? f : 0));
            }
            if (known && address != HADDR_UNDEF && size != expected) {
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
    // The memory space the selection's own shape: HDF5 then copies whole runs; a flat one made it
    // map every sample to its chunk one at a time (8 ms for a 0.4 MB frame).
    Handle memorySpace(H5Screate_simple(static_cast<int>(extent.size()), extent.data(), nullptr), H5Sclose);
    return H5Dread(dataset, memoryType, memorySpace.get(), fileSpace.get(), H5P_DEFAULT, out);
}

}  // namespace

// The items of an object list (a group whose size attribute says n > 1), in the order of their
// numeric suffix, whatever they are called before it: USTB and pyuff_ustb name them after the
// property (sequence_0001, ...), SonoLink before 0.2 wave_0001, .... Exactly n items, each a
// group with a distinct number, or InvalidArgument naming what is there.
Result<std::vector<std::string>> listItems(hid_t list, int n, const std::string& where) {
    std::vector<std::string> names;
    hsize_t index = 0;
    const auto collect = [](hid_t, const char* name, const H5L_info_t*, void* out) -> herr_t {
        auto& all = *static_cast<std::vector<std::string>*>(out);
        all.emplace_back(name);
        return all.size() > 65536 ? 1 : 0;  // no list is that long: stop reading a corrupt one
    };
    if (H5Literate(list, H5_INDEX_NAME, H5_ITER_NATIVE, &index, collect, &names) < 0) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{}: its items cannot be listed", where));
    }
    std::vector<std::pair<unsigned long, std::string>> numbered;
    for (const auto& name : names) {
        const auto underscore = name.rfind('_');
        if (underscore == std::string::npos || underscore + 1 == name.size() ||
            name.find_first_not_of("0123456789", underscore + 1) != std::string::npos || name.size() - underscore > 10) {
            continue;  // not an item of the list (a field of the list object itself)
        }
        H5O_info_t info{};
        if (H5Oget_info_by_name2(list, name.c_str(), &info, H5O_INFO_BASIC, H5P_DEFAULT) < 0 || info.type != H5O_TYPE_GROUP) continue;
        numbered.emplace_back(std::stoul(name.substr(underscore + 1)), name);
    }
    std::sort(numbered.begin(), numbered.end());
    const bool distinct = std::adjacent_find(numbered.begin(), numbered.end(), [](const auto& a, const auto& b) { return a.first == b.first; }) ==
                          numbered.end();
    // Numbered 1, 2, ..., n as USTB and pyuff_ustb write them (0, 1, ... accepted): a number
    // missing would pair each item after it with another item's place in the data.
    bool consecutive = !numbered.empty() && numbered.front().first <= 1;
    for (std::size_t k = 1; consecutive && k < numbered.size(); ++k) consecutive = numbered[k].first == numbered.front().first + k;
    if (static_cast<int>(numbered.size()) == n && distinct && !consecutive) {
        std::string found;
        for (std::size_t k = 0; k < numbered.size() && k < 8; ++k) found += (k ? ", " : "") + numbered[k].second;
        return fail(ErrorCode::InvalidArgument, fmt::format("{}: its items are not numbered 1 to {} without a gap ({}{}): an item is missing, and the "
                                                            "items after it cannot be told apart from their neighbours", where, n, found,
                                                            numbered.size() > 8 ? ", ..." : ""));
    }
    if (static_cast<int>(numbered.size()) != n || !distinct) {
        std::string found;
        for (std::size_t k = 0; k < numbered.size() && k < 6; ++k) found += (k ? ", " : "") + numbered[k].second;
        return fail(ErrorCode::InvalidArgument, fmt::format("{}: its size attribute lists {} items, but it holds {} numbered {}{}{}", where, n,
                                                            numbered.size(), distinct ? "ones" : "ones with a number twice", found.empty() ? "" : ": ",
                                                            found + (numbered.size() > 6 ? ", ..." : "")));
    }
    std::vector<std::string> ordered;
    for (auto& [number, name] : numbered) ordered.push_back(std::move(name));
    return ordered;
}

struct UffReader::State {
    std::string where;                 // path:group, for messages
    Handle file{-1, H5Fclose};
    Handle group{-1, H5Gclose};
    Handle iqGroup{-1, H5Gclose};
    Handle data{-1, H5Dclose};         // RF samples, or IQ's real parts
    Handle imag{-1, H5Dclose};         // IQ's imaginary parts
    std::vector<hsize_t> dims;         // as stored (rank 2 to 4)
    bool int16 = false;
    UffChannelData header;             // no samples; frames = 0
    std::shared_ptr<ByteSource> source;  // read through it (an S3 object, a mapped file); null: a local file
    // Where each data set's frames lie, for staging them (a remote source only).
    mutable std::map<hid_t, FramePlaces> places;

    ~State() {
        if (source) dropStaged(*source);
    }
    // The byte ranges that hold frames [first, first + count) of dataset in the file, coalesced
    // (chunks found through HDF5's chunk index; a contiguous data set by its offset); empty when
    // they cannot be told (HDF5 then reads as it would).
    // firstChunkOnly: the frame's first chunk alone (a seek's start, 1 lookup where a frame needs 24).
    [[nodiscard]] std::vector<ByteRange> frameExtents(hid_t dataset, hsize_t first, hsize_t count, bool firstChunkOnly = false) const;
    // Through a source: these frames' ranges fetched now in as few requests as they allow and,
    // when frames are read in order, the next kReadAheadFrames' too.
    void stageFrames(hid_t dataset, hsize_t first, hsize_t count) const;
    // Where this data set's frames lie (made on first use).
    [[nodiscard]] FramePlaces& placesOf(hid_t dataset) const;

    // Opens the file (by path, or through source) and load()s it.
    Status open(const std::string& path, const std::string& groupName);
    // Reads the metadata and opens the data sets; every check that needs no samples.
    Status load(const std::string& path, const std::string& groupName);
    // The source's reason when a read through it failed (a cut connection, a refused range).
    [[nodiscard]] Error explained(Error error) const;
    // Frames [first, first + count) into out (count x samplesPerFrame values of memoryType).
    Status readInto(hid_t dataset, hid_t memoryType, hsize_t first, hsize_t count, void* out) const;
};

Status UffReader::State::open(const std::string& path, const std::string& groupName) {
    if (source) {
        Handle access(rangeDriverAccess(*source), H5Pclose);
        if (!access.ok()) return fail(ErrorCode::Internal, fmt::format("{}: HDF5 refused the range driver", path));
        file = Handle(H5Fopen(path.c_str(), H5F_ACC_RDONLY, access.get()), H5Fclose);
        if (!file.ok()) return fail(explained(Error(ErrorCode::InvalidArgument, fmt::format("{} is not an HDF5 file", path))));
    } else {
        std::error_code ec;
        if (!std::filesystem::exists(path, ec)) return fail(ErrorCode::NotFound, fmt::format("no such file: {}", path));
        file = Handle(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
        if (!file.ok()) {
            if (auto cut = cutShortHdf5(path)) {
                return fail(ErrorCode::DataLoss, fmt::format("{} is cut short: the disk holds {} of the {} bytes it declares (a power cut, or a copy "
                                                             "stopped early); `sonolink-cli recording recover {}` keeps its whole frames",
                                                             path, cut->bytesOnDisk, cut->bytesDeclared, path));
            }
            return fail(ErrorCode::InvalidArgument, fmt::format("{} is not an HDF5 file", path));
        }
    }
    if (auto ok = load(path, groupName); !ok) return fail(explained(std::move(ok.error())));
    return {};
}

Error UffReader::State::explained(Error error) const {
    if (!source) return error;
    auto cause = takeRangeDriverError(*source);
    if (!cause) return error;
    Error e(cause->code(), fmt::format("{}: {}", error.message(), cause->message()));
    for (const auto& d : error.details()) e.addDetail(d);
    return e;
}

Status UffReader::State::load(const std::string& path, const std::string& groupName) {
    if (H5Lexists(file.get(), groupName.c_str(), H5P_DEFAULT) <= 0) return fail(ErrorCode::NotFound, fmt::format("{}: no group {}", path, groupName));
    group = Handle(H5Gopen2(file.get(), groupName.c_str(), H5P_DEFAULT), H5Gclose);
    where = path + ":" + groupName;
    auto& d = header;
    for (auto [name, out] : {std::pair{"sampling_frequency", &d.geometry.samplingRateHz}, std::pair{"initial_time", &d.geometry.initialTimeS},
                             std::pair{"sound_speed", &d.geometry.soundSpeedMps}, std::pair{"modulation_frequency", &d.modulationFrequencyHz}}) {
        auto value = readScalar(group.get(), name, where);
        if (!value) return fail(std::move(value.error()));
        *out = *value;
    }
    if (auto ok = checkPhysics(d, where); !ok) return ok;
    // data: frames x waves x channels x samples (USTB's [samples x channels x waves x frames] seen
    // from HDF5). RF is a dataset; IQ (modulation frequency > 0) a group of "real" and "imag".
    const bool iq = d.modulationFrequencyHz != 0;
    if (H5Lexists(group.get(), "data", H5P_DEFAULT) <= 0) return fail(ErrorCode::NotFound, fmt::format("{}: dataset 'data' is missing", where));
    if (iq) {
        iqGroup = Handle(H5Gopen2(group.get(), "data", H5P_DEFAULT), H5Gclose);
        if (!iqGroup.ok()) {
            return fail(ErrorCode::InvalidArgument, fmt::format("{}: modulation frequency {} Hz, but 'data' is not a group of 'real' and 'imag' (IQ)", where,
                                                                d.modulationFrequencyHz));
        }
    }
    const hid_t dataParent = iq ? iqGroup.get() : group.get();
    const std::string dataWhere = iq ? where + "/data" : where;
    auto dataset = openDataset(dataParent, iq ? "real" : "data", dataWhere);
    if (!dataset) return fail(std::move(dataset.error()));
    data = std::move(*dataset);
    dims = *dimensions(data.get());
    std::vector<hsize_t> full(4, 1);
    if (dims.size() < 2 || dims.size() > 4) return fail(ErrorCode::InvalidArgument, fmt::format("{}: data has rank {}, expected 2 to 4", where, dims.size()));
    std::copy(dims.begin(), dims.end(), full.end() - static_cast<std::ptrdiff_t>(dims.size()));
    // Sizes a recording can have, checked before anything is allocated from them.
    constexpr hsize_t kMaxFrames = 1u << 30, kMaxWaves = 4096, kMaxChannels = 8192, kMaxSamples = 1u << 22;
    if (full[0] > kMaxFrames || full[1] > kMaxWaves || full[2] > kMaxChannels || full[3] > kMaxSamples || full[1] * full[2] * full[3] == 0) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{}: data declares {} frames x {} waves x {} channels x {} samples: no recording is that "
                                                            "shape (at most {} x {} x {} x {}, none zero)",
                                                            where, full[0], full[1], full[2], full[3], kMaxFrames, kMaxWaves, kMaxChannels, kMaxSamples));
    }
    d.framesInFile = static_cast<int>(full[0]);
    d.geometry.waves = static_cast<int>(full[1]);
    d.geometry.channels = static_cast<int>(full[2]);
    d.geometry.samples = static_cast<int>(full[3]);
    if (auto ok = checkNumberType(data.get(), iq ? "data/real" : "data", where); !ok) return ok;
    Handle type(H5Dget_type(data.get()), H5Tclose);
    int16 = !iq && H5Tget_class(type.get()) == H5T_INTEGER && H5Tget_size(type.get()) == 2;
    if (iq) {
        auto imaginary = openDataset(dataParent, "imag", dataWhere);
        if (!imaginary) return fail(std::move(imaginary.error()));
        imag = std::move(*imaginary);
        if (auto ok = checkNumberType(imag.get(), "data/imag", where); !ok) return ok;
        if (*dimensions(imag.get()) != dims) return fail(ErrorCode::InvalidArgument, fmt::format("{}/data: 'real' and 'imag' differ in shape", where));
    }
    // probe geometry: 7 x N (x, y, z, theta, phi, width, height).
    if (H5Lexists(group.get(), "probe", H5P_DEFAULT) <= 0) return fail(ErrorCode::NotFound, fmt::format("{}: 'probe' is missing", where));
    Handle probe(H5Gopen2(group.get(), "probe", H5P_DEFAULT), H5Gclose);
    auto geometry = readDoubles(probe.get(), "geometry", where + "/probe");
    if (!geometry) return fail(std::move(geometry.error()));
    if (geometry->size() != 7u * static_cast<std::size_t>(d.geometry.channels)) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{}/probe: geometry holds {} values; {} channels need 7 x {}", where, geometry->size(),
                                                            d.geometry.channels, d.geometry.channels));
    }
    d.geometry.elementX.assign(geometry->begin(), geometry->begin() + d.geometry.channels);
    d.geometry.elementWidthM = (*geometry)[5u * static_cast<std::size_t>(d.geometry.channels)];
    d.geometry.elementHeightM = (*geometry)[6u * static_cast<std::size_t>(d.geometry.channels)];
    // sequence: one wave object, or a list of them (attribute size = [1, n]).
    if (H5Lexists(group.get(), "sequence", H5P_DEFAULT) <= 0) return fail(ErrorCode::NotFound, fmt::format("{}: 'sequence' is missing", where));
    Handle sequence(H5Gopen2(group.get(), "sequence", H5P_DEFAULT), H5Gclose);
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
        auto items = listItems(sequence.get(), listed, where + "/sequence");
        if (!items) return fail(std::move(items.error()));
        for (const auto& name : *items) {
            Handle wave(H5Gopen2(sequence.get(), name.c_str(), H5P_DEFAULT), H5Gclose);
            auto wave0 = readWaveSource(wave.get(), where + "/sequence/" + name);
            if (!wave0) return fail(std::move(wave0.error()));
            d.geometry.angleRad.push_back(wave0->azimuth);
            d.geometry.sourceDistance.push_back(wave0->distance);
            d.geometry.photoacoustic.push_back(wave0->photoacoustic);
        }
    } else {
        auto wave0 = readWaveSource(sequence.get(), where + "/sequence");
        if (!wave0) return fail(std::move(wave0.error()));
        d.geometry.angleRad.push_back(wave0->azimuth);
        d.geometry.sourceDistance.push_back(wave0->distance);
        d.geometry.photoacoustic.push_back(wave0->photoacoustic);
    }
    if (std::all_of(d.geometry.sourceDistance.begin(), d.geometry.sourceDistance.end(), [](double s) { return std::isinf(s); })) d.geometry.sourceDistance.clear();
    if (std::none_of(d.geometry.photoacoustic.begin(), d.geometry.photoacoustic.end(), [](bool pa) { return pa; })) d.geometry.photoacoustic.clear();
    if (static_cast<int>(d.geometry.angleRad.size()) != d.geometry.waves) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{}: the sequence has {} waves but the data {}", where, d.geometry.angleRad.size(), d.geometry.waves));
    }
    return {};
}

constexpr hsize_t kReadAheadFrames = 5;  // two measured 0.64 of the local file pinned, five 0.72, seven 0.52 (docs/performance.md)
constexpr std::uint64_t kCoalesceGap = 64 << 10;  // ranges this close are fetched as one (the gap too)
constexpr std::size_t kMaxChunkLookups = 4096;    // per staging: beyond, HDF5 reads as it would

std::vector<ByteRange> UffReader::State::frameExtents(hid_t dataset, hsize_t first, hsize_t count, bool firstChunkOnly) const {
    Handle plist(H5Dget_create_plist(dataset), H5Pclose);
    Handle type(H5Dget_type(dataset), H5Tclose);
    const std::uint64_t valueBytes = H5Tget_size(type.get());
    std::uint64_t frameValues = 1;
    for (std::size_t i = 1; i < dims.size(); ++i) frameValues *= dims[i];
    std::vector<ByteRange> ranges;
    const auto layout = H5Pget_layout(plist.get());
    if (layout == H5D_CONTIGUOUS) {
        const haddr_t base = H5Dget_offset(dataset);
        if (base == HADDR_UNDEF) return {};
        return {{base + first * frameValues * valueBytes, count * frameValues * valueBytes}};
    }
    if (layout != H5D_CHUNKED) return {};
    const int rank = static_cast<int>(dims.size());
    std::vector<hsize_t> chunk(dims.size());
    if (H5Pget_chunk(plist.get(), rank, chunk.data()) != rank || std::find(chunk.begin(), chunk.end(), 0) != chunk.end()) return {};
    std::size_t lookups = 0;
    for (hsize_t f = first; f < first + count; ++f) {
        std::vector<hsize_t> coord(dims.size(), 0);
        coord[0] = f / chunk[0] * chunk[0];
        for (;;) {  // every chunk of this frame: an odometer over the other dimensions
            if (++lookups > kMaxChunkLookups) return {};
            unsigned mask = 0;
            haddr_t addr = HADDR_UNDEF;
            hsize_t size = 0;
            if (H5Dget_chunk_info_by_coord(dataset, coord.data(), &mask, &addr, &size) >= 0 && addr != HADDR_UNDEF && size > 0) {
                ranges.push_back({addr, size});
            }
            if (firstChunkOnly) break;
            int d = rank - 1;
            for (; d >= 1; --d) {
                coord[static_cast<std::size_t>(d)] += chunk[static_cast<std::size_t>(d)];
                if (coord[static_cast<std::size_t>(d)] < dims[static_cast<std::size_t>(d)]) break;
                coord[static_cast<std::size_t>(d)] = 0;
            }
            if (d < 1) break;
        }
    }
    std::sort(ranges.begin(), ranges.end(), [](const ByteRange& a, const ByteRange& b) { return a.offset < b.offset; });
    std::vector<ByteRange> merged;
    for (const auto& r : ranges) {
        if (!merged.empty() && r.offset <= merged.back().offset + merged.back().size + kCoalesceGap) {
            merged.back().size = std::max(merged.back().size, r.offset + r.size - merged.back().offset);
        } else {
            merged.push_back(r);
        }
    }
    return merged;
}

FramePlaces& UffReader::State::placesOf(hid_t dataset) const {
    return places.try_emplace(dataset, source->size()).first->second;
}

void UffReader::State::stageFrames(hid_t dataset, hsize_t first, hsize_t count) const {
    auto& mine = placesOf(dataset);
    const auto [from, frames] = mine.toStage(first, count, kReadAheadFrames, dims.empty() ? 0 : dims[0]);
    for (hsize_t f = from; f < from + frames; ++f) {
        stageRanges(*source, mine.rangesOf(f, [&] { return frameExtents(dataset, f, 1); }, [&] { return frameExtents(dataset, f, 1, true); }));
    }
}

Status UffReader::State::readInto(hid_t dataset, hid_t memoryType, hsize_t first, hsize_t count, void* out) const {
    if (auto ok = checkChunkSizes(dataset, dims, first, count, where); !ok) return ok;
    const std::uint64_t missedBefore = source && source->remote() ? unstagedReads(*source) : 0;
    if (source && source->remote()) stageFrames(dataset, first, count);
    if (source && source->remote()) (void)takeServedSpan(*source);
    if (readFrames(dataset, memoryType, dims, first, count, out) >= 0) {
        if (source && source->remote()) placesOf(dataset).learn(first, count, takeServedSpan(*source), unstagedReads(*source) > missedBefore);
        return {};
    }
    if (source) {
        if (auto cause = takeRangeDriverError(*source)) {
            return fail(cause->code(), fmt::format("{}: frames {}-{}: {}", where, first, first + count - 1, cause->message()));
        }
    }
    // Which frame: read them one at a time (rare: only a file that fails is read twice).
    if (H5Pget_nfilters(Handle(H5Dget_create_plist(dataset), H5Pclose).get()) > 0) {
        std::vector<std::byte> one(header.geometry.samplesPerFrame() * H5Tget_size(memoryType));
        for (hsize_t f = 0; f < count; ++f) {
            if (readFrames(dataset, memoryType, dims, first + f, 1, one.data()) < 0) {
                return fail(ErrorCode::DataLoss, fmt::format("{}: frame {} fails its checksum (Fletcher-32): the file is damaged there", where, first + f));
            }
        }
    }
    return fail(ErrorCode::InvalidArgument, fmt::format("{}: data cannot be read as samples", where));
}

Result<UffReader> UffReader::open(const std::string& path, const std::string& group) {
    quietHdf5();
    auto state = std::make_unique<State>();
    if (auto ok = state->open(path, group); !ok) return fail(std::move(ok.error()));
    return UffReader(std::move(state));
}

Result<UffReader> UffReader::open(std::shared_ptr<ByteSource> source, const std::string& group) {
    quietHdf5();
    auto state = std::make_unique<State>();
    state->source = std::move(source);
    if (auto ok = state->open(state->source->name(), group); !ok) return fail(std::move(ok.error()));
    return UffReader(std::move(state));
}

UffReader::UffReader(std::unique_ptr<State> state) : state_(std::move(state)) {}
UffReader::UffReader(UffReader&&) noexcept = default;
UffReader& UffReader::operator=(UffReader&&) noexcept = default;
UffReader::~UffReader() = default;

const UffChannelData& UffReader::header() const noexcept { return state_->header; }

Result<UffChannelData> UffReader::read(const UffReadOptions& options) const {
    quietHdf5();
    const auto& s = *state_;
    UffChannelData d = s.header;
    if (options.firstFrame < 0 || (options.firstFrame > 0 && options.firstFrame >= d.framesInFile)) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{}: frame {} asked for; the file holds {} frames", s.where, options.firstFrame, d.framesInFile));
    }
    d.firstFrame = options.firstFrame;
    const int left = d.framesInFile - d.firstFrame;
    d.frames = options.frameCount < 0 ? left : std::min(options.frameCount, left);
    const auto perFrame = d.geometry.samplesPerFrame();
    const auto count = static_cast<std::uint64_t>(d.frames) * perFrame;
    const bool iq = d.modulationFrequencyHz != 0;
    const std::uint64_t bytes = count * (iq ? 16u : s.int16 ? 2u : 4u);  // IQ: the real and imaginary parts read, then paired
    const std::uint64_t budget = options.memoryBudgetBytes ? options.memoryBudgetBytes : defaultMemoryBudget();
    if (bytes > budget) {
        return fail(ErrorCode::ResourceExhausted, fmt::format("{}: {} frames of {} x {} x {} samples need {:.2f} GB, more than the {:.2f} GB this read "
                                                              "may take: read fewer frames at a time", s.where, d.frames, d.geometry.waves,
                                                              d.geometry.channels, d.geometry.samples, static_cast<double>(bytes) / 1e9,
                                                              static_cast<double>(budget) / 1e9));
    }
    const auto first = static_cast<hsize_t>(d.firstFrame), frames = static_cast<hsize_t>(d.frames);
    if (iq) {
        std::vector<float> re(count), im(count);
        if (auto ok = s.readInto(s.data.get(), H5T_NATIVE_FLOAT, first, frames, re.data()); !ok) return fail(std::move(ok.error()));
        if (auto ok = s.readInto(s.imag.get(), H5T_NATIVE_FLOAT, first, frames, im.data()); !ok) return fail(std::move(ok.error()));
        d.dataIq.resize(count);
        for (std::size_t i = 0; i < count; ++i) d.dataIq[i] = {re[i], im[i]};
        if (auto ok = checkFinite(d.dataIq, d, s.where); !ok) return fail(std::move(ok.error()));
    } else if (s.int16) {
        d.data16.resize(count);
        if (auto ok = s.readInto(s.data.get(), H5T_NATIVE_INT16, first, frames, d.data16.data()); !ok) return fail(std::move(ok.error()));
    } else {
        d.dataFloat.resize(count);
        if (auto ok = s.readInto(s.data.get(), H5T_NATIVE_FLOAT, first, frames, d.dataFloat.data()); !ok) return fail(std::move(ok.error()));
        if (auto ok = checkFinite(d.dataFloat, d, s.where); !ok) return fail(std::move(ok.error()));
    }
    return d;
}

Status UffReader::readFrame16(int index, std::span<std::int16_t> out) const {
    quietHdf5();
    const auto& s = *state_;
    if (!s.int16) return fail(ErrorCode::InvalidArgument, fmt::format("{}: the samples are not int16", s.where));
    if (index < 0 || index >= s.header.framesInFile) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{}: frame {} asked for; the file holds {} frames", s.where, index, s.header.framesInFile));
    }
    if (out.size() != s.header.geometry.samplesPerFrame()) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{}: a frame holds {} samples, not {}", s.where, s.header.geometry.samplesPerFrame(), out.size()));
    }
    return s.readInto(s.data.get(), H5T_NATIVE_INT16, static_cast<hsize_t>(index), 1, out.data());
}

Result<UffChannelData> readUffChannelData(const std::string& path, const std::string& group, const UffReadOptions& options) {
    auto reader = UffReader::open(path, group);
    if (!reader) return fail(std::move(reader.error()));
    return reader->read(options);
}

}  // namespace sonolink::record
