#include "shared_region.h"

#include "sonolink/util/thread_affinity.h"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <new>

#include <fcntl.h>
#include <linux/futex.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <fmt/format.h>

namespace sonolink::transport::sim {
namespace {

constexpr std::size_t kPage = 4096;

std::size_t roundUp(std::size_t value, std::size_t to) { return (value + to - 1) / to * to; }

struct Layout {
    std::size_t completionOffset, ringOffset, total;
};

Layout layoutFor(std::uint32_t slotBytes, std::uint32_t slotCount) {
    Layout layout{};
    layout.completionOffset = roundUp(sizeof(RegionHeader), kPage);
    const auto completionBytes = sizeof(CompletionQueueHeader) + sizeof(CompletionEntry) * slotCount;
    layout.ringOffset = roundUp(layout.completionOffset + completionBytes, kPage);
    layout.total = layout.ringOffset + std::size_t(slotBytes) * slotCount;
    return layout;
}

std::string shmPath(const std::string& name) { return "/" + name; }

// A named region's shared memory, made anew and mapped: refused while another live host holds
// the name, else a stale region of a crashed host replaced. Its inode goes to inode (the owner
// unlinks the name at the end only while it is still this region's).
Result<void*> mapNamedRegion(const std::string& name, const Layout& layout, std::uint32_t slotBytes, std::uint32_t slotCount, std::uint64_t& inode) {
    if (auto existing = SharedRegion::open(name); existing) {
        const auto pid = (*existing)->header().hostPid.load();
        if (pid != ::getpid() && processAlive(pid)) {
            return fail(ErrorCode::FailedPrecondition, fmt::format("the link /dev/shm/{} is in use by another host (PID {}): stop it, or "
                                                                   "give this one another link name",
                                                                   name, pid));
        }
    }
    ::shm_unlink(shmPath(name).c_str());  // a stale region of a crashed host
    const int fd = ::shm_open(shmPath(name).c_str(), O_RDWR | O_CREAT | O_EXCL, 0600);
    if (fd < 0) {
        return fail(ErrorCode::Unavailable, fmt::format("cannot create shared memory /dev/shm/{}: {}", name, std::strerror(errno)));
    }
    // Every page reserved now (tmpfs allocates them): a /dev/shm too small fails here, named,
    // instead of a SIGBUS at the first write past its end.
    int err = ::ftruncate(fd, static_cast<off_t>(layout.total)) != 0 ? errno : ::posix_fallocate(fd, 0, static_cast<off_t>(layout.total));
    if (err != 0) {
        ::close(fd);
        ::shm_unlink(shmPath(name).c_str());
        struct statvfs fs {};
        const auto freeBytes = ::statvfs("/dev/shm", &fs) == 0 ? static_cast<double>(fs.f_bavail) * static_cast<double>(fs.f_frsize) : 0.0;
        return fail(ErrorCode::ResourceExhausted,
                    fmt::format("the link needs {:.1f} MiB of shared memory (/dev/shm/{}: {} slots of {} KiB and its queues) and /dev/shm has "
                                "{:.1f} MiB free ({}): make the ring smaller (link.slot_count, link.slot_size_bytes) or /dev/shm larger "
                                "(Docker: --shm-size)",
                                static_cast<double>(layout.total) / (1 << 20), name, slotCount, slotBytes / 1024, freeBytes / (1 << 20), std::strerror(err)));
    }
    struct stat st {};
    ::fstat(fd, &st);
    inode = st.st_ino;
    void* memory = ::mmap(nullptr, layout.total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    err = errno;
    ::close(fd);
    if (memory == MAP_FAILED) {
        ::shm_unlink(shmPath(name).c_str());
        return fail(ErrorCode::ResourceExhausted, fmt::format("cannot map /dev/shm/{}: {}", name, std::strerror(err)));
    }
    return memory;
}

}  // namespace

std::uint64_t steadyNowNs() noexcept {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return std::uint64_t(ts.tv_sec) * 1'000'000'000ull + std::uint64_t(ts.tv_nsec);
}

HeartbeatThread::HeartbeatThread(std::atomic<std::uint64_t>& word) : word_(word) {
    word_.store(steadyNowNs(), std::memory_order_relaxed);
    thread_ = std::thread([this] {
        nameCurrentThread("heartbeat");  // nothing here throws: a clock read, a store, a sleep
        while (!stop_.load(std::memory_order_relaxed)) {
            word_.store(steadyNowNs(), std::memory_order_relaxed);
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    });
}

HeartbeatThread::~HeartbeatThread() {
    stop_.store(true);
    thread_.join();
}

bool processAlive(std::int32_t pid) noexcept {
    if (pid <= 0) return false;
    return ::kill(pid, 0) == 0 || errno == EPERM;
}

Result<std::shared_ptr<SharedRegion>> SharedRegion::create(const std::string& name, std::uint32_t slotBytes, std::uint32_t slotCount) {
    if (slotBytes < kPage || slotBytes % kPage != 0 || slotCount < 2) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("ring of {} slots of {} bytes: slots must be a multiple of 4096 bytes, at least 2", slotCount, slotBytes));
    }
    const auto layout = layoutFor(slotBytes, slotCount);
    void* memory = MAP_FAILED;
    std::uint64_t inode = 0;
    if (name.empty()) {
        memory = ::mmap(nullptr, layout.total, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (memory == MAP_FAILED) {
            return fail(ErrorCode::ResourceExhausted, fmt::format("cannot map {} bytes for the link: {}", layout.total, std::strerror(errno)));
        }
    } else {
        auto mapped = mapNamedRegion(name, layout, slotBytes, slotCount, inode);
        if (!mapped) return fail(std::move(mapped.error()));
        memory = *mapped;
    }
    auto* base = static_cast<std::byte*>(memory);
    auto* header = new (base) RegionHeader{};
    header->layoutVersion = kRegionLayoutVersion;
    header->slotBytes = slotBytes;
    header->slotCount = slotCount;
    header->completionCapacity = slotCount;
    header->totalBytes = layout.total;
    header->completionOffset = layout.completionOffset;
    header->ringOffset = layout.ringOffset;
    header->hostPid.store(::getpid());
    new (base + layout.completionOffset) CompletionQueueHeader{};
    // The magic goes in last: a front end that opens the region while it is being set up sees
    // zero and waits, rather than reading a half-written header.
    std::atomic_ref<std::uint64_t>(header->magic).store(kRegionMagic, std::memory_order_release);
    auto region = std::shared_ptr<SharedRegion>(new SharedRegion(base, layout.total, name, true, inode));
    region->adopt(slotBytes, slotCount);
    return region;
}

Result<std::shared_ptr<SharedRegion>> SharedRegion::open(const std::string& name) {
    const int fd = ::shm_open(shmPath(name).c_str(), O_RDWR, 0);
    if (fd < 0) {
        return fail(ErrorCode::Unavailable, fmt::format("no link /dev/shm/{} (is the host running?): {}", name, std::strerror(errno)));
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0 || std::size_t(st.st_size) < sizeof(RegionHeader)) {
        ::close(fd);
        return fail(ErrorCode::Unavailable, fmt::format("/dev/shm/{} is not ready yet ({} bytes)", name, st.st_size));
    }
    const auto size = std::size_t(st.st_size);
    void* memory = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    const int err = errno;
    ::close(fd);
    if (memory == MAP_FAILED) return fail(ErrorCode::Unavailable, fmt::format("cannot map /dev/shm/{}: {}", name, std::strerror(err)));
    auto region = std::shared_ptr<SharedRegion>(new SharedRegion(static_cast<std::byte*>(memory), size, name, false, st.st_ino));
    const auto& h = region->header();
    const auto magic = std::atomic_ref<std::uint64_t>(const_cast<std::uint64_t&>(h.magic)).load(std::memory_order_acquire);
    if (magic == 0) return fail(ErrorCode::Unavailable, fmt::format("/dev/shm/{} is not ready yet (its host is setting it up)", name));
    if (magic != kRegionMagic) return fail(ErrorCode::InvalidArgument, fmt::format("/dev/shm/{} is not a SonoLink link (magic 0x{:016x})", name, magic));
    if (h.layoutVersion != kRegionLayoutVersion)
        return fail(ErrorCode::FailedPrecondition,
                    fmt::format("/dev/shm/{} has layout version {}, this build uses {}", name, h.layoutVersion, kRegionLayoutVersion));
    const auto layout = layoutFor(h.slotBytes, h.slotCount);
    if (h.slotBytes < kPage || h.slotBytes % kPage != 0 || h.slotCount < 2 || h.completionCapacity != h.slotCount || layout.total != h.totalBytes ||
        size < layout.total || h.ringOffset != layout.ringOffset || h.completionOffset != layout.completionOffset) {
        return fail(ErrorCode::InvalidArgument, fmt::format("/dev/shm/{}: inconsistent layout ({} bytes mapped, header says {})", name, size, h.totalBytes));
    }
    region->adopt(h.slotBytes, h.slotCount);
    return region;
}

SharedRegion::SharedRegion(std::byte* base, std::size_t size, std::string name, bool owner, std::uint64_t inode)
    : base_(base), size_(size), header_(reinterpret_cast<RegionHeader*>(base)), name_(std::move(name)), owner_(owner), inode_(inode) {}

void SharedRegion::adopt(std::uint32_t slotBytes, std::uint32_t slotCount) noexcept {
    const auto layout = layoutFor(slotBytes, slotCount);
    slotBytes_ = slotBytes;
    slotCount_ = slotCount;
    completionOffset_ = layout.completionOffset;
    ringOffset_ = layout.ringOffset;
}

SharedRegion::~SharedRegion() {
    ::munmap(base_, size_);
    // Unlink only if the name still refers to this region (a reset may have replaced it).
    struct stat st {};
    if (owner_ && !name_.empty() && ::stat(("/dev/shm/" + name_).c_str(), &st) == 0 && st.st_ino == inode_) {
        ::shm_unlink(shmPath(name_).c_str());
    }
}

CompletionQueueHeader& SharedRegion::completionQueue() const noexcept { return *reinterpret_cast<CompletionQueueHeader*>(base_ + completionOffset_); }

CompletionEntry* SharedRegion::completionEntries() const noexcept {
    return reinterpret_cast<CompletionEntry*>(base_ + completionOffset_ + sizeof(CompletionQueueHeader));
}

RingView SharedRegion::ring() const noexcept { return RingView{base_ + ringOffset_, slotBytes_, slotCount_}; }

bool push(ControlChannel& channel, Doorbell& bell, std::span<const std::byte> message) noexcept {
    const auto head = channel.head.load(std::memory_order_relaxed);
    if (head - channel.tail.load(std::memory_order_acquire) >= kControlCells || message.size() > kMaxControlMessage) return false;
    auto& cell = channel.cells[head % kControlCells];
    cell.length = static_cast<std::uint32_t>(message.size());
    std::memcpy(cell.bytes, message.data(), message.size());
    channel.head.store(head + 1, std::memory_order_release);
    ring(bell);
    return true;
}

std::optional<std::size_t> pop(ControlChannel& channel, std::span<std::byte, kMaxControlMessage> out) noexcept {
    const auto tail = channel.tail.load(std::memory_order_relaxed);
    if (tail == channel.head.load(std::memory_order_acquire)) return std::nullopt;
    const auto& cell = channel.cells[tail % kControlCells];
    const std::size_t length = std::min<std::size_t>(cell.length, kMaxControlMessage);
    std::memcpy(out.data(), cell.bytes, length);
    channel.tail.store(tail + 1, std::memory_order_release);
    return length;
}

bool empty(const ControlChannel& channel) noexcept { return channel.tail.load(std::memory_order_relaxed) == channel.head.load(std::memory_order_acquire); }

void ring(Doorbell& doorbell) noexcept {
    doorbell.rings.fetch_add(1, std::memory_order_seq_cst);
    if (doorbell.sleeping.load(std::memory_order_seq_cst) != 0) {
        ::syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&doorbell.rings), FUTEX_WAKE, 1, nullptr, nullptr, 0);
    }
}

void futexWait(std::atomic<std::uint32_t>& word, std::uint32_t expected, std::chrono::microseconds timeout) noexcept {
    timespec ts{static_cast<time_t>(timeout.count() / 1'000'000), static_cast<long>(timeout.count() % 1'000'000) * 1000};
    ::syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAIT, expected, &ts, nullptr, 0);
}

}  // namespace sonolink::transport::sim
