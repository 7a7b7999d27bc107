#include "sonolink/util/log.h"

#include <deque>
#include <mutex>
#include <vector>

#include <spdlog/sinks/base_sink.h>
#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/dist_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

namespace sonolink::log {
namespace {

spdlog::level::level_enum toSpd(Level level) { return static_cast<spdlog::level::level_enum>(static_cast<int>(level)); }

// Forwards every record to the registered SinkFunctions (GUI log panel, tests).
class CallbackSink final : public spdlog::sinks::base_sink<std::mutex> {
public:
    int add(SinkFunction function) {
        std::lock_guard lock(mutex_);
        sinks_.emplace_back(++lastId_, std::move(function));
        return lastId_;
    }
    void remove(int id) {
        std::lock_guard lock(mutex_);
        std::erase_if(sinks_, [id](const auto& entry) { return entry.first == id; });
    }

protected:
    void sink_it_(const spdlog::details::log_msg& msg) override {
        const Record record{std::string_view(msg.logger_name.data(), msg.logger_name.size()), static_cast<Level>(static_cast<int>(msg.level)),
                            std::string_view(msg.payload.data(), msg.payload.size())};
        for (const auto& entry : sinks_) {
            entry.second(record);
        }
    }
    void flush_() override {}

private:
    std::vector<std::pair<int, SinkFunction>> sinks_;
    int lastId_ = 0;
};

struct Registry {
    std::mutex mutex;
    std::deque<Category> categories;  // deque: references stay valid as it grows
    std::map<std::string, std::shared_ptr<spdlog::logger>, std::less<>> loggers;
    Settings settings;
    std::shared_ptr<spdlog::sinks::dist_sink_mt> sinks = std::make_shared<spdlog::sinks::dist_sink_mt>();
    std::shared_ptr<CallbackSink> callbacks = std::make_shared<CallbackSink>();
    std::shared_ptr<spdlog::sinks::sink> fileSink;

    Registry() {
        auto console = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
        console->set_pattern("%H:%M:%S.%e %^%-5l%$ [%n] %v");
        sinks->add_sink(console);
        sinks->add_sink(callbacks);
    }

    Level levelFor(const std::string& name) const {
        auto it = settings.categoryLevels.find(name);
        return it != settings.categoryLevels.end() ? it->second : settings.level;
    }

    std::shared_ptr<spdlog::logger> logger(std::string_view name) {
        std::lock_guard lock(mutex);
        auto it = loggers.find(name);
        if (it != loggers.end()) return it->second;
        auto created = std::make_shared<spdlog::logger>(std::string(name), sinks);
        created->set_level(spdlog::level::trace);  // filtering happens in Category
        created->flush_on(spdlog::level::warn);
        loggers.emplace(std::string(name), created);
        return created;
    }
};

Registry& registry() {
    static Registry instance;  // constructed on first use: safe from static-init order issues
    return instance;
}

}  // namespace

std::string_view toString(Level level) noexcept {
    switch (level) {
        case Level::Trace: return "trace";
        case Level::Debug: return "debug";
        case Level::Info: return "info";
        case Level::Warn: return "warn";
        case Level::Error: return "error";
        case Level::Critical: return "critical";
        case Level::Off: return "off";
    }
    return "unknown";
}

Result<Level> parseLevel(std::string_view text) {
    for (int i = 0; i <= static_cast<int>(Level::Off); ++i) {
        if (toString(static_cast<Level>(i)) == text) return static_cast<Level>(i);
    }
    return fail(ErrorCode::InvalidArgument, fmt::format("unknown log level '{}' (use trace, debug, info, warn, error, "
                                                        "critical or off)",
                                                        text));
}

Category& category(std::string_view name) {
    auto& reg = registry();
    std::lock_guard lock(reg.mutex);
    for (auto& cat : reg.categories) {
        if (cat.name() == name) return cat;
    }
    const std::string key(name);
    return reg.categories.emplace_back(key, reg.levelFor(key));
}

Status configure(const Settings& settings) {
    auto& reg = registry();
    std::shared_ptr<spdlog::sinks::sink> newFile;
    if (!settings.file.empty()) {
        try {
            newFile = std::make_shared<spdlog::sinks::basic_file_sink_mt>(settings.file);
            newFile->set_pattern("%Y-%m-%dT%H:%M:%S.%f %-5l [%n] [%t] %v");
        } catch (const spdlog::spdlog_ex& e) {
            return fail(ErrorCode::Unavailable, fmt::format("cannot open log file '{}': {}", settings.file, e.what()));
        }
    }
    std::lock_guard lock(reg.mutex);
    reg.settings = settings;
    for (auto& cat : reg.categories) cat.setLevel(reg.levelFor(cat.name()));
    if (reg.fileSink) reg.sinks->remove_sink(reg.fileSink);
    reg.fileSink = newFile;
    if (newFile) reg.sinks->add_sink(newFile);
    return {};
}

SinkHandle addSink(SinkFunction sink) { return SinkHandle(registry().callbacks->add(std::move(sink))); }

SinkHandle& SinkHandle::operator=(SinkHandle&& other) noexcept {
    if (this != &other) {
        if (id_ != 0) registry().callbacks->remove(id_);
        id_ = std::exchange(other.id_, 0);
    }
    return *this;
}

SinkHandle::~SinkHandle() {
    if (id_ != 0) registry().callbacks->remove(id_);
}

void write(const Category& category, Level level, std::string_view message) { registry().logger(category.name())->log(toSpd(level), message); }

void flush() noexcept {
    try {
        registry().sinks->flush();
    } catch (...) {  // flushing is best effort (called from assert paths)
    }
}

}  // namespace sonolink::log
