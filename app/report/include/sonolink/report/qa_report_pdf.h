// The QA report as a PDF: the self-test report's JSON document (sonolink-cli selftest --report)
// drawn on A4 — station, software and front end, every step's verdict, figures, limit, baseline
// and fix, the override and the signature block, and the report's SHA-256 — with its fonts
// embedded (Chinese text through the CJK font fontconfig offers). No display needed: without a
// Qt application the call makes an offscreen one for itself.
// Thread contract: main thread only (Qt's GUI classes), like any QGuiApplication use.
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "sonolink/util/result.h"

namespace sonolink::report {

// The report as the HTML the PDF is laid out from (Qt's rich-text subset): every text escaped.
[[nodiscard]] std::string qaReportHtml(const nlohmann::json& report);

// Writes the PDF to `file` (replacing it); an error names the file and what failed.
[[nodiscard]] Status writeQaReportPdf(const nlohmann::json& report, const std::filesystem::path& file);

}  // namespace sonolink::report
