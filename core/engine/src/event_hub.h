// EventHub: the engine's subscriptions. emit() hands an event to every sink one at a time, in
// order, with no other engine lock held; a sink may drop subscriptions (its own too), and one
// dropped during an event is not called for it. Dropping from another thread waits for a running
// call, after which that sink is never called again.
// Thread contract: any thread; emit() calls are serialised.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <thread>

#include "sonolink/util/thread_annotations.h"
#include "sonolink/engine/engine.h"

namespace sonolink::engine::detail {

class EventHub {
public:
    [[nodiscard]] std::uint64_t add(Engine::EventSink sink);
    void remove(std::uint64_t id);
    void emit(const EngineEvent& event);

private:
    Mutex sinksMutex_;
    Mutex emitMutex_ ACQUIRED_BEFORE(sinksMutex_);   // one emission at a time; remove() from another thread waits for it
    std::atomic<std::thread::id> emittingThread_{};  // the thread inside emit(), if any
    std::map<std::uint64_t, Engine::EventSink> sinks_ GUARDED_BY(sinksMutex_);
    std::uint64_t nextId_ GUARDED_BY(sinksMutex_) = 1;
};

}  // namespace sonolink::engine::detail
