#include <cstring>

#include <fmt/format.h>

#include "sonolink/util/byte_source.h"
#include "sonolink/util/mapped_file.h"

namespace sonolink {
namespace {

class MappedSource final : public ByteSource {
public:
    explicit MappedSource(MappedFile file) : file_(std::move(file)) {}
    std::string name() const override { return file_.path().string(); }
    std::uint64_t size() const override { return file_.bytes().size(); }
    Status read(std::uint64_t offset, std::span<std::byte> into) override {
        const auto bytes = file_.bytes();
        if (offset > bytes.size() || into.size() > bytes.size() - offset) {
            return fail(ErrorCode::DataLoss, fmt::format("{}: bytes {}-{} asked for, the file has {}", name(), offset, offset + into.size(), bytes.size()));
        }
        if (!into.empty()) std::memcpy(into.data(), bytes.data() + offset, into.size());
        return {};
    }

private:
    MappedFile file_;
};

}  // namespace

Result<std::shared_ptr<ByteSource>> mapFile(const std::filesystem::path& path) {
    auto file = MappedFile::open(path);
    if (!file) return fail(std::move(file.error()));
    return std::shared_ptr<ByteSource>(std::make_shared<MappedSource>(std::move(*file)));
}

}  // namespace sonolink
