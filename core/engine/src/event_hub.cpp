#include "event_hub.h"

#include <vector>

namespace sonolink::engine {
namespace detail {

std::uint64_t EventHub::add(Engine::EventSink sink) {
    MutexLock lock(sinksMutex_);
    const auto id = nextId_++;
    sinks_[id] = std::move(sink);
    return id;
}

void EventHub::remove(std::uint64_t id) {
    if (emittingThread_.load() == std::this_thread::get_id()) {  // from inside a sink: emit() skips it
        MutexLock lock(sinksMutex_);
        sinks_.erase(id);
        return;
    }
    MutexLock emitting(emitMutex_);  // once this returns, the sink is not running and never will
    MutexLock lock(sinksMutex_);
    sinks_.erase(id);
}

void EventHub::emit(const EngineEvent& event) {
    MutexLock emitting(emitMutex_);
    emittingThread_ = std::this_thread::get_id();
    struct Done {
        std::atomic<std::thread::id>& thread;
        ~Done() { thread = std::thread::id{}; }  // also when a sink throws
    } done{emittingThread_};
    std::vector<std::pair<std::uint64_t, Engine::EventSink>> copy;
    {
        MutexLock lock(sinksMutex_);
        copy.assign(sinks_.begin(), sinks_.end());
    }
    for (const auto& [id, sink] : copy) {
        {
            MutexLock lock(sinksMutex_);
            if (!sinks_.contains(id)) continue;
        }
        sink(event);
    }
}

}  // namespace detail

Subscription& Subscription::operator=(Subscription&& other) noexcept {
    if (this != &other) {
        Subscription dropped(std::move(*this));
        hub_ = std::move(other.hub_);
        id_ = std::exchange(other.id_, 0);
    }
    return *this;
}

Subscription::~Subscription() {
    if (auto hub = hub_.lock(); hub && id_) hub->remove(id_);
}

}  // namespace sonolink::engine
