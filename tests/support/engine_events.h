// Test helpers for the engine facade: the facade's EventLog, and waitUntil, which polls a
// condition for state that has no event (the latest image, a counter).
// Thread contract: the test's thread.
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
#include "sonolink/engine/event_log.h"

namespace sonolink::engine::testing {

using namespace std::chrono_literals;
using engine::EventLog;

inline bool waitUntil(const std::function<bool()>& pred, std::chrono::milliseconds timeout = 20s) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
        if (pred()) return true;
        std::this_thread::sleep_for(5ms);
    }
    return pred();
}

}  // namespace sonolink::engine::testing
