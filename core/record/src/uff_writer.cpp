#include <cmath>
#include <filesystem>
#include <limits>
#include <vector>

#include <fmt/format.h>
#include <hdf5.h>

#include "uff_hdf5.h"

namespace sonolink::record {
namespace {

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

Status writeArray(hid_t parent, const char* name, hid_t memoryType, hid_t fileType, std::vector<hsize_t> dims, const void* values) {
    Handle space(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), H5Sclose);
    Handle dataset(H5Dcreate2(parent, name, fileType, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Dclose);
    if (!dataset.ok() || H5Dwrite(dataset.get(), memoryType, H5S_ALL, H5S_ALL, H5P_DEFAULT, values) < 0) {
        return fail(ErrorCode::DataLoss, fmt::format("cannot write dataset {} (disk full?)", name));
    }
    return writeIntAttribute(dataset.get(), "complex", {0});
}

Status writeScalar(hid_t parent, const char* name, double value) { return writeArray(parent, name, H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, {1, 1}, &value); }

// USTB's attributes of an object (array 0, size [1 1]) or of a list of n of them (array 1,
// size [1 n], class the items' class), as pyuff_ustb writes them.
Status writeObjectAttributes(hid_t object, const std::string& uffClass, const std::string& name, int listOf = 0) {
    if (auto ok = writeStringAttribute(object, "class", uffClass); !ok) return ok;
    if (auto ok = writeStringAttribute(object, "name", name); !ok) return ok;
    if (auto ok = writeIntAttribute(object, "array", {listOf > 0 ? 1 : 0}); !ok) return ok;
    return writeIntAttribute(object, "size", {1, std::max(listOf, 1)});
}

Status writePoint(hid_t parent, const char* name, double distance, double azimuth) {
    Handle group(H5Gcreate2(parent, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
    if (!group.ok()) return fail(ErrorCode::DataLoss, fmt::format("cannot create group {}", name));
    if (auto ok = writeObjectAttributes(group.get(), "uff.point", name); !ok) return ok;
    if (auto ok = writeScalar(group.get(), "distance", distance); !ok) return ok;
    if (auto ok = writeScalar(group.get(), "azimuth", azimuth); !ok) return ok;
    return writeScalar(group.get(), "elevation", 0.0);
}

// A wave as USTB writes it; a photoacoustic one (wavefront 2) with a source at no place (USTB ignores it).
Status writeWave(hid_t wave, double angle, double sourceDistance, double soundSpeed, bool photoacoustic) {
    const int wavefront = photoacoustic ? kPhotoacousticWavefront : std::isinf(sourceDistance) ? kPlaneWavefront : kSphericalWavefront;
    if (auto ok = writeArray(wave, "wavefront", H5T_NATIVE_INT, H5T_STD_I32LE, {1, 1}, &wavefront); !ok) return ok;
    if (auto ok = writePoint(wave, "source", sourceDistance, angle); !ok) return ok;
    if (auto ok = writePoint(wave, "origin", 0, 0); !ok) return ok;
    if (auto ok = writeScalar(wave, "delay", 0.0); !ok) return ok;
    return writeScalar(wave, "sound_speed", soundSpeed);
}

}  // namespace

Status writeIntAttribute(hid_t object, const char* name, std::vector<int> values) {
    const hsize_t dims[1] = {values.size()};
    Handle space(H5Screate_simple(1, dims, nullptr), H5Sclose);  // a 1-d array even for one value, as pyuff_ustb writes it
    Handle attribute(H5Acreate2(object, name, H5T_NATIVE_INT, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
    if (!attribute.ok() || H5Awrite(attribute.get(), H5T_NATIVE_INT, values.data()) < 0) {
        return fail(ErrorCode::DataLoss, fmt::format("cannot write attribute {}", name));
    }
    return {};
}

Status writeUffMetadata(hid_t g, const UffChannelData& d, const std::string& where) {
    auto step = [&](Status s) -> Status { return s ? s : fail(std::move(s.error()).addContext("writing " + where)); };
    if (!d.geometry.sourceDistance.empty() && d.geometry.sourceDistance.size() != static_cast<std::size_t>(d.geometry.waves)) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{} source distances for {} waves", d.geometry.sourceDistance.size(), d.geometry.waves));
    }
    if (auto ok = step(writeObjectAttributes(g, "uff.channel_data", "SonoLink recording")); !ok) return ok;
    if (auto ok = step(writeScalar(g, "sampling_frequency", d.geometry.samplingRateHz)); !ok) return ok;
    if (auto ok = step(writeScalar(g, "initial_time", d.geometry.initialTimeS)); !ok) return ok;
    if (auto ok = step(writeScalar(g, "sound_speed", d.geometry.soundSpeedMps)); !ok) return ok;
    if (auto ok = step(writeScalar(g, "modulation_frequency", d.modulationFrequencyHz)); !ok) return ok;
    {
        Handle probe(H5Gcreate2(g, "probe", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
        if (auto ok = step(writeObjectAttributes(probe.get(), "uff.linear_array", "probe")); !ok) return ok;
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
    if (d.geometry.waves == 1) {  // a 1x1 list is the object itself
        if (auto ok = step(writeObjectAttributes(sequence.get(), "uff.wave", "sequence")); !ok) return ok;
        return step(writeWave(sequence.get(), d.geometry.angleRad[0], distance(0), d.geometry.soundSpeedMps, d.geometry.isPhotoacoustic(0)));
    }
    if (auto ok = step(writeObjectAttributes(sequence.get(), "uff.wave", "sequence", d.geometry.waves)); !ok) return ok;
    for (int w = 0; w < d.geometry.waves; ++w) {
        const auto item = listItemName("sequence", w);
        Handle wave(H5Gcreate2(sequence.get(), item.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
        if (auto ok = step(writeObjectAttributes(wave.get(), "uff.wave", item)); !ok) return ok;
        if (auto ok = step(
                writeWave(wave.get(), d.geometry.angleRad[static_cast<std::size_t>(w)], distance(w), d.geometry.soundSpeedMps, d.geometry.isPhotoacoustic(w)));
            !ok) {
            return ok;
        }
    }
    return {};
}

Status writeUffChannelData(const std::string& path, const UffChannelData& d, const std::string& group) {
    quietHdf5();
    const auto expected = static_cast<std::size_t>(d.frames) * static_cast<std::size_t>(d.geometry.waves) * static_cast<std::size_t>(d.geometry.channels) *
                          static_cast<std::size_t>(d.geometry.samples);
    const auto held = d.data16.empty() ? d.dataFloat.size() : d.data16.size();
    if (held != expected || d.geometry.elementX.size() != static_cast<std::size_t>(d.geometry.channels) ||
        d.geometry.angleRad.size() != static_cast<std::size_t>(d.geometry.waves)) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("inconsistent channel data: {} samples for {} frames x {} waves x {} channels x {} samples, {} elements, {} angles", held,
                                d.frames, d.geometry.waves, d.geometry.channels, d.geometry.samples, d.geometry.elementX.size(), d.geometry.angleRad.size()));
    }
    const bool exists = std::filesystem::exists(path);
    Handle file(exists ? H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT) : H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
    if (!file.ok()) return fail(ErrorCode::Unavailable, fmt::format("cannot {} HDF5 file {}", exists ? "open" : "create", path));
    if (H5Lexists(file.get(), group.c_str(), H5P_DEFAULT) > 0) H5Ldelete(file.get(), group.c_str(), H5P_DEFAULT);
    Handle g(H5Gcreate2(file.get(), group.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
    if (!g.ok()) return fail(ErrorCode::DataLoss, fmt::format("{}: cannot create group {}", path, group));
    auto step = [&](Status s) -> Status { return s ? s : fail(std::move(s.error()).addContext("writing " + path + group)); };
    if (auto ok = step(writeUffMetadata(g.get(), d, path + group)); !ok) return ok;
    const std::vector<hsize_t> dims{static_cast<hsize_t>(d.frames), static_cast<hsize_t>(d.geometry.waves), static_cast<hsize_t>(d.geometry.channels),
                                    static_cast<hsize_t>(d.geometry.samples)};
    return step(d.data16.empty() ? writeArray(g.get(), "data", H5T_NATIVE_FLOAT, H5T_IEEE_F32LE, dims, d.dataFloat.data())
                                 : writeArray(g.get(), "data", H5T_NATIVE_INT16, H5T_STD_I16LE, dims, d.data16.data()));
}

}  // namespace sonolink::record
