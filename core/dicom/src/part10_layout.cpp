#include "part10_layout.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>

#include <fmt/format.h>

namespace sonolink::dicom {
namespace {

constexpr std::uint32_t tagOf(std::uint16_t group, std::uint16_t element) { return (std::uint32_t{group} << 16) | element; }
constexpr std::uint32_t kItem = tagOf(0xFFFE, 0xE000);
constexpr std::uint32_t kItemDelimiter = tagOf(0xFFFE, 0xE00D);
constexpr std::uint32_t kSequenceDelimiter = tagOf(0xFFFE, 0xE0DD);
constexpr std::uint32_t kPixelData = tagOf(0x7FE0, 0x0010);
constexpr std::uint32_t kExtendedOffsetTable = tagOf(0x7FE0, 0x0001);
constexpr std::uint32_t kExtendedOffsetTableLengths = tagOf(0x7FE0, 0x0002);
constexpr std::uint32_t kTransferSyntax = tagOf(0x0002, 0x0010);
constexpr int kMaxDepth = 32;  // nested sequences: deeper is a damaged object, not a real one

struct Element {
    std::uint32_t tag = 0;
    std::string vr;  // empty in implicit VR and for items
    ValueExtent value;
    std::uint64_t next() const { return value.offset + value.length; }
};

bool longLength(const std::string& vr) {
    static constexpr const char* kLong[] = {"OB", "OD", "OF", "OL", "OV", "OW", "SQ", "SV", "UC", "UN", "UR", "UT", "UV"};
    return std::any_of(std::begin(kLong), std::end(kLong), [&](const char* v) { return vr == v; });
}

std::string tagText(std::uint32_t tag) { return fmt::format("({:04X},{:04X})", tag >> 16, tag & 0xFFFF); }

class Walker {
public:
    explicit Walker(BlockReader& reader) : reader_(reader) {}

    Result<Element> header(std::uint64_t at, bool explicitVr) {
        auto group = reader_.u16(at);
        auto element = reader_.u16(at + 2);
        if (!group || !element) return fail(ErrorCode::DataLoss, fmt::format("{}: the header runs past the end at byte {}", reader_.name(), at));
        Element e;
        e.tag = tagOf(*group, *element);
        if (*group == 0xFFFE || !explicitVr) {
            auto length = reader_.u32(at + 4);
            if (!length) return fail(ErrorCode::DataLoss, fmt::format("{}: the header runs past the end at byte {}", reader_.name(), at));
            e.value = {at + 8, *length};
            return e;
        }
        std::array<std::byte, 2> vr{};
        if (auto ok = reader_.read(at + 4, vr); !ok)
            return fail(ErrorCode::DataLoss, fmt::format("{}: the header runs past the end at byte {}", reader_.name(), at));
        e.vr = {static_cast<char>(vr[0]), static_cast<char>(vr[1])};
        if (!std::isupper(static_cast<unsigned char>(e.vr[0])) || !std::isupper(static_cast<unsigned char>(e.vr[1]))) {
            return fail(ErrorCode::DataLoss, fmt::format("{}: element {} at byte {} has no value representation ('{}'): a damaged header", reader_.name(),
                                                         tagText(e.tag), at, e.vr));
        }
        if (longLength(e.vr)) {
            auto length = reader_.u32(at + 8);
            if (!length) return fail(ErrorCode::DataLoss, fmt::format("{}: the header runs past the end at byte {}", reader_.name(), at));
            e.value = {at + 12, *length};
        } else {
            auto length = reader_.u16(at + 6);
            if (!length) return fail(ErrorCode::DataLoss, fmt::format("{}: the header runs past the end at byte {}", reader_.name(), at));
            e.value = {at + 8, *length};
        }
        return e;
    }

    // The byte after an element's value; an undefined length is walked item by item (the value
    // of UN with undefined length is implicit VR, PS3.5 6.2.2).
    Result<std::uint64_t> skip(const Element& e, bool explicitVr, int depth) {
        if (e.value.length != kUndefinedLength) return checkedEnd(e.next(), e.tag);
        if (depth >= kMaxDepth)
            return fail(ErrorCode::DataLoss, fmt::format("{}: sequences nested over {} deep at byte {}", reader_.name(), kMaxDepth, e.value.offset));
        const bool inner = explicitVr && e.vr != "UN";
        for (std::uint64_t at = e.value.offset;;) {
            auto item = header(at, false);
            if (!item) return fail(std::move(item.error()));
            if (item->tag == kSequenceDelimiter) return item->value.offset;
            if (item->tag != kItem) {
                return fail(ErrorCode::DataLoss,
                            fmt::format("{}: {} where an item of {} was due, at byte {}", reader_.name(), tagText(item->tag), tagText(e.tag), at));
            }
            if (item->value.length != kUndefinedLength) {
                auto end = checkedEnd(item->next(), item->tag);
                if (!end) return end;
                at = *end;
                continue;
            }
            for (at = item->value.offset;;) {  // an item of undefined length: elements up to its delimiter
                auto inside = header(at, inner);
                if (!inside) return fail(std::move(inside.error()));
                if (inside->tag == kItemDelimiter) {
                    at = inside->value.offset;
                    break;
                }
                auto end = skip(*inside, inner, depth + 1);
                if (!end) return end;
                at = *end;
            }
        }
    }

private:
    Result<std::uint64_t> checkedEnd(std::uint64_t end, std::uint32_t tag) const {
        if (end > reader_.size()) {
            return fail(ErrorCode::DataLoss,
                        fmt::format("{}: {}'s value runs to byte {}, past the end ({} bytes)", reader_.name(), tagText(tag), end, reader_.size()));
        }
        return end;
    }
    BlockReader& reader_;
};

std::string trimmedUid(std::span<const std::byte> value) {
    std::string uid(reinterpret_cast<const char*>(value.data()), value.size());
    while (!uid.empty() && (uid.back() == '\0' || uid.back() == ' ')) uid.pop_back();
    return uid;
}

}  // namespace

Status BlockReader::read(std::uint64_t offset, std::span<std::byte> into) {
    if (offset > size() || into.size() > size() - offset) {
        return fail(ErrorCode::DataLoss, fmt::format("{}: bytes {}-{} asked for, the object has {}", name(), offset, offset + into.size(), size()));
    }
    for (std::size_t done = 0; done < into.size();) {
        const std::uint64_t at = offset + done;
        const std::uint64_t index = at / kBlock;
        auto it = blocks_.find(index);
        if (it == blocks_.end()) {
            if (blocks_.size() >= kKeep) blocks_.erase(blocks_.begin());
            std::vector<std::byte> block(std::min<std::uint64_t>(kBlock, size() - index * kBlock));
            if (auto ok = source_->read(index * kBlock, block); !ok) return ok;
            it = blocks_.emplace(index, std::move(block)).first;
        }
        const std::uint64_t within = at - index * kBlock;
        const std::size_t take = std::min<std::uint64_t>(into.size() - done, it->second.size() - within);
        std::memcpy(into.data() + done, it->second.data() + within, take);
        done += take;
    }
    return {};
}

Result<std::uint16_t> BlockReader::u16(std::uint64_t offset) {
    std::array<std::byte, 2> b{};
    if (auto ok = read(offset, b); !ok) return fail(std::move(ok.error()));
    return static_cast<std::uint16_t>(std::to_integer<unsigned>(b[0]) | (std::to_integer<unsigned>(b[1]) << 8));
}

Result<std::uint32_t> BlockReader::u32(std::uint64_t offset) {
    std::array<std::byte, 4> b{};
    if (auto ok = read(offset, b); !ok) return fail(std::move(ok.error()));
    std::uint32_t v = 0;
    for (int k = 3; k >= 0; --k) v = (v << 8) | std::to_integer<std::uint32_t>(b[static_cast<std::size_t>(k)]);
    return v;
}

Result<Part10Layout> findLayout(BlockReader& reader) {
    std::array<std::byte, 4> magic{};
    if (reader.size() < 132 || !reader.read(128, magic) || std::memcmp(magic.data(), "DICM", 4) != 0) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{}: not a DICOM Part 10 file (no 'DICM' after the 128-byte preamble)", reader.name()));
    }
    Part10Layout layout;
    Walker meta(reader);
    std::uint64_t at = 132;
    for (;;) {  // the File Meta Information: explicit VR little endian, group 0002
        auto group = reader.u16(at);
        if (!group) return fail(std::move(group.error()));
        if (*group != 0x0002) break;
        auto e = meta.header(at, true);
        if (!e) return fail(std::move(e.error()));
        if (e->tag == kTransferSyntax) {
            std::vector<std::byte> value(e->value.length);
            if (auto ok = reader.read(e->value.offset, value); !ok) return fail(std::move(ok.error()));
            layout.transferSyntaxUid = trimmedUid(value);
        }
        auto end = meta.skip(*e, true, 0);
        if (!end) return fail(std::move(end.error()));
        at = *end;
    }
    const auto& ts = layout.transferSyntaxUid;
    if (ts.empty()) return fail(ErrorCode::InvalidArgument, fmt::format("{}: the file meta information names no transfer syntax (0002,0010)", reader.name()));
    if (ts == "1.2.840.10008.1.2.2" || ts == "1.2.840.10008.1.2.1.99") {
        return fail(ErrorCode::Unimplemented,
                    fmt::format("{}: transfer syntax {} ({}) cannot be read in place; convert it to explicit VR little endian first (DCMTK: dcmconv +te)",
                                reader.name(), ts, ts == "1.2.840.10008.1.2.2" ? "explicit VR big endian" : "deflated"));
    }
    layout.explicitVr = ts != "1.2.840.10008.1.2";
    Walker walker(reader);
    while (at < reader.size()) {
        auto e = walker.header(at, layout.explicitVr);
        if (!e) return fail(std::move(e.error()));
        if (e->tag == kPixelData) {
            layout.pixelDataTag = at;
            layout.pixelData = e->value;
            if (e->value.length != kUndefinedLength && e->value.offset + e->value.length > reader.size()) {
                return fail(ErrorCode::DataLoss, fmt::format("{}: Pixel Data holds {} bytes from byte {}, past the end ({} bytes): the object is cut short",
                                                             reader.name(), e->value.length, e->value.offset, reader.size()));
            }
            return layout;
        }
        if (e->tag == kExtendedOffsetTable) layout.extendedOffsetTable = e->value;
        if (e->tag == kExtendedOffsetTableLengths) layout.extendedOffsetTableLengths = e->value;
        auto end = walker.skip(*e, layout.explicitVr, 0);
        if (!end) return fail(std::move(end.error()));
        at = *end;
    }
    return fail(ErrorCode::InvalidArgument, fmt::format("{}: no Pixel Data (7FE0,0010) at the top level: not an image", reader.name()));
}

}  // namespace sonolink::dicom
