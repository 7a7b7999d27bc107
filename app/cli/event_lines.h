// EventLines: a runner's events on stdout as JSON Lines, one object per line, each with its
// "event" name and "at_ms" (Unix epoch milliseconds), flushed as it is written: what tests and
// scripts read to follow a runner (`dicom queue run --events`, `archive queue run --events`).
// Thread contract: print() from any thread (one line at a time).
#pragma once

#include <chrono>
#include <iostream>
#include <mutex>
#include <string_view>

#include <nlohmann/json.hpp>

namespace sonolink::cli {

class EventLines {
public:
    explicit EventLines(bool enabled) : enabled_(enabled) {}
    [[nodiscard]] bool enabled() const { return enabled_; }
    void print(std::string_view event, nlohmann::json fields = nlohmann::json::object()) {
        if (!enabled_) return;
        fields["event"] = event;
        fields["at_ms"] = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
        std::lock_guard lock(mutex_);
        std::cout << fields.dump() << std::endl;
    }

private:
    bool enabled_;
    std::mutex mutex_;
};

}  // namespace sonolink::cli
