#include "sonolink/dicom/uid_generator.h"

#include <algorithm>
#include <cctype>

#include <dcmtk/dcmdata/dcuid.h>
#include <dcmtk/ofstd/ofuuid.h>
#include <fmt/format.h>

namespace sonolink::dicom {

Status checkUid(const std::string& uid, const char* what) {
    if (uid.empty() || uid.size() > 64) return fail(ErrorCode::InvalidArgument, fmt::format("{} '{}': a UID has 1 to 64 characters", what, uid));
    std::size_t start = 0;
    while (start <= uid.size()) {
        const auto dot = std::min(uid.find('.', start), uid.size());
        const auto component = uid.substr(start, dot - start);
        if (component.empty() || (component.size() > 1 && component[0] == '0') ||
            !std::all_of(component.begin(), component.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; })) {
            return fail(ErrorCode::InvalidArgument, fmt::format("{} '{}': component '{}' is not a number without leading zeros", what, uid, component));
        }
        start = dot + 1;
    }
    return {};
}

Result<UidGenerator> UidGenerator::create(std::optional<std::string> root) {
    if (root) {
        if (auto ok = checkUid(*root, "UID root"); !ok) return fail(std::move(ok.error()));
        if (root->size() > 30) return fail(ErrorCode::InvalidArgument, fmt::format("UID root '{}' has {} characters; at most 30 leave room for the generated part", *root, root->size()));
        if (root->rfind(SITE_UID_ROOT, 0) == 0) return fail(ErrorCode::InvalidArgument, fmt::format("UID root '{}' is DCMTK's own (OFFIS) root; use your organisation's", *root));
    }
    return UidGenerator(std::move(root));
}

std::string UidGenerator::next() const {
    if (root_) {
        char buffer[100];
        return dcmGenerateUniqueIdentifier(buffer, root_->c_str());
    }
    OFString uid;
    OFUUID().toString(uid, OFUUID::ER_RepresentationOID);  // 2.25.<the UUID as a decimal number>
    return uid.c_str();
}

}  // namespace sonolink::dicom
