// Part10Layout: where things lie in a DICOM Part 10 object read by offset (a ByteSource), found
// by walking its elements' headers without loading their values: the transfer syntax, the end of
// the header (the top-level Pixel Data element), Pixel Data's value and whether it is
// encapsulated, and the Extended Offset Table's values. Sequences of defined or undefined length
// are stepped over item by item. Private to sonolink_dicom. Thread contract: one thread.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sonolink/util/byte_source.h"
#include "sonolink/util/result.h"

namespace sonolink::dicom {

inline constexpr std::uint32_t kUndefinedLength = 0xFFFFFFFFu;

// Reads through a cache of aligned 64 KiB blocks: the many small header reads of a remote
// object cost one request a block.
class BlockReader {
public:
    explicit BlockReader(std::shared_ptr<ByteSource> source) : source_(std::move(source)) {}
    [[nodiscard]] Status read(std::uint64_t offset, std::span<std::byte> into);
    [[nodiscard]] Result<std::uint16_t> u16(std::uint64_t offset);
    [[nodiscard]] Result<std::uint32_t> u32(std::uint64_t offset);
    [[nodiscard]] std::uint64_t size() const { return source_->size(); }
    [[nodiscard]] const std::string name() const { return source_->name(); }

private:
    static constexpr std::uint64_t kBlock = 64 * 1024;
    std::shared_ptr<ByteSource> source_;
    std::map<std::uint64_t, std::vector<std::byte>> blocks_;  // by block index; at most kKeep
    static constexpr std::size_t kKeep = 32;
};

struct ValueExtent {
    std::uint64_t offset = 0;
    std::uint32_t length = 0;  // kUndefinedLength: encapsulated (items follow)
};

struct Part10Layout {
    std::string transferSyntaxUid;
    bool explicitVr = true;
    std::uint64_t pixelDataTag = 0;  // where the header ends: the top-level (7FE0,0010)'s tag
    ValueExtent pixelData;
    std::optional<ValueExtent> extendedOffsetTable;         // (7FE0,0001)
    std::optional<ValueExtent> extendedOffsetTableLengths;  // (7FE0,0002)
};

// Fails with the object's name and the offset for what is not a Part 10 object, a big-endian or
// deflated transfer syntax (not readable in place), a header that runs past the end, or no Pixel
// Data.
[[nodiscard]] Result<Part10Layout> findLayout(BlockReader& reader);

}  // namespace sonolink::dicom
