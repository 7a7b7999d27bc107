#include "range_driver.h"

#include <H5FDpublic.h>

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <functional>
#include <future>
#include <list>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "sonolink/record/read_ahead.h"
#include "sonolink/util/log.h"

namespace sonolink::record {
namespace {

constexpr std::size_t kBlock = 256 << 10;     // a metadata block fetched at once
constexpr std::size_t kSmallRead = 64 << 10;  // reads under this come through the blocks
constexpr std::size_t kBlocksKept = 16;

struct DriverInfo {
    ByteSource* source;
};

std::mutex errorsMutex;
std::map<ByteSource*, Error> errors;  // the last failed read of each source

// The read-ahead ring's memory: page-aligned buffers kept for reuse once their range is dropped,
// so that it is touched (faulted in, and pinned where a GPU is present) once, not once a frame.
// Sizes are rounded up to kBufferGrain, so that the next frames' ranges (a few KiB apart in
// length) fit the buffers of the last ones.
constexpr std::size_t kBufferGrain = 256 << 10;

class BufferPool {
public:
    using Buffer = std::pair<std::byte*, std::size_t>;
    Buffer take(std::size_t size) {
        const std::size_t grain = size > kBufferGrain ? kBufferGrain : 4096;
        const std::size_t rounded = (size + grain - 1) / grain * grain;
        std::shared_ptr<HostPinning> pinning;
        {
            std::lock_guard lock(mutex_);
            auto best = free_.end();  // the smallest that fits
            for (auto it = free_.begin(); it != free_.end(); ++it) {
                if (it->second >= rounded && (best == free_.end() || it->second < best->second)) best = it;
            }
            if (best != free_.end()) {
                const Buffer b = *best;
                free_.erase(best);
                return b;
            }
            pinning = pinning_;
            ++counts_.buffersMade;
        }
        auto* memory = static_cast<std::byte*>(std::aligned_alloc(4096, rounded));
        if (!memory || !pinning) return {memory, memory ? rounded : 0};
        auto pinned = pinning->pin(memory, rounded);
        std::lock_guard lock(mutex_);
        if (pinned) {
            pinnedBy_.emplace(memory, std::move(pinning));
            ++counts_.buffersPinned;
        } else if (++counts_.pinFailures == 1) {
            log::warn(log::category("record"), "read-ahead buffers stay pageable (the GPU copies them through a staging buffer): {}",
                      pinned.error().describe());
        }
        return {memory, rounded};
    }
    // Kept for the next range while a source is read in place; freed (and unpinned) once none is.
    void give(Buffer b) {
        std::shared_ptr<HostPinning> pinnedBy;
        {
            std::lock_guard lock(mutex_);
            if (sourcesOpen_ > 0 && free_.size() < kStagedRanges) {
                free_.push_back(b);
                return;
            }
            if (auto it = pinnedBy_.find(b.first); it != pinnedBy_.end()) {
                pinnedBy = std::move(it->second);
                pinnedBy_.erase(it);
            }
            ++counts_.buffersFreed;
        }
        if (pinnedBy) pinnedBy->unpin(b.first);
        std::free(b.first);
    }
    // A source started or stopped reading in place; with the last one, the idle buffers go.
    void sourceOpened() {
        std::lock_guard lock(mutex_);
        ++sourcesOpen_;
    }
    void sourceClosed() {
        std::vector<Buffer> idle;
        {
            std::lock_guard lock(mutex_);
            if (--sourcesOpen_ > 0) return;
            idle.swap(free_);
        }
        for (const auto& b : idle) give(b);
    }
    void pinWith(std::shared_ptr<HostPinning> pinning) {
        std::lock_guard lock(mutex_);
        pinning_ = std::move(pinning);
    }
    ReadAheadCounts counts() {
        std::lock_guard lock(mutex_);
        return counts_;
    }

private:
    std::mutex mutex_;
    std::vector<Buffer> free_;
    std::size_t sourcesOpen_ = 0;  // sources with ranges staged (dropStaged() not yet called)
    std::shared_ptr<HostPinning> pinning_;
    std::map<std::byte*, std::shared_ptr<HostPinning>> pinnedBy_;  // each pinned buffer, by what pinned it
    ReadAheadCounts counts_;
};
// Never destroyed: a fetch may return its buffer after main() ends (its buffers stay reachable
// from here, not leaked).
BufferPool& pool() {
    static auto* instance = new BufferPool();
    return *instance;
}

// A range fetched ahead into a page-aligned buffer, by one of the fetch threads.
struct StagedRange {
    ByteRange range;
    BufferPool::Buffer buffer{nullptr, 0};
    std::shared_future<Status> fetched;
    ~StagedRange() {
        if (buffer.first) pool().give(buffer);
    }
    [[nodiscard]] std::byte* bytes() const noexcept { return buffer.first; }
};

// The threads that fetch staged ranges, started once and kept (not a thread per range): as many
// as the ranges a reader has in flight, each a request of its own.
class FetchThreads {
public:
    void fetch(std::function<void()> job) {
        std::lock_guard lock(mutex_);
        jobs_.push_back(std::move(job));
        // A thread for each job no idle thread will take (an idle one that has not woken yet
        // still counts as idle), up to kFetchThreads.
        if (jobs_.size() > idle_ && threads_ < kFetchThreads) {
            ++threads_;
            std::thread([this] { run(); }).detach();  // lives as long as the process
        }
        wake_.notify_one();
    }

private:
    static constexpr std::size_t kFetchThreads = 8;
    void run() {
        std::unique_lock lock(mutex_);
        for (;;) {
            ++idle_;
            wake_.wait(lock, [&] { return !jobs_.empty(); });
            --idle_;
            auto job = std::move(jobs_.front());
            jobs_.pop_front();
            lock.unlock();
            job();
            job = nullptr;  // its range (and buffer) goes now, not while the lock is held
            lock.lock();
        }
    }
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<std::function<void()>> jobs_;
    std::size_t threads_ = 0, idle_ = 0;
};
FetchThreads& fetchThreads() {
    static auto* instance = new FetchThreads();  // never destroyed, as the pool
    return *instance;
}

std::mutex stagedMutex;
std::map<ByteSource*, std::deque<std::shared_ptr<StagedRange>>> staged;  // oldest first
std::map<ByteSource*, std::uint64_t> unstaged;                           // large reads no staged range held
std::map<ByteSource*, ByteRange> served;                                 // the span of the large reads since takeServedSpan()

void noteServed(ByteSource* source, std::uint64_t addr, std::uint64_t size) {
    std::lock_guard lock(stagedMutex);
    auto [it, fresh] = served.try_emplace(source, ByteRange{addr, size});
    if (fresh) return;
    const std::uint64_t end = std::max(it->second.offset + it->second.size, addr + size);
    it->second.offset = std::min(it->second.offset, addr);
    it->second.size = end - it->second.offset;
}

// The staged range holding [addr, addr + size), once fetched; null when none holds it (or its
// fetch failed: the read then goes to the source itself).
std::shared_ptr<StagedRange> stagedHolding(ByteSource* source, std::uint64_t addr, std::uint64_t size) {
    std::shared_ptr<StagedRange> found;
    {
        std::lock_guard lock(stagedMutex);
        auto it = staged.find(source);
        if (it == staged.end()) return nullptr;
        for (const auto& r : it->second) {
            if (addr >= r->range.offset && addr + size <= r->range.offset + r->range.size) found = r;
        }
    }
    if (!found) return nullptr;
    const auto fetched = found->fetched;  // a copy of its own: shared_future's rule for threads
    return fetched.get().has_value() ? found : nullptr;
}

void keepError(ByteSource* source, Error error) {
    std::lock_guard lock(errorsMutex);
    errors.insert_or_assign(source, std::move(error));
}

struct RangeFile {
    H5FD_t pub;  // first: HDF5 sees this
    ByteSource* source = nullptr;
    haddr_t eoa = 0;
    std::uint64_t eof = 0;
    std::map<std::uint64_t, std::vector<std::byte>> blocks;  // by block index
    std::list<std::uint64_t> recent;                         // most recent first

    const std::vector<std::byte>* block(std::uint64_t index) {
        if (auto it = blocks.find(index); it != blocks.end()) {
            recent.remove(index);
            recent.push_front(index);
            return &it->second;
        }
        const std::uint64_t start = index * kBlock;
        std::vector<std::byte> bytes(static_cast<std::size_t>(std::min<std::uint64_t>(kBlock, eof - start)));
        if (auto ok = source->read(start, bytes); !ok) {
            keepError(source, std::move(ok.error()));
            return nullptr;
        }
        if (blocks.size() >= kBlocksKept) {
            blocks.erase(recent.back());
            recent.pop_back();
        }
        recent.push_front(index);
        return &(blocks[index] = std::move(bytes));
    }
};

H5FD_t* open(const char*, unsigned flags, hid_t fapl, haddr_t) {
    if (flags & (H5F_ACC_RDWR | H5F_ACC_CREAT | H5F_ACC_TRUNC)) return nullptr;
    const auto* info = static_cast<const DriverInfo*>(H5Pget_driver_info(fapl));
    if (!info || !info->source) return nullptr;
    auto* file = new RangeFile();
    file->source = info->source;
    file->eof = info->source->size();
    return &file->pub;
}

herr_t close(H5FD_t* f) {
    delete reinterpret_cast<RangeFile*>(f);
    return 0;
}

haddr_t getEoa(const H5FD_t* f, H5FD_mem_t) { return reinterpret_cast<const RangeFile*>(f)->eoa; }
herr_t setEoa(H5FD_t* f, H5FD_mem_t, haddr_t addr) {
    reinterpret_cast<RangeFile*>(f)->eoa = addr;
    return 0;
}
haddr_t getEof(const H5FD_t* f, H5FD_mem_t) { return reinterpret_cast<const RangeFile*>(f)->eof; }

herr_t read(H5FD_t* f, H5FD_mem_t, hid_t, haddr_t addr, size_t size, void* buffer) {
    auto* file = reinterpret_cast<RangeFile*>(f);
    auto* out = static_cast<std::byte*>(buffer);
    // Past the end reads as zeros, as HDF5's own sec2 driver does (HDF5 may probe past it).
    const std::uint64_t available = addr >= file->eof ? 0 : std::min<std::uint64_t>(size, file->eof - addr);
    std::memset(out + available, 0, size - available);
    if (available == 0) return 0;
    if (available >= kSmallRead) noteServed(file->source, addr, available);
    if (auto held = stagedHolding(file->source, addr, available)) {
        std::memcpy(out, held->bytes() + (addr - held->range.offset), available);
        return 0;
    }
    if (available >= kSmallRead) {
        {
            std::lock_guard lock(stagedMutex);
            ++unstaged[file->source];
        }
        if (auto ok = file->source->read(addr, std::span(out, available)); !ok) {
            keepError(file->source, std::move(ok.error()));
            return -1;
        }
        return 0;
    }
    for (std::uint64_t done = 0; done < available;) {
        const std::uint64_t at = addr + done;
        const auto* block = file->block(at / kBlock);
        if (!block) return -1;
        const std::uint64_t within = at % kBlock;
        const std::uint64_t n = std::min<std::uint64_t>(available - done, block->size() - within);
        std::memcpy(out + done, block->data() + within, n);
        done += n;
    }
    return 0;
}

herr_t write(H5FD_t*, H5FD_mem_t, hid_t, haddr_t, size_t, const void*) { return -1; }  // read-only

void* faplGet(H5FD_t* f) {
    auto* info = static_cast<DriverInfo*>(std::malloc(sizeof(DriverInfo)));
    if (info) info->source = reinterpret_cast<RangeFile*>(f)->source;
    return info;
}
void* faplCopy(const void* fapl) {
    auto* info = static_cast<DriverInfo*>(std::malloc(sizeof(DriverInfo)));
    if (info) std::memcpy(info, fapl, sizeof(DriverInfo));
    return info;
}
herr_t faplFree(void* fapl) {
    std::free(fapl);
    return 0;
}

hid_t driverId() {
    static const hid_t id = [] {
        static H5FD_class_t cls;
        std::memset(&cls, 0, sizeof cls);
        cls.name = "sonolink_range";
        cls.maxaddr = (haddr_t(1) << 62) - 1;
        cls.fc_degree = H5F_CLOSE_WEAK;
        cls.fapl_size = sizeof(DriverInfo);
        cls.fapl_get = faplGet;
        cls.fapl_copy = faplCopy;
        cls.fapl_free = faplFree;
        cls.open = open;
        cls.close = close;
        cls.get_eoa = getEoa;
        cls.set_eoa = setEoa;
        cls.get_eof = getEof;
        cls.read = read;
        cls.write = write;
        for (auto& m : cls.fl_map) m = H5FD_MEM_DEFAULT;
        return H5FDregister(&cls);
    }();
    return id;
}

}  // namespace

hid_t rangeDriverAccess(ByteSource& source) {
    const hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    const DriverInfo info{&source};
    if (fapl < 0 || H5Pset_driver(fapl, driverId(), &info) < 0) {
        if (fapl >= 0) H5Pclose(fapl);
        return -1;
    }
    return fapl;
}

void stageRanges(ByteSource& source, const std::vector<ByteRange>& ranges) {
    for (const auto& range : ranges) {
        {
            std::lock_guard lock(stagedMutex);
            auto [it, first] = staged.try_emplace(&source);
            if (first) pool().sourceOpened();
            auto& mine = it->second;
            const bool held = std::any_of(mine.begin(), mine.end(), [&](const auto& r) {
                return range.offset >= r->range.offset && range.offset + range.size <= r->range.offset + r->range.size;
            });
            if (held || range.size == 0) continue;
        }
        auto r = std::make_shared<StagedRange>();
        r->range = range;
        r->buffer = pool().take(range.size);
        if (!r->buffer.first) continue;  // no memory for it: the reads go to the source as they come
        // The thread holds the range (its buffer) until the fetch is done; the future holds only
        // the outcome (a packaged_task's state would hold the range too: a cycle that leaks).
        std::promise<Status> outcome;
        r->fetched = outcome.get_future().share();
        auto job = std::make_shared<std::promise<Status>>(std::move(outcome));
        fetchThreads().fetch([source = &source, r, job]() mutable {
            Status status = source->read(r->range.offset, std::span(r->bytes(), r->range.size));
            r.reset();  // before the outcome: a range dropped meanwhile is given back before dropStaged() returns
            job->set_value(std::move(status));
        });  // dropStaged() waits for it before the source goes
        std::lock_guard lock(stagedMutex);
        auto& mine = staged[&source];
        mine.push_back(std::move(r));
        while (mine.size() > kStagedRanges) mine.pop_front();
    }
}

std::optional<ByteRange> takeServedSpan(ByteSource& source) {
    std::lock_guard lock(stagedMutex);
    auto it = served.find(&source);
    if (it == served.end()) return std::nullopt;
    const ByteRange span = it->second;
    served.erase(it);
    return span;
}

std::uint64_t unstagedReads(ByteSource& source) {
    std::lock_guard lock(stagedMutex);
    auto it = unstaged.find(&source);
    return it == unstaged.end() ? 0 : it->second;
}

void dropStaged(ByteSource& source) {
    std::deque<std::shared_ptr<StagedRange>> gone;
    {
        std::lock_guard lock(stagedMutex);
        unstaged.erase(&source);
        served.erase(&source);
        auto it = staged.find(&source);
        if (it == staged.end()) return;
        gone = std::move(it->second);
        staged.erase(it);
    }
    for (auto& r : gone) r->fetched.wait();  // no fetch outlives its source
    gone.clear();
    pool().sourceClosed();
}

void pinReadAheadBuffers(std::shared_ptr<HostPinning> pinning) { pool().pinWith(std::move(pinning)); }

ReadAheadCounts readAheadCounts() { return pool().counts(); }

std::optional<Error> takeRangeDriverError(ByteSource& source) {
    std::lock_guard lock(errorsMutex);
    auto it = errors.find(&source);
    if (it == errors.end()) return std::nullopt;
    Error e = std::move(it->second);
    errors.erase(it);
    return e;
}

}  // namespace sonolink::record
