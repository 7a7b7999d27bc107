// UidGenerator: DICOM UIDs (Study, Series, SOP Instance) under the organisation's root when one
// is configured (at most 30 characters, so that generated UIDs stay within 64), else as 2.25
// UUID-derived UIDs (no registration needed). Never DCMTK's own root.
// Thread contract: next() is thread-safe.
#pragma once

#include <optional>
#include <string>

#include "sonolink/util/result.h"

namespace sonolink::dicom {

class UidGenerator {
public:
    // root: digits and dots, no leading zero in a component, <= 30 characters; nullopt: 2.25 UUIDs.
    [[nodiscard]] static Result<UidGenerator> create(std::optional<std::string> root);
    [[nodiscard]] std::string next() const;
    [[nodiscard]] const std::optional<std::string>& root() const noexcept { return root_; }

private:
    explicit UidGenerator(std::optional<std::string> root) : root_(std::move(root)) {}
    std::optional<std::string> root_;
};

// A UID's syntax (PS3.5 9.1): components of digits without leading zeros, at most 64 characters.
[[nodiscard]] Status checkUid(const std::string& uid, const char* what);

}  // namespace sonolink::dicom
