// Logging with categories ("link", "ingest", "dicom", ...), each with its own level, over spdlog
// (kept private). A disabled message costs one relaxed atomic load and formats nothing.
// Never log per block or per frame on a hot path: count instead. No patient data in logs.
// Thread contract: every function is thread-safe; sinks are called on the logging thread with
// the logger's lock held, so a sink must copy and return, never block or log itself.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "sonolink/util/result.h"

namespace sonolink::log {

enum class Level : int { Trace = 0, Debug, Info, Warn, Error, Critical, Off };

[[nodiscard]] std::string_view toString(Level level) noexcept;
[[nodiscard]] Result<Level> parseLevel(std::string_view text);

// A named category. Obtain with category("name"); references stay valid for the program's life.
class Category {
public:
    explicit Category(std::string name, Level level) : name_(std::move(name)), level_(level) {}
    [[nodiscard]] const std::string& name() const noexcept { return name_; }
    [[nodiscard]] bool enabled(Level level) const noexcept { return level >= level_.load(std::memory_order_relaxed); }
    [[nodiscard]] Level level() const noexcept { return level_.load(std::memory_order_relaxed); }
    void setLevel(Level level) noexcept { level_.store(level, std::memory_order_relaxed); }

private:
    std::string name_;
    std::atomic<Level> level_;
};

[[nodiscard]] Category& category(std::string_view name);

struct Settings {
    Level level = Level::Info;                    // default for every category
    std::map<std::string, Level> categoryLevels;  // overrides by category name
    std::string file;                             // also log to this file when not empty
};

// Applies levels to all categories (existing and future) and opens the log file.
[[nodiscard]] Status configure(const Settings& settings);

struct Record {
    std::string_view category;
    Level level;
    std::string_view message;
};
using SinkFunction = std::function<void(const Record&)>;

// An extra sink (GUI log panel, tests) until the handle is destroyed.
class SinkHandle {
public:
    SinkHandle() = default;
    explicit SinkHandle(int id) : id_(id) {}
    SinkHandle(SinkHandle&& other) noexcept : id_(std::exchange(other.id_, 0)) {}
    SinkHandle& operator=(SinkHandle&& other) noexcept;
    SinkHandle(const SinkHandle&) = delete;
    SinkHandle& operator=(const SinkHandle&) = delete;
    ~SinkHandle();

private:
    int id_ = 0;
};
[[nodiscard]] SinkHandle addSink(SinkFunction sink);

void write(const Category& category, Level level, std::string_view message);
void flush() noexcept;

template <typename... Args> void log(Category& cat, Level level, fmt::format_string<Args...> format, Args&&... args) {
    if (cat.enabled(level)) {
        write(cat, level, fmt::format(format, std::forward<Args>(args)...));
    }
}
template <typename... Args> void debug(Category& cat, fmt::format_string<Args...> format, Args&&... args) {
    log(cat, Level::Debug, format, std::forward<Args>(args)...);
}
template <typename... Args> void info(Category& cat, fmt::format_string<Args...> format, Args&&... args) {
    log(cat, Level::Info, format, std::forward<Args>(args)...);
}
template <typename... Args> void warn(Category& cat, fmt::format_string<Args...> format, Args&&... args) {
    log(cat, Level::Warn, format, std::forward<Args>(args)...);
}
template <typename... Args> void error(Category& cat, fmt::format_string<Args...> format, Args&&... args) {
    log(cat, Level::Error, format, std::forward<Args>(args)...);
}

}  // namespace sonolink::log
