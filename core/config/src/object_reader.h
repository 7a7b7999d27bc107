// ObjectReader: reads one JSON object of a configuration, value by value, checking type and
// range and recording a ConfigIssue (file, JSON pointer, reason) for each bad value, then
// reporting every key nobody asked for. A missing key keeps the caller's default.
// Private to sonolink_config. Thread contract: single-threaded use.
#pragma once

#include <concepts>
#include <functional>
#include <initializer_list>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sonolink/config/config_loader.h"

namespace sonolink::config {

class IssueList {
public:
    explicit IssueList(std::string file) : file_(std::move(file)) {}
    // The value at key came from source (a command-line option): its issues name that instead.
    void attribute(const std::string& key, std::string source) { sources_[key] = std::move(source); }
    void add(std::string key, std::string reason) {
        if (auto it = sources_.find(key); it != sources_.end()) {
            issues_.push_back({"command line", fmt::format("{} ({})", it->second, key), std::move(reason)});
            return;
        }
        issues_.push_back({file_, std::move(key), std::move(reason)});
    }
    std::vector<ConfigIssue> take() { return std::move(issues_); }

private:
    std::string file_;
    std::map<std::string, std::string> sources_;
    std::vector<ConfigIssue> issues_;
};

class ObjectReader {
public:
    // node may be null (section absent): every read then keeps its default.
    ObjectReader(const nlohmann::json* node, std::string path, IssueList& issues);
    ~ObjectReader();  // reports unknown keys
    ObjectReader(const ObjectReader&) = delete;
    ObjectReader& operator=(const ObjectReader&) = delete;

    [[nodiscard]] std::string pointer(std::string_view key) const { return path_ + "/" + std::string(key); }
    void issue(std::string_view key, std::string reason) { issues_.add(pointer(key), std::move(reason)); }

    void integer(std::string_view key, std::integral auto& out, long long lo, long long hi, std::string_view unit = "") {
        const auto* value = find(key);
        if (!value) return;
        if (!value->is_number_integer()) {
            return issue(key, fmt::format("must be a whole number{}{} (got {})", unit.empty() ? "" : " of ", unit, value->dump()));
        }
        if (value->is_number_unsigned() && value->get<unsigned long long>() > static_cast<unsigned long long>(hi)) {
            return issue(key, fmt::format("must be between {} and {}{}{} (got {})", lo, hi, unit.empty() ? "" : " ", unit, value->dump()));
        }
        const long long v = value->get<long long>();
        if (v < lo || v > hi) {
            return issue(key, fmt::format("must be between {} and {}{}{} (got {})", lo, hi, unit.empty() ? "" : " ", unit, v));
        }
        out = static_cast<std::remove_reference_t<decltype(out)>>(v);
    }

    void number(std::string_view key, double& out, double lo, double hi, std::string_view unit = "");
    void boolean(std::string_view key, bool& out);
    // check returns "" when the text is acceptable, else the reason.
    void string(std::string_view key, std::string& out, const std::function<std::string(const std::string&)>& check = {});
    // A file or folder: as string(), and a leading "~/" (or "~" alone) stands for $HOME, so that
    // one station-wide file (/etc/sonolink) puts each user's data in their own home.
    void path(std::string_view key, std::string& out, const std::function<std::string(const std::string&)>& check = {});

    template <typename E> void choice(std::string_view key, E& out, std::initializer_list<std::pair<const char*, E>> options) {
        const auto* value = find(key);
        if (!value) return;
        std::string allowed;
        for (const auto& [name, option] : options) {
            if (value->is_string() && value->get<std::string>() == name) {
                out = option;
                return;
            }
            allowed += (allowed.empty() ? "" : ", ") + std::string("\"") + name + "\"";
        }
        issue(key, fmt::format("must be one of {} (got {})", allowed, value->dump()));
    }

    // The sub-object at key (absent -> a reader of nothing; not an object -> an issue).
    [[nodiscard]] ObjectReader object(std::string_view key);
    // Calls each(element, pointer) for every element of the array at key.
    void array(std::string_view key, const std::function<void(const nlohmann::json&, const std::string&)>& each);
    // Calls each(key, value, pointer) for every member of the object at key (a free-form map).
    void members(std::string_view key, const std::function<void(const std::string&, const nlohmann::json&, const std::string&)>& each);

private:
    const nlohmann::json* find(std::string_view key);

    const nlohmann::json* node_;
    std::string path_;
    IssueList& issues_;
    std::set<std::string, std::less<>> seen_;
};

}  // namespace sonolink::config
