// The QA report as a PDF: the self-test report's JSON document (sonolink-cli selftest --report)
// drawn on A4 — station, software and front end, every step's verdict, figures, limit, baseline
// and fix, the override and the signature block, and the report's SHA-256 — with its fonts
// embedded (Chinese text through the CJK font fontconfig offers), in the language of the Qt
// translators installed (its labels; the engine's sentences and step names through a
// ReportLanguage; the JSON it is drawn from stays as signed). No display needed: without a Qt
// application the call makes an offscreen one for itself.
// Thread contract: main thread only (Qt's GUI classes), like any QGuiApplication use.
#pragma once

#include <filesystem>
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "sonolink/util/result.h"

namespace sonolink::report {

// How the report's values are said in the user's language (empty: as the JSON has them, English).
struct ReportLanguage {
    std::function<std::string(const std::string&)> sentence;  // an engine's sentence: figures, limit, what to do, the problem
    std::function<std::string(const std::string&)> step;      // a step's name ("station: memlock limit")
};

// The report as the HTML the PDF is laid out from (Qt's rich-text subset): every text escaped.
[[nodiscard]] std::string qaReportHtml(const nlohmann::json& report, const ReportLanguage& language = {});

// Writes the PDF to `file` (replacing it); an error names the file and what failed.
[[nodiscard]] Status writeQaReportPdf(const nlohmann::json& report, const std::filesystem::path& file, const ReportLanguage& language = {});

}  // namespace sonolink::report
