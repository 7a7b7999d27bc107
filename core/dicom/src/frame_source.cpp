#include "sonolink/dicom/frame_source.h"

#include <cstring>
#include <deque>
#include <future>

#include <fmt/format.h>

#include "frame_decoder.h"
#include "part10_layout.h"

namespace sonolink::dicom {
namespace {

constexpr std::uint32_t kItemTag = 0xE000FFFEu;               // (FFFE,E000) as its 4 bytes read little endian
constexpr std::uint32_t kSequenceDelimiterTag = 0xE0DDFFFEu;  // (FFFE,E0DD)

std::uint32_t le32(const std::byte* p) {
    std::uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}

std::uint64_t le64(const std::byte* p) {
    std::uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
}

}  // namespace

const char* frameIndexName(FrameIndex index) noexcept {
    switch (index) {
        case FrameIndex::Native: return "native";
        case FrameIndex::ExtendedOffsetTable: return "extended offset table";
        case FrameIndex::BasicOffsetTable: return "basic offset table";
        case FrameIndex::Fragments: return "fragments";
    }
    return "?";
}

std::size_t FrameFormat::frameBytes() const noexcept {
    return static_cast<std::size_t>(rows) * static_cast<std::size_t>(columns) * static_cast<std::size_t>(samplesPerPixel) *
           static_cast<std::size_t>(bitsAllocated / 8);
}

constexpr std::uint32_t kFramesAhead = 3;  // a remote object read in order: the next frames fetched meanwhile

struct FrameSource::Impl {
    std::shared_ptr<ByteSource> source;
    PixelDescription pixels;
    std::vector<Extent> extents;  // native: the frame's bytes; encapsulated: its items (tags, lengths and data)
    std::vector<std::byte> staging;
    std::vector<std::byte> scratch;
    struct Ahead {  // a frame's bytes being fetched on a thread of its own
        std::uint32_t index;
        std::shared_ptr<std::vector<std::byte>> bytes;
        std::future<Status> fetched;
    };
    std::deque<Ahead> ahead;
    std::int64_t lastRead = -1;

    // The frame's bytes into staging: fetched ahead already, or read now.
    Status fetch(std::uint32_t index, const Extent& extent);
    // When frames are read in order from a remote object, the next ones' fetches started.
    void readAhead(std::uint32_t index);

    std::string frameName(std::uint32_t index) const { return fmt::format("{} frame {}", source->name(), index); }

    Status locateNative(const Part10Layout& layout);
    Status locateEncapsulated(const Part10Layout& layout, BlockReader& reader);
    Status locateByExtendedTable(const Part10Layout& layout, BlockReader& reader, std::uint64_t base);
    Status locateByBasicTable(BlockReader& reader, std::uint64_t first, std::uint32_t bot, std::uint64_t base);
    Result<std::uint64_t> itemsEnd(BlockReader& reader, std::uint64_t from, std::vector<Extent>* fragments) const;
};

Status FrameSource::Impl::fetch(std::uint32_t index, const Extent& extent) {
    while (!ahead.empty() && ahead.front().index < index) ahead.pop_front();  // passed by: waited for, dropped
    if (!ahead.empty() && ahead.front().index == index) {
        auto got = std::move(ahead.front());
        ahead.pop_front();
        if (auto ok = got.fetched.get(); ok) {
            staging = std::move(*got.bytes);
            return {};
        }  // a failed fetch ahead is tried again now, so that its error is this read's own
    } else {
        ahead.clear();  // a seek: what was fetched ahead is not wanted
    }
    staging.resize(extent.length);
    return source->read(extent.offset, staging);
}

void FrameSource::Impl::readAhead(std::uint32_t index) {
    const bool inOrder = lastRead >= 0 && static_cast<std::int64_t>(index) == lastRead + 1;  // two in a row
    lastRead = index;
    if (!source->remote() || !inOrder) return;
    std::uint32_t next = ahead.empty() ? index + 1 : ahead.back().index + 1;
    for (; next <= index + kFramesAhead && next < extents.size(); ++next) {
        auto bytes = std::make_shared<std::vector<std::byte>>(extents[next].length);
        auto fetched = std::async(std::launch::async, [src = source, at = extents[next].offset, bytes] { return src->read(at, *bytes); });
        ahead.push_back({next, std::move(bytes), std::move(fetched)});
    }
}

Status FrameSource::Impl::locateNative(const Part10Layout& layout) {
    auto& f = pixels.format;
    const std::uint64_t frame = f.frameBytes();
    if (static_cast<std::uint64_t>(layout.pixelData.length) < frame * f.frames) {
        return fail(ErrorCode::DataLoss, fmt::format("{}: Pixel Data holds {} bytes; {} frames of {} x {} x {} need {}", source->name(),
                                                     layout.pixelData.length, f.frames, f.rows, f.columns, f.samplesPerPixel, frame * f.frames));
    }
    f.index = FrameIndex::Native;
    for (std::uint32_t k = 0; k < f.frames; ++k) extents.push_back({layout.pixelData.offset + k * frame, frame});
    return {};
}

// The items from `from` up to the sequence delimiter: where it ends (the delimiter's first byte),
// each item's extent kept in `fragments` when asked for.
Result<std::uint64_t> FrameSource::Impl::itemsEnd(BlockReader& reader, std::uint64_t from, std::vector<Extent>* fragments) const {
    for (std::uint64_t at = from;;) {
        std::array<std::byte, 8> head{};
        if (auto ok = reader.read(at, head); !ok) {
            return fail(ErrorCode::DataLoss, fmt::format("{}: the pixel data's items run past the end at byte {} (no sequence delimiter)", source->name(), at));
        }
        const auto tag = le32(head.data());
        if (tag == kSequenceDelimiterTag) return at;
        const auto length = le32(head.data() + 4);
        if (tag != kItemTag || length == kUndefinedLength || at + 8 + length > reader.size()) {
            return fail(ErrorCode::DataLoss, fmt::format("{}: a damaged pixel data item at byte {} (tag {:08X}, length {})", source->name(), at, tag, length));
        }
        if (fragments != nullptr) fragments->push_back({at, 8 + std::uint64_t{length}});
        at += 8 + length;
    }
}

Status FrameSource::Impl::locateEncapsulated(const Part10Layout& layout, BlockReader& reader) {
    auto& f = pixels.format;
    const std::uint64_t first = layout.pixelData.offset;
    std::array<std::byte, 8> head{};
    if (auto ok = reader.read(first, head); !ok) return ok;
    const auto bot = le32(head.data() + 4);
    if (le32(head.data()) != kItemTag || bot == kUndefinedLength || bot % 4 != 0 || first + 8 + bot > reader.size()) {
        return fail(ErrorCode::DataLoss,
                    fmt::format("{}: encapsulated Pixel Data does not start with a Basic Offset Table item (byte {})", source->name(), first));
    }
    const std::uint64_t base = first + 8 + bot;  // offsets count from the first fragment's item tag
    if (layout.extendedOffsetTable && layout.extendedOffsetTableLengths) return locateByExtendedTable(layout, reader, base);
    if (bot > 0) return locateByBasicTable(reader, first, bot, base);
    std::vector<Extent> fragments;  // no table: one fragment a frame (as RLE requires), or one frame in all its fragments
    auto end = itemsEnd(reader, base, &fragments);
    if (!end) return fail(std::move(end.error()));
    if (f.frames == 1 && !fragments.empty()) {
        extents.push_back({base, *end - base});
    } else if (fragments.size() == f.frames) {
        extents = std::move(fragments);
    } else {
        return fail(ErrorCode::DataLoss, fmt::format("{}: {} fragments for {} frames and no offset table: the frames cannot be told apart", source->name(),
                                                     fragments.size(), f.frames));
    }
    f.index = FrameIndex::Fragments;
    return {};
}

// The frames where the Extended Offset Table and its lengths put them (each offset from base).
Status FrameSource::Impl::locateByExtendedTable(const Part10Layout& layout, BlockReader& reader, std::uint64_t base) {
    auto& f = pixels.format;
    const auto beyond = [&](std::uint64_t at) { return at < base || at > reader.size(); };
    const auto& table = *layout.extendedOffsetTable;
    const auto& lengths = *layout.extendedOffsetTableLengths;
    if (table.length != 8ull * f.frames || lengths.length != 8ull * f.frames) {
        return fail(ErrorCode::DataLoss, fmt::format("{}: the Extended Offset Table has {} entries and its lengths {}, for {} frames", source->name(),
                                                     table.length / 8, lengths.length / 8, f.frames));
    }
    std::vector<std::byte> offsets(table.length), sizes(lengths.length);
    if (auto ok = reader.read(table.offset, offsets); !ok) return ok;
    if (auto ok = reader.read(lengths.offset, sizes); !ok) return ok;
    for (std::uint32_t k = 0; k < f.frames; ++k) {
        const std::uint64_t at = base + le64(offsets.data() + 8 * k), length = le64(sizes.data() + 8 * k);
        const std::uint64_t span = 8 + length + (length & 1);  // the item's tag and length, its data, padding to even
        if (beyond(at) || span > reader.size() - at) {
            return fail(ErrorCode::DataLoss,
                        fmt::format("{}: the Extended Offset Table puts frame {} at bytes {}-{}, outside the pixel data", source->name(), k, at, at + span));
        }
        extents.push_back({at, span});
    }
    f.index = FrameIndex::ExtendedOffsetTable;
    return {};
}

// The frames where the Basic Offset Table (its item at `first`, `bot` bytes) puts them, each
// offset from base; the last runs to the sequence delimiter.
Status FrameSource::Impl::locateByBasicTable(BlockReader& reader, std::uint64_t first, std::uint32_t bot, std::uint64_t base) {
    auto& f = pixels.format;
    const auto beyond = [&](std::uint64_t at) { return at < base || at > reader.size(); };
    if (bot / 4 != f.frames)
        return fail(ErrorCode::DataLoss, fmt::format("{}: the Basic Offset Table has {} entries for {} frames", source->name(), bot / 4, f.frames));
    std::vector<std::byte> table(bot);
    if (auto ok = reader.read(first + 8, table); !ok) return ok;
    std::vector<std::uint64_t> starts;
    for (std::uint32_t k = 0; k < f.frames; ++k) starts.push_back(base + le32(table.data() + 4 * k));
    auto end = itemsEnd(reader, starts.back(), nullptr);  // the last frame runs to the delimiter
    if (!end) return fail(std::move(end.error()));
    starts.push_back(*end);
    for (std::uint32_t k = 0; k < f.frames; ++k) {
        if (beyond(starts[k]) || starts[k + 1] < starts[k] || starts[k] == starts[k + 1]) {
            return fail(ErrorCode::DataLoss, fmt::format("{}: the Basic Offset Table puts frame {} at byte {}, out of order or outside the pixel data",
                                                         source->name(), k, starts[k]));
        }
        extents.push_back({starts[k], starts[k + 1] - starts[k]});
    }
    f.index = FrameIndex::BasicOffsetTable;
    return {};
}

Result<FrameSource> FrameSource::open(std::shared_ptr<ByteSource> source) {
    auto impl = std::make_unique<Impl>();
    impl->source = source;
    BlockReader reader(source);
    auto layout = findLayout(reader);
    if (!layout) return fail(std::move(layout.error()));
    std::vector<std::byte> header(layout->pixelDataTag);
    if (auto ok = reader.read(0, header); !ok) return fail(std::move(ok.error()));
    auto pixels = parseHeader(header, layout->transferSyntaxUid, source->name());
    if (!pixels) return fail(std::move(pixels.error()));
    impl->pixels = std::move(*pixels);
    const bool encapsulated = layout->pixelData.length == kUndefinedLength;
    if (auto ok = encapsulated ? impl->locateEncapsulated(*layout, reader) : impl->locateNative(*layout); !ok) return fail(std::move(ok.error()));
    return FrameSource(std::move(impl));
}

FrameSource::FrameSource(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
FrameSource::FrameSource(FrameSource&&) noexcept = default;
FrameSource& FrameSource::operator=(FrameSource&&) noexcept = default;
FrameSource::~FrameSource() = default;

const FrameFormat& FrameSource::format() const noexcept { return impl_->pixels.format; }
std::string FrameSource::name() const { return impl_->source->name(); }

Result<FrameSource::Extent> FrameSource::frameExtent(std::uint32_t index) const {
    if (index >= impl_->extents.size()) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("{}: frame {} asked for, it has {} (0-{})", name(), index, impl_->extents.size(), impl_->extents.size() - 1));
    }
    return impl_->extents[index];
}

Status FrameSource::readFrame(std::uint32_t index, std::span<std::byte> out) {
    auto extent = frameExtent(index);
    if (!extent) return fail(std::move(extent.error()));
    auto& m = *impl_;
    const auto& f = m.pixels.format;
    if (out.size() != f.frameBytes()) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{}: a buffer of {} bytes for a frame of {}", m.frameName(index), out.size(), f.frameBytes()));
    }
    const bool fetchedAhead = !m.ahead.empty() && m.ahead.front().index == index;
    if (f.index == FrameIndex::Native && !fetchedAhead) {  // straight into the caller's buffer
        m.ahead.clear();
        if (auto ok = m.source->read(extent->offset, out); !ok) return fail(std::move(ok.error()));
        if (f.samplesPerPixel > 1 && m.pixels.planarConfiguration == 1) interleavePlanes(out, f.samplesPerPixel, f.bitsAllocated / 8, m.scratch);
        m.readAhead(index);
        return {};
    }
    if (auto ok = m.fetch(index, *extent); !ok) return fail(std::move(ok.error()));  // the frame's bytes (its items) in one read
    m.readAhead(index);
    if (f.index == FrameIndex::Native) {
        std::memcpy(out.data(), m.staging.data(), out.size());
        if (f.samplesPerPixel > 1 && m.pixels.planarConfiguration == 1) interleavePlanes(out, f.samplesPerPixel, f.bitsAllocated / 8, m.scratch);
        return {};
    }
    std::vector<std::span<const std::byte>> fragments;
    for (std::size_t at = 0; at + 8 <= m.staging.size();) {
        const auto tag = le32(m.staging.data() + at);
        const auto length = le32(m.staging.data() + at + 4);
        if (tag != kItemTag || length > m.staging.size() - at - 8) {
            return fail(ErrorCode::DataLoss,
                        fmt::format("{}: a damaged pixel data item at byte {} (tag {:08X}, length {})", m.frameName(index), extent->offset + at, tag, length));
        }
        fragments.emplace_back(m.staging.data() + at + 8, length);
        at += 8 + length;
    }
    if (fragments.empty()) return fail(ErrorCode::DataLoss, fmt::format("{}: no fragment at byte {}", m.frameName(index), extent->offset));
    return decodeFrame(m.pixels, fragments, out, m.frameName(index));
}

}  // namespace sonolink::dicom
