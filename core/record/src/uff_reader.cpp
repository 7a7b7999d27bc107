// UffReader: a UFF recording opened (a local file, or through a ByteSource) and its frames read,
// staged ahead from a remote source; the metadata it checks first is read in uff_reader_metadata.cpp.
#include "sonolink/record/uff_reader.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <filesystem>
#include <map>
#include <type_traits>
#include <vector>

#include <fmt/format.h>
#include <hdf5.h>

#include "sonolink/record/recording_recovery.h"
#include "uff_reader_state.h"

namespace sonolink::record {
namespace {

std::uint64_t defaultMemoryBudget() {
    const long pages = ::sysconf(_SC_PHYS_PAGES), pageSize = ::sysconf(_SC_PAGE_SIZE);
    return pages > 0 && pageSize > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(pageSize) / 2 : (4ull << 30);
}

// The first non-finite sample of float data, named by frame, wave, channel and sample.
template <typename T> Status checkFinite(const std::vector<T>& samples, const UffChannelData& d, const std::string& where) {
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
                                                        "sample {}",
                                                        where, f, w, c, s));
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
                                                             "to the disk; `sonolink-cli recording recover` keeps the frames before it",
                                                             where, dims.size() == 4 ? f : 0));
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

constexpr hsize_t kReadAheadFrames = 5;           // two measured 0.64 of the local file pinned, five 0.72, seven 0.52 (docs/performance.md)
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

FramePlaces& UffReader::State::placesOf(hid_t dataset) const { return places.try_emplace(dataset, source->size()).first->second; }

void UffReader::State::stageFrames(hid_t dataset, hsize_t first, hsize_t count) const {
    auto& mine = placesOf(dataset);
    const auto [from, frames] = mine.toStage(first, count, kReadAheadFrames, dims.empty() ? 0 : dims[0]);
    for (hsize_t f = from; f < from + frames; ++f) {
        stageRanges(*source, mine.rangesOf(
                                 f, [&] { return frameExtents(dataset, f, 1); }, [&] { return frameExtents(dataset, f, 1, true); }));
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
                                                              "may take: read fewer frames at a time",
                                                              s.where, d.frames, d.geometry.waves, d.geometry.channels, d.geometry.samples,
                                                              static_cast<double>(bytes) / 1e9, static_cast<double>(budget) / 1e9));
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
