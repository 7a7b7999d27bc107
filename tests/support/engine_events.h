// Test helpers for the engine facade: EventLog records every event of a subscription and waits
// for one that matches (no sleeps: a condition variable wakes the waiter per event); waitUntil
// polls a condition for state that has no event (the latest image, a counter).
// Thread contract: EventLog is fed on engine threads and read on the test's.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "sonolink/engine/engine.h"

namespace sonolink::engine::testing {

using namespace std::chrono_literals;

class EventLog {
public:
    void operator()(const EngineEvent& event) {
        std::lock_guard lock(mutex_);
        events_.push_back(event);
        changed_.notify_all();
    }
    [[nodiscard]] std::vector<EngineState> states() const {
        std::lock_guard lock(mutex_);
        std::vector<EngineState> out;
        for (const auto& e : events_) {
            if (const auto* s = std::get_if<StateChanged>(&e)) out.push_back(s->to);
        }
        return out;
    }
    [[nodiscard]] std::string lastReason(EngineState state) const {
        std::lock_guard lock(mutex_);
        std::string reason;
        for (const auto& e : events_) {
            if (const auto* s = std::get_if<StateChanged>(&e); s && s->to == state) reason = s->reason;
        }
        return reason;
    }
    // All events of type T so far, in order.
    template <typename T>
    [[nodiscard]] std::vector<T> all() const {
        std::lock_guard lock(mutex_);
        std::vector<T> out;
        for (const auto& e : events_) {
            if (const auto* t = std::get_if<T>(&e)) out.push_back(*t);
        }
        return out;
    }
    // The first event of type T matching pred, waiting for it up to timeout.
    template <typename T, typename Pred>
    [[nodiscard]] std::optional<T> waitFor(Pred pred, std::chrono::milliseconds timeout = 20s) {
        std::unique_lock lock(mutex_);
        std::optional<T> found;
        changed_.wait_for(lock, timeout, [&] {
            for (const auto& e : events_) {
                if (const auto* t = std::get_if<T>(&e); t && pred(*t)) {
                    found = *t;
                    return true;
                }
            }
            return false;
        });
        return found;
    }
    [[nodiscard]] bool waitForState(EngineState state, std::chrono::milliseconds timeout = 20s) {
        return waitFor<StateChanged>([state](const StateChanged& s) { return s.to == state; }, timeout).has_value();
    }
    void clear() {
        std::lock_guard lock(mutex_);
        events_.clear();
    }

private:
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<EngineEvent> events_;
};

inline bool waitUntil(const std::function<bool()>& pred, std::chrono::milliseconds timeout = 20s) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
        if (pred()) return true;
        std::this_thread::sleep_for(5ms);
    }
    return pred();
}

}  // namespace sonolink::engine::testing
