// The DICOM value rules SonoLink applies wherever a value is configured or written: AE titles,
// UIDs and UID roots (length, form, roots that are not ours to use), LO and PN values. One set,
// called by the configuration loader (so `config check` refuses what the engine would refuse),
// the UID generator and the object writers. Each returns "" when the value is fine, else the
// reason in words. Thread contract: pure functions.
#pragma once

#include <string>
#include <string_view>

namespace sonolink::dicom {

// DCMTK's own (OFFIS) UID root: DCMTK's SITE_UID_ROOT. UIDs under it are not ours to mint.
inline constexpr std::string_view kDcmtkUidRoot = "1.2.276.0.7230010.3";
// A generated UID is root + "." + up to 33 characters of its own, within the 64 of a UI value.
inline constexpr std::size_t kMaxUidRootLength = 30;

[[nodiscard]] std::string aeTitleProblem(std::string_view ae);        // 1-16 printable ASCII, no backslash, not all spaces
[[nodiscard]] std::string uidProblem(std::string_view uid);           // 1-64 characters, numbers without leading zeros, dots
[[nodiscard]] std::string uidRootProblem(std::string_view root);      // a UID of at most 30 characters, not DCMTK's root
[[nodiscard]] std::string longStringProblem(std::string_view text);   // LO: at most 64 characters, no backslash or control character
[[nodiscard]] std::string shortStringProblem(std::string_view text);  // SH: at most 16 characters (UTF-8 counted by character), the same
// PN: at most three component groups (alphabetic=ideographic=phonetic), each at most five
// components and 64 characters, no backslash or control character.
[[nodiscard]] std::string personNameProblem(std::string_view name);

// text made a valid LO: cut to 64 characters, each backslash or control character replaced by '_'.
[[nodiscard]] std::string toLongString(std::string text);

}  // namespace sonolink::dicom
