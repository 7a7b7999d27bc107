// checkJsonNesting: see json_nesting.h.
#include "sonolink/util/json_nesting.h"

#include <fmt/format.h>

namespace sonolink {

Status checkJsonNesting(std::string_view text, std::string_view what, int maxDepth) {
    int depth = 0;
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\') ++i;  // the escaped character, whatever it is
            else if (c == '"') inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > maxDepth) {
                return fail(ErrorCode::InvalidArgument, fmt::format("{}: nested more than {} levels deep (at byte {}): not a document "
                                                                    "SonoLink reads",
                                                                    what, maxDepth, i));
            }
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return {};
}

}  // namespace sonolink
