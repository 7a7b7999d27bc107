// checkJsonNesting: refuses JSON text nested deeper than a budget before any parser or walker
// sees it. Parsers and the code that walks a document (canonical forms for signatures, dumps,
// destructors) recurse per level; a file of a million '[' would exhaust the stack. Every JSON
// read from outside (configuration, reports, worklists, journals) goes through it.
// Thread contract: a pure function.
#pragma once

#include <string_view>

#include "sonolink/util/result.h"

namespace sonolink {

inline constexpr int kMaxJsonNesting = 64;  // our own documents nest 6 levels at most

// InvalidArgument naming `what` and the byte where the nesting passes maxDepth. Brackets inside
// strings do not count; the text is not otherwise validated (the parser does that).
[[nodiscard]] Status checkJsonNesting(std::string_view text, std::string_view what, int maxDepth = kMaxJsonNesting);

}  // namespace sonolink
