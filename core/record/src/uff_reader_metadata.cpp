// UffReader's metadata: the group's fields, the data set(s) and their shape, the probe and the
// sequence of waves read from the UFF file and checked before any sample is (State::load).
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include <fmt/format.h>
#include <hdf5.h>

#include "uff_reader_state.h"

namespace sonolink::record {
namespace {

// ---- reading
Result<Handle> openDataset(hid_t parent, const std::string& name, const std::string& where) {
    if (H5Lexists(parent, name.c_str(), H5P_DEFAULT) <= 0) return fail(ErrorCode::NotFound, fmt::format("{}: dataset '{}' is missing", where, name));
    Handle dataset(H5Dopen2(parent, name.c_str(), H5P_DEFAULT), H5Dclose);
    if (!dataset.ok())
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("{}: '{}' is not a dataset (a group of 'real' and 'imag' is IQ data, which needs a modulation frequency)", where, name));
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
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("{}: '{}' is not stored as numbers (type class {}, {} bytes a value)", where, name, static_cast<int>(kind), size));
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
    bool photoacoustic = false;                                 // USTB's wavefront 2: no source, received only
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

// The physical values a recording must have before anything is computed from them.
Status checkPhysics(const UffChannelData& d, const std::string& where) {
    const auto& g = d.geometry;
    auto bad = [&](const char* name, double value, const char* allowed) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{}: {} is {:g}, {}", where, name, value, allowed));
    };
    if (!std::isfinite(g.samplingRateHz) || g.samplingRateHz <= 0 || g.samplingRateHz > 10e9)
        return bad("sampling_frequency", g.samplingRateHz, "not a sampling rate (0 to 10 GHz)");
    if (!std::isfinite(g.soundSpeedMps) || g.soundSpeedMps < 100 || g.soundSpeedMps > 20000)
        return bad("sound_speed", g.soundSpeedMps, "not a speed of sound (100 to 20000 m/s)");
    if (!std::isfinite(g.initialTimeS) || std::abs(g.initialTimeS) > 1) return bad("initial_time", g.initialTimeS, "not a time of flight (within 1 s)");
    if (!std::isfinite(d.modulationFrequencyHz) || d.modulationFrequencyHz < 0 || d.modulationFrequencyHz > 10e9) {
        return bad("modulation_frequency", d.modulationFrequencyHz, "not a frequency (0 to 10 GHz)");
    }
    return {};
}

// The number of waves a sequence's size attribute lists ([1, n]); 0 without one.
Result<int> uffSequenceListSize(hid_t sequence, const std::string& where) {
    if (H5Aexists(sequence, "size") <= 0) return 0;
    Handle attribute(H5Aopen(sequence, "size", H5P_DEFAULT), H5Aclose);
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
    return static_cast<int>(waves);
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
        if (underscore == std::string::npos || underscore + 1 == name.size() || name.find_first_not_of("0123456789", underscore + 1) != std::string::npos ||
            name.size() - underscore > 10) {
            continue;  // not an item of the list (a field of the list object itself)
        }
        H5O_info_t info{};
        if (H5Oget_info_by_name2(list, name.c_str(), &info, H5O_INFO_BASIC, H5P_DEFAULT) < 0 || info.type != H5O_TYPE_GROUP) continue;
        numbered.emplace_back(std::stoul(name.substr(underscore + 1)), name);
    }
    std::sort(numbered.begin(), numbered.end());
    const bool distinct =
        std::adjacent_find(numbered.begin(), numbered.end(), [](const auto& a, const auto& b) { return a.first == b.first; }) == numbered.end();
    // Numbered 1, 2, ..., n as USTB and pyuff_ustb write them (0, 1, ... accepted): a number
    // missing would pair each item after it with another item's place in the data.
    bool consecutive = !numbered.empty() && numbered.front().first <= 1;
    for (std::size_t k = 1; consecutive && k < numbered.size(); ++k) consecutive = numbered[k].first == numbered.front().first + k;
    if (static_cast<int>(numbered.size()) == n && distinct && !consecutive) {
        std::string found;
        for (std::size_t k = 0; k < numbered.size() && k < 8; ++k) found += (k ? ", " : "") + numbered[k].second;
        return fail(ErrorCode::InvalidArgument, fmt::format("{}: its items are not numbered 1 to {} without a gap ({}{}): an item is missing, and the "
                                                            "items after it cannot be told apart from their neighbours",
                                                            where, n, found, numbered.size() > 8 ? ", ..." : ""));
    }
    if (static_cast<int>(numbered.size()) != n || !distinct) {
        std::string found;
        for (std::size_t k = 0; k < numbered.size() && k < 6; ++k) found += (k ? ", " : "") + numbered[k].second;
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("{}: its size attribute lists {} items, but it holds {} numbered {}{}{}", where, n, numbered.size(),
                                distinct ? "ones" : "ones with a number twice", found.empty() ? "" : ": ", found + (numbered.size() > 6 ? ", ..." : "")));
    }
    std::vector<std::string> ordered;
    for (auto& [number, name] : numbered) ordered.push_back(std::move(name));
    return ordered;
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
    if (auto ok = openData(); !ok) return ok;
    if (auto ok = readProbe(); !ok) return ok;
    return readSequence();
}

// data: frames x waves x channels x samples (USTB's [samples x channels x waves x frames] seen
// from HDF5). RF is a dataset; IQ (modulation frequency > 0) a group of "real" and "imag".
Status UffReader::State::openData() {
    auto& d = header;
    const bool iq = d.modulationFrequencyHz != 0;
    if (H5Lexists(group.get(), "data", H5P_DEFAULT) <= 0) return fail(ErrorCode::NotFound, fmt::format("{}: dataset 'data' is missing", where));
    if (iq) {
        iqGroup = Handle(H5Gopen2(group.get(), "data", H5P_DEFAULT), H5Gclose);
        if (!iqGroup.ok()) {
            return fail(ErrorCode::InvalidArgument,
                        fmt::format("{}: modulation frequency {} Hz, but 'data' is not a group of 'real' and 'imag' (IQ)", where, d.modulationFrequencyHz));
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
    return {};
}

// probe geometry: 7 x N (x, y, z, theta, phi, width, height).
Status UffReader::State::readProbe() {
    auto& d = header;
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
    return {};
}

// sequence: one wave object, or a list of them (attribute size = [1, n]).
Status UffReader::State::readSequence() {
    auto& d = header;
    if (H5Lexists(group.get(), "sequence", H5P_DEFAULT) <= 0) return fail(ErrorCode::NotFound, fmt::format("{}: 'sequence' is missing", where));
    Handle sequence(H5Gopen2(group.get(), "sequence", H5P_DEFAULT), H5Gclose);
    auto listed = uffSequenceListSize(sequence.get(), where);
    if (!listed) return fail(std::move(listed.error()));
    if (*listed > 1) {
        auto items = listItems(sequence.get(), *listed, where + "/sequence");
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
    if (std::all_of(d.geometry.sourceDistance.begin(), d.geometry.sourceDistance.end(), [](double s) { return std::isinf(s); }))
        d.geometry.sourceDistance.clear();
    if (std::none_of(d.geometry.photoacoustic.begin(), d.geometry.photoacoustic.end(), [](bool pa) { return pa; })) d.geometry.photoacoustic.clear();
    if (static_cast<int>(d.geometry.angleRad.size()) != d.geometry.waves) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("{}: the sequence has {} waves but the data {}", where, d.geometry.angleRad.size(), d.geometry.waves));
    }
    return {};
}

}  // namespace sonolink::record
