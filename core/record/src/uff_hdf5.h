// Private to sonolink_record: the HDF5 handle and the pieces of USTB's UFF layout that its
// reader and its writers share. Thread contract: HDF5 calls from one thread at a time.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <hdf5.h>

#include "sonolink/record/uff_channel_data.h"

namespace sonolink::record {

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
inline void quietHdf5() {
    thread_local bool quiet = false;
    if (quiet) return;
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    quiet = true;
}

// The name USTB and pyuff_ustb give item `index` (from 0) of the list `property`: sequence_0001.
inline std::string listItemName(const std::string& property, int index) { return fmt::format("{}_{:04d}", property, index + 1); }

// USTB's uff.wavefront: plane 0, spherical 1 (focused or diverging: a finite source distance),
// photoacoustic 2 (a laser shot, received only: its source is not used).
constexpr int kPlaneWavefront = 0, kSphericalWavefront = 1, kPhotoacousticWavefront = 2;

// An integer attribute, a 1-d array (one value too), as pyuff_ustb writes "size", "array" and "complex".
[[nodiscard]] Status writeIntAttribute(hid_t object, const char* name, std::vector<int> values);

// Everything of a channel_data group but "data" (the stream writer adds that frame by frame).
[[nodiscard]] Status writeUffMetadata(hid_t group, const UffChannelData& data, const std::string& where);

}  // namespace sonolink::record
