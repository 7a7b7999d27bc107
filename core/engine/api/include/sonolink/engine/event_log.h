// EventLog: a subscriber that keeps every event it hears and lets a headless client (the CLI,
// a test) wait for one that matches, without sleeping: each event wakes the waiters. Use it as
// the sink of Engine::subscribe (by std::ref). Thread contract: fed on engine threads, read and
// waited on from any other; never wait on it from inside a sink.
#pragma once

#include <chrono>
#include <condition_variable>
#include <optional>
#include <string>
#include <vector>

#include "sonolink/engine/engine_types.h"
#include "sonolink/util/thread_annotations.h"

namespace sonolink::engine {

class EventLog {
public:
    void operator()(const EngineEvent& event) {
        MutexLock lock(mutex_);
        events_.push_back(event);
        changed_.notify_all();
    }
    [[nodiscard]] std::vector<EngineState> states() const {
        MutexLock lock(mutex_);
        std::vector<EngineState> out;
        for (const auto& e : events_) {
            if (const auto* s = std::get_if<StateChanged>(&e)) out.push_back(s->to);
        }
        return out;
    }
    [[nodiscard]] std::string lastReason(EngineState state) const {
        MutexLock lock(mutex_);
        std::string reason;
        for (const auto& e : events_) {
            if (const auto* s = std::get_if<StateChanged>(&e); s && s->to == state) reason = s->reason;
        }
        return reason;
    }
    // All events of type T so far (from the mark `from` on), in order.
    template <typename T> [[nodiscard]] std::vector<T> all(std::size_t from = 0) const {
        MutexLock lock(mutex_);
        std::vector<T> out;
        for (std::size_t i = from; i < events_.size(); ++i) {
            if (const auto* t = std::get_if<T>(&events_[i])) out.push_back(*t);
        }
        return out;
    }
    // How many events so far: a mark to wait for later ones only.
    [[nodiscard]] std::size_t size() const {
        MutexLock lock(mutex_);
        return events_.size();
    }
    // The first event of type T matching pred (from the mark `from` on), waiting up to timeout.
    template <typename T, typename Pred>
    [[nodiscard]] std::optional<T> waitFor(Pred pred, std::chrono::milliseconds timeout = std::chrono::seconds(20), std::size_t from = 0) {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        UniqueLock lock(mutex_);
        std::size_t seen = from;
        while (true) {
            for (; seen < events_.size(); ++seen) {
                if (const auto* t = std::get_if<T>(&events_[seen]); t && pred(*t)) return *t;
            }
            if (changed_.wait_until(lock.native(), deadline) == std::cv_status::timeout && seen == events_.size()) {
                return std::nullopt;
            }
        }
    }
    [[nodiscard]] bool waitForState(EngineState state, std::chrono::milliseconds timeout = std::chrono::seconds(20), std::size_t from = 0) {
        return waitFor<StateChanged>([state](const StateChanged& s) { return s.to == state; }, timeout, from).has_value();
    }
    void clear() {
        MutexLock lock(mutex_);
        events_.clear();
    }

private:
    mutable Mutex mutex_;
    std::condition_variable changed_;
    std::vector<EngineEvent> events_ GUARDED_BY(mutex_);
};

}  // namespace sonolink::engine
