// readJsonFile: see json_file.h.
#include "sonolink/report/json_file.h"

#include <fmt/format.h>

#include "sonolink/util/durable_file.h"
#include "sonolink/util/json_nesting.h"

namespace sonolink::report {

Result<nlohmann::json> readJsonFile(const std::string& path, std::string_view what, std::size_t maxBytes) {
    auto text = readRegularFile(path, maxBytes, what);
    if (!text) return fail(std::move(text.error()));
    if (auto ok = checkJsonNesting(*text, fmt::format("{} {}", what, path)); !ok) return fail(std::move(ok.error()));
    auto document = nlohmann::json::parse(*text, nullptr, false);
    if (document.is_discarded()) return fail(ErrorCode::InvalidArgument, fmt::format("cannot read {} {}: not a JSON file", what, path));
    return document;
}

}  // namespace sonolink::report
