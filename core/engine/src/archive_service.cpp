#include "archive_service.h"

#include <algorithm>
#include <chrono>
#include <filesystem>

#include <fmt/format.h>

#include "sonolink/util/log.h"
#include "sonolink/util/thread_affinity.h"

namespace sonolink::engine {

Result<std::unique_ptr<ArchiveService>> ArchiveService::start(const ArchiveSetup& setup, std::shared_ptr<archive::S3Client> client) {
    if (setup.bucket.empty()) return fail(ErrorCode::InvalidArgument, "the archive needs archive.bucket: the bucket recordings and studies go to");
    std::unique_ptr<ArchiveService> service(new ArchiveService());
    service->setup_ = setup;
    service->client_ = std::move(client);
    auto queue = archive::ArchiveQueue::open(setup.queueDirectory, setup.retry);
    if (!queue) return fail(std::move(queue.error()));
    service->queue_ = std::move(*queue);
    if (!setup.auditFile.empty()) {
        auto audit = archive::ArchiveAudit::open(setup.auditFile);
        if (!audit) return fail(std::move(audit.error()));
        service->audit_ = std::move(*audit);
    }
    service->thread_ = std::thread([raw = service.get()] { raw->run(); });
    return service;
}

ArchiveService::~ArchiveService() {
    stop_ = true;
    wake();
    if (thread_.joinable()) thread_.join();
}

void ArchiveService::wake() {
    {
        MutexLock lock(mutex_);
        pending_ = true;
    }
    woken_.notify_all();
}

Result<archive::ArchiveItem> ArchiveService::enqueue(const std::string& file, const std::string& kind) {
    const std::string folder = kind == "recording" ? "recordings/" : "studies/";
    auto where = archive::parseS3Url(fmt::format("s3://{}/{}{}{}", setup_.bucket, setup_.prefix, folder, std::filesystem::path(file).filename().string()));
    if (!where) return fail(std::move(where.error()));
    auto item = queue_->enqueue(file, *where, kind, archive::epochMs());
    if (item) wake();
    return item;
}

std::vector<archive::ArchiveItem> ArchiveService::items() const { return queue_->items(); }

Status ArchiveService::retry(std::int64_t id) {
    auto ok = queue_->retry(id);
    if (ok) wake();
    return ok;
}

void ArchiveService::run() {
    nameCurrentThread("arc");
    yieldCurrentThreadToInteractive(kThroughputWorkNice);  // uploads give way to the link and the GUI
    auto& log = log::category("archive");
    while (!stop_) {
        try {
            auto report = archive::runArchivePass(*queue_, *client_, audit_.get(), setup_.pass, &stop_);
            if (!report) log::error(log, "archive pass: {}", report.error().describe());
        } catch (const std::exception& e) {
            log::error(log, "archive pass: {}", e.what());
        }
        // Until the next item is due, something is queued, or the engine goes (a minute at most:
        // retention is applied on every pass).
        const auto next = queue_->nextDueMs();
        const auto waitMs = std::clamp<std::int64_t>(next ? *next - archive::epochMs() : 60'000, 0, 60'000);
        UniqueLock lock(mutex_);
        const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(waitMs);
        while (!pending_ && !stop_.load()) {
            if (woken_.wait_until(lock.native(), until) == std::cv_status::timeout) break;
        }
        pending_ = false;
    }
}

}  // namespace sonolink::engine
