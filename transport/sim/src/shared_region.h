// SharedRegion: the memory a simulated link lives in: a header (session, liveness, the NIC's
// memory key), two control channels, a credit lane, the completion queue and the data ring.
// Named regions are POSIX shared memory (/dev/shm/<name>) so sonolink-fe-sim can run as its
// own process; anonymous ones serve an in-process front end. Every shared field is a lock-free
// atomic; wake-ups use process-shared futexes, only when the other side sleeps.
// Thread contract: each channel has one producer and one consumer; see sim_link.h.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <thread>

#include "sonolink/transport/link.h"
#include "sonolink/util/result.h"

namespace sonolink::transport::sim {

inline constexpr std::uint64_t kRegionMagic = 0x314D48534B4E4C53ull;  // "SLNKSHM1"
inline constexpr std::uint32_t kRegionLayoutVersion = 1;
inline constexpr std::uint32_t kControlCells = 64;
inline constexpr std::uint64_t kRingDeviceAddress = 0x10000000000ull;  // what RingAdvert carries

// A futex doorbell: the consumer sleeps on it only when it has nothing to do.
struct alignas(64) Doorbell {
    std::atomic<std::uint32_t> rings{0};     // futex word: bumped after each publish
    std::atomic<std::uint32_t> sleeping{0};  // the consumer is (about to be) in futex_wait
};

// A single-producer single-consumer queue of fixed-size message cells.
struct ControlChannel {
    alignas(64) std::atomic<std::uint64_t> head{0};  // written by the producer
    alignas(64) std::atomic<std::uint64_t> tail{0};  // written by the consumer
    struct Cell {
        std::uint32_t length;
        std::byte bytes[kMaxControlMessage];
    } cells[kControlCells];
};

struct CompletionEntry {
    std::uint32_t immediate;
    std::uint32_t byteCount;
    std::uint32_t status;
    std::uint32_t reserved;
    std::uint64_t writtenNs;
};

struct CompletionQueueHeader {
    alignas(64) std::atomic<std::uint64_t> head{0};
    alignas(64) std::atomic<std::uint64_t> tail{0};
    Doorbell doorbell;
};

struct RegionHeader {
    std::uint64_t magic;
    std::uint32_t layoutVersion;
    std::uint32_t slotBytes;
    std::uint32_t slotCount;
    std::uint32_t completionCapacity;
    std::uint64_t totalBytes;
    std::uint64_t completionOffset;
    std::uint64_t ringOffset;
    std::atomic<std::uint64_t> sessionId;
    std::atomic<std::int32_t> hostPid;
    std::atomic<std::int32_t> frontEndPid;       // 0 = no front end attached
    std::atomic<std::uint64_t> hostHeartbeatNs;  // steady clock (CLOCK_MONOTONIC, system-wide)
    std::atomic<std::uint64_t> frontEndHeartbeatNs;
    std::atomic<std::uint32_t> registeredRkey;  // the NIC accepts writes with this key only
    std::atomic<std::uint32_t> closed;          // the host ended the session
    ControlChannel toFrontEnd;
    ControlChannel credits;  // host -> front end, CreditReturn only
    Doorbell frontEndBell;   // rung for both channels above
    ControlChannel toHost;
    Doorbell hostBell;
};

static_assert(std::atomic<std::uint64_t>::is_always_lock_free);
static_assert(std::atomic<std::uint32_t>::is_always_lock_free);

class SharedRegion {
public:
    // name empty: anonymous memory (in-process front end); else /dev/shm/<name>, replacing a
    // stale region of that name (FailedPrecondition if a live host of another process has it).
    // Its pages are reserved now: a /dev/shm too small is ResourceExhausted naming the sizes,
    // never a SIGBUS later.
    [[nodiscard]] static Result<std::shared_ptr<SharedRegion>> create(const std::string& name, std::uint32_t slotBytes, std::uint32_t slotCount);
    // Maps an existing named region, checking it is one (magic, layout, size).
    [[nodiscard]] static Result<std::shared_ptr<SharedRegion>> open(const std::string& name);
    ~SharedRegion();
    SharedRegion(const SharedRegion&) = delete;
    SharedRegion& operator=(const SharedRegion&) = delete;

    [[nodiscard]] RegionHeader& header() const noexcept { return *header_; }
    [[nodiscard]] CompletionQueueHeader& completionQueue() const noexcept;
    [[nodiscard]] CompletionEntry* completionEntries() const noexcept;
    [[nodiscard]] RingView ring() const noexcept;
    // The layout as checked when the region was made or opened. The header's copies are the
    // other side's to read: whatever lands in shared memory later (a stray write, a buggy or
    // hostile peer) never becomes an index, a size or a pointer here.
    [[nodiscard]] std::uint32_t slotBytes() const noexcept { return slotBytes_; }
    [[nodiscard]] std::uint32_t slotCount() const noexcept { return slotCount_; }
    [[nodiscard]] std::uint32_t completionCapacity() const noexcept { return slotCount_; }
    [[nodiscard]] std::uint64_t ringOffset() const noexcept { return ringOffset_; }
    [[nodiscard]] const std::string& name() const noexcept { return name_; }
    [[nodiscard]] std::uint64_t inode() const noexcept { return inode_; }

private:
    SharedRegion(std::byte* base, std::size_t size, std::string name, bool owner, std::uint64_t inode);
    void adopt(std::uint32_t slotBytes, std::uint32_t slotCount) noexcept;  // the checked layout
    std::byte* base_;
    std::size_t size_;
    RegionHeader* header_;
    std::string name_;
    bool owner_;  // unlinks the name on destruction
    std::uint64_t inode_;
    std::uint32_t slotBytes_ = 0, slotCount_ = 0;
    std::uint64_t completionOffset_ = 0, ringOffset_ = 0;
};

[[nodiscard]] std::uint64_t steadyNowNs() noexcept;

// Stamps a heartbeat word every 20 ms from its own thread, like a NIC's hardware keep-alive:
// long work on the owner's thread (pre-generating frames) never looks like a dead peer.
class HeartbeatThread {
public:
    explicit HeartbeatThread(std::atomic<std::uint64_t>& word);
    ~HeartbeatThread();  // stops and joins
    HeartbeatThread(const HeartbeatThread&) = delete;
    HeartbeatThread& operator=(const HeartbeatThread&) = delete;

private:
    std::atomic<std::uint64_t>& word_;
    std::atomic<bool> stop_{false};
    std::thread thread_;
};
[[nodiscard]] bool processAlive(std::int32_t pid) noexcept;

// Control channel operations. push: false when full, else rings bell. pop: the message length,
// or nullopt.
[[nodiscard]] bool push(ControlChannel& channel, Doorbell& bell, std::span<const std::byte> message) noexcept;
[[nodiscard]] std::optional<std::size_t> pop(ControlChannel& channel, std::span<std::byte, kMaxControlMessage> out) noexcept;
[[nodiscard]] bool empty(const ControlChannel& channel) noexcept;

// Doorbell: ring after publishing; wait (consumer) until rung or timeout, unless ready() holds.
// A wait for a control message sleeps at most kControlWaitSlice at a time, so that a peer that
// died (its pid or heartbeat) is noticed between sleeps.
inline constexpr auto kControlWaitSlice = std::chrono::milliseconds(20);
void ring(Doorbell& doorbell) noexcept;
template <typename Ready> void waitFor(Doorbell& doorbell, std::chrono::microseconds timeout, Ready ready) noexcept;
void futexWait(std::atomic<std::uint32_t>& word, std::uint32_t expected, std::chrono::microseconds timeout) noexcept;

template <typename Ready> void waitFor(Doorbell& doorbell, std::chrono::microseconds timeout, Ready ready) noexcept {
    if (ready() || timeout.count() <= 0) return;
    doorbell.sleeping.store(1, std::memory_order_seq_cst);
    const auto seen = doorbell.rings.load(std::memory_order_seq_cst);
    if (!ready()) futexWait(doorbell.rings, seen, timeout);
    doorbell.sleeping.store(0, std::memory_order_relaxed);
}

}  // namespace sonolink::transport::sim
