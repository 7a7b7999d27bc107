#include "object_reader.h"

#include <cmath>
#include <cstdlib>

namespace sonolink::config {

ObjectReader::ObjectReader(const nlohmann::json* node, std::string path, IssueList& issues) : node_(node), path_(std::move(path)), issues_(issues) {
    if (node_ && !node_->is_object()) {
        issues_.add(path_.empty() ? "/" : path_, fmt::format("must be a JSON object (got {})", node_->type_name()));
        node_ = nullptr;
    }
}

ObjectReader::~ObjectReader() {
    if (!node_) return;
    for (const auto& [key, value] : node_->items()) {
        if (!seen_.contains(key)) issue(key, "unknown key (misspelt, or not a setting of this section)");
    }
}

const nlohmann::json* ObjectReader::find(std::string_view key) {
    seen_.emplace(key);
    if (!node_) return nullptr;
    auto it = node_->find(key);
    return it == node_->end() ? nullptr : &*it;
}

void ObjectReader::number(std::string_view key, double& out, double lo, double hi, std::string_view unit) {
    const auto* value = find(key);
    if (!value) return;
    if (!value->is_number()) {
        return issue(key, fmt::format("must be a number (got {})", value->dump()));
    }
    const double v = value->get<double>();
    if (!std::isfinite(v) || v < lo || v > hi) {
        return issue(key, fmt::format("must be between {:g} and {:g}{}{} (got {:g})", lo, hi, unit.empty() ? "" : " ", unit, v));
    }
    out = v;
}

void ObjectReader::boolean(std::string_view key, bool& out) {
    const auto* value = find(key);
    if (!value) return;
    if (!value->is_boolean()) return issue(key, fmt::format("must be true or false (got {})", value->dump()));
    out = value->get<bool>();
}

void ObjectReader::string(std::string_view key, std::string& out, const std::function<std::string(const std::string&)>& check) {
    const auto* value = find(key);
    if (!value) return;
    if (!value->is_string()) return issue(key, fmt::format("must be a string (got {})", value->dump()));
    auto text = value->get<std::string>();
    if (check) {
        if (auto reason = check(text); !reason.empty()) return issue(key, reason);
    }
    out = std::move(text);
}

void ObjectReader::path(std::string_view key, std::string& out, const std::function<std::string(const std::string&)>& check) {
    std::string text = out;
    string(key, text, check);
    if (text != "~" && !text.starts_with("~/")) {
        out = std::move(text);
        return;
    }
    const char* home = std::getenv("HOME");
    if (home == nullptr || *home == '\0') return issue(key, fmt::format("starts with ~ but HOME is not set (got \"{}\")", text));
    out = std::string(home) + text.substr(1);
}

ObjectReader ObjectReader::object(std::string_view key) { return ObjectReader(find(key), pointer(key), issues_); }

void ObjectReader::array(std::string_view key, const std::function<void(const nlohmann::json&, const std::string&)>& each) {
    const auto* value = find(key);
    if (!value) return;
    if (!value->is_array()) return issue(key, fmt::format("must be an array (got {})", value->type_name()));
    for (std::size_t i = 0; i < value->size(); ++i) each((*value)[i], pointer(key) + "/" + std::to_string(i));
}

void ObjectReader::members(std::string_view key, const std::function<void(const std::string&, const nlohmann::json&, const std::string&)>& each) {
    const auto* value = find(key);
    if (!value) return;
    if (!value->is_object()) return issue(key, fmt::format("must be an object (got {})", value->type_name()));
    for (const auto& [name, member] : value->items()) each(name, member, pointer(key) + "/" + name);
}

}  // namespace sonolink::config
