#include "sonolink/dicom/value_rules.h"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

namespace sonolink::dicom {
namespace {

bool isControlOrBackslash(unsigned char c) { return c < 0x20 || c == 0x7f || c == '\\'; }

}  // namespace

std::string aeTitleProblem(std::string_view ae) {
    if (ae.empty() || ae.size() > 16) return fmt::format("must be 1 to 16 characters (got {})", ae.size());
    for (unsigned char c : ae) {
        if (c < 0x20 || c > 0x7e || c == '\\') return "may hold only printable ASCII without backslash";
    }
    if (ae.find_first_not_of(' ') == std::string_view::npos) return "must not be all spaces";
    return {};
}

std::string uidProblem(std::string_view uid) {
    if (uid.empty() || uid.size() > 64) return fmt::format("a UID has 1 to 64 characters (got {})", uid.size());
    std::size_t start = 0;
    while (start <= uid.size()) {
        const auto dot = std::min(uid.find('.', start), uid.size());
        const auto component = uid.substr(start, dot - start);
        if (component.empty()) return "must be dot-separated numbers with no empty component";
        if (!std::all_of(component.begin(), component.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; })) {
            return fmt::format("component '{}' is not a number (only digits and dots)", component);
        }
        if (component.size() > 1 && component[0] == '0') return fmt::format("component '{}' has a leading zero", component);
        start = dot + 1;
    }
    return {};
}

std::string uidRootProblem(std::string_view root) {
    if (auto problem = uidProblem(root); !problem.empty()) return problem;
    if (root.size() > kMaxUidRootLength) {
        return fmt::format("has {} characters; at most {} leave room for the generated part of each UID", root.size(), kMaxUidRootLength);
    }
    if (root == kDcmtkUidRoot || root.starts_with(std::string(kDcmtkUidRoot) + ".")) {
        return "is DCMTK's own (OFFIS) root, not ours to use: use your organisation's root, or none for 2.25 UUID-derived UIDs";
    }
    return {};
}

std::string longStringProblem(std::string_view text) {
    if (text.size() > 64) return fmt::format("must be at most 64 characters (got {})", text.size());
    if (std::any_of(text.begin(), text.end(), [](char c) { return isControlOrBackslash(static_cast<unsigned char>(c)); })) {
        return "may not hold a backslash or a control character";
    }
    return {};
}

std::string shortStringProblem(std::string_view text) {
    // Characters, not bytes: a UTF-8 continuation byte starts none.
    const auto characters =
        static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
    if (characters > 16) return fmt::format("must be at most 16 characters (got {})", characters);
    if (std::any_of(text.begin(), text.end(), [](char c) { return isControlOrBackslash(static_cast<unsigned char>(c)); })) {
        return "may not hold a backslash or a control character";
    }
    return {};
}

std::string personNameProblem(std::string_view name) {
    int groups = 0;
    std::size_t start = 0;
    while (start <= name.size()) {
        const auto end = std::min(name.find('=', start), name.size());
        const auto group = name.substr(start, end - start);
        if (++groups > 3) return "has more than three component groups (alphabetic=ideographic=phonetic)";
        if (group.size() > 64) return fmt::format("component group {} has {} characters; at most 64", groups, group.size());
        if (std::count(group.begin(), group.end(), '^') > 4) return fmt::format("component group {} has more than five components", groups);
        start = end + 1;
    }
    if (std::any_of(name.begin(), name.end(), [](char c) { return isControlOrBackslash(static_cast<unsigned char>(c)); })) {
        return "may not hold a backslash or a control character";
    }
    return {};
}

std::string toLongString(std::string text) {
    if (text.size() > 64) text.resize(64);
    for (auto& c : text) {
        if (isControlOrBackslash(static_cast<unsigned char>(c))) c = '_';
    }
    return text;
}

}  // namespace sonolink::dicom
