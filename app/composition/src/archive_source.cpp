#include "sonolink/app/archive_source.h"

#include <mutex>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "sonolink/app/archive_setup.h"
#include "sonolink/record/read_ahead.h"

#if SONOLINK_HAVE_CUDA
#include "sonolink/beamform/cuda/gpu_probe.h"
#include "sonolink/beamform/cuda/host_pinning_cuda.h"
#endif

namespace sonolink::app {
namespace {

constexpr std::size_t kParallelAbove = std::size_t(8) << 20;  // reads larger than this go in parallel ranges

class ArchiveObjectSource final : public ByteSource {
public:
    ArchiveObjectSource(std::shared_ptr<archive::S3Client> client, archive::S3Location object, std::uint64_t size)
        : client_(std::move(client)), object_(std::move(object)), size_(size) {}
    std::string name() const override { return object_.url(); }
    std::uint64_t size() const override { return size_; }
    bool remote() const override { return true; }
    Status read(std::uint64_t offset, std::span<std::byte> into) override {
        const auto pieces = into.size() > kParallelAbove ? static_cast<std::size_t>(client_->settings().parallelRequests) : 1;
        if (pieces <= 1) return client_->readRange(object_, offset, into);
        const std::size_t step = (into.size() + pieces - 1) / pieces;
        std::vector<Status> results(pieces);
        {
            std::vector<std::jthread> threads;
            for (std::size_t i = 0; i < pieces; ++i) {
                const std::size_t start = i * step;
                if (start >= into.size()) break;
                threads.emplace_back(
                    [&, i, start] { results[i] = client_->readRange(object_, offset + start, into.subspan(start, std::min(step, into.size() - start))); });
            }
        }
        for (auto& r : results) {
            if (!r) return r;
        }
        return {};
    }

private:
    std::shared_ptr<archive::S3Client> client_;
    archive::S3Location object_;
    std::uint64_t size_;
};

// Where a GPU is present, the read-ahead ring's buffers are page-locked for its copy engine.
// Asked once per process (the CUDA driver's first call takes about 100 ms).
void pinReadAheadWhereAGpuIs() {
#if SONOLINK_HAVE_CUDA
    static std::once_flag once;
    std::call_once(once, [] {
        if (beamform::cuda::probeCuda()) record::pinReadAheadBuffers(beamform::cuda::cudaHostPinning());
    });
#endif
}

}  // namespace

Result<std::shared_ptr<ByteSource>> openArchiveObject(std::shared_ptr<archive::S3Client> client, archive::S3Location object) {
    auto info = client->head(object);
    if (!info) return fail(std::move(info.error()));
    return std::shared_ptr<ByteSource>(std::make_shared<ArchiveObjectSource>(std::move(client), std::move(object), info->sizeBytes));
}

Result<std::shared_ptr<ByteSource>> openSource(const std::string& pathOrUrl, const config::ArchiveSettings& archive) {
    if (!archive::isS3Url(pathOrUrl)) return mapFile(pathOrUrl);
    auto where = archive::parseS3Url(pathOrUrl);
    if (!where) return fail(std::move(where.error()));
    auto client = makeArchiveClient(archive);
    if (!client) return fail(std::move(client.error()).addContext("opening " + pathOrUrl));
    return openArchiveObject(std::shared_ptr<archive::S3Client>(std::move(*client)), *where);
}

Result<record::UffReader> openRecording(const std::string& pathOrUrl, const config::ArchiveSettings& archive, const std::string& group) {
    if (!archive::isS3Url(pathOrUrl)) return record::UffReader::open(pathOrUrl, group);
    auto source = openSource(pathOrUrl, archive);
    if (!source) return fail(std::move(source.error()));
    pinReadAheadWhereAGpuIs();
    return record::UffReader::open(std::move(*source), group);
}

}  // namespace sonolink::app
