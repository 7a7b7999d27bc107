// libFuzzer target: a DICOM image read in place (dicom::FrameSource: the element walk to Pixel
// Data, the offset tables, each frame's items and DCMTK's decoders) from bytes in memory, as an
// object of the archive would be: a clear error, never a crash or a read outside the object.
#include <algorithm>
#include <cstring>
#include <vector>

#include "sonolink/dicom/frame_source.h"

namespace {

class MemorySource final : public sonolink::ByteSource {
public:
    MemorySource(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
    std::string name() const override { return "fuzz.dcm"; }
    std::uint64_t size() const override { return size_; }
    sonolink::Status read(std::uint64_t offset, std::span<std::byte> into) override {
        if (offset > size_ || into.size() > size_ - offset) return sonolink::fail(sonolink::ErrorCode::DataLoss, "beyond the object");
        if (!into.empty()) std::memcpy(into.data(), data_ + offset, into.size());
        return {};
    }

private:
    const std::uint8_t* data_;
    std::size_t size_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    auto frames = sonolink::dicom::FrameSource::open(std::make_shared<MemorySource>(data, size));
    if (!frames) return 0;
    const auto bytes = frames->format().frameBytes();
    if (bytes > (64u << 20)) return 0;  // the fuzzer's memory limit; FrameSource itself allows up to 1 GiB
    std::vector<std::byte> frame(bytes);
    for (std::uint32_t k = 0; k < std::min<std::uint32_t>(frames->format().frames, 4); ++k) (void)frames->readFrame(k, frame);
    return 0;
}
