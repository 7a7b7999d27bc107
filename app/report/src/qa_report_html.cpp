// The QA report's HTML: a header table (station, operator, software, front end, link, times,
// verdict), one row per step, the override where one was given, the signature block (completed
// or waiting), and the report's hash. Strings come from the JSON as they are, escaped here.
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "sonolink/report/qa_report_pdf.h"

namespace sonolink::report {
namespace {

std::string escaped(std::string_view text) {
    std::string out;
    for (const char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\n': out += "<br/>"; break;
            default: out += c;
        }
    }
    return out;
}

std::string text(const nlohmann::json& object, const char* key) {
    if (!object.is_object() || !object.contains(key)) return {};
    const auto& value = object[key];
    return escaped(value.is_string() ? value.get<std::string>() : value.dump());
}

// pass green, warn amber, fail red, in words as well as colour (a grey printout keeps them).
std::string verdict(const std::string& word) {
    const char* colour = word == "pass" ? "#1b7a1b" : word == "warn" ? "#a86400" : word == "fail" ? "#b00020" : "#000000";
    return fmt::format("<b><span style=\"color:{}\">{}</span></b>", colour, escaped(word.empty() ? "-" : word));
}

std::string row(std::string_view label, const std::string& value) {
    return fmt::format("<tr><td width=\"28%\"><b>{}</b></td><td>{}</td></tr>", label, value.empty() ? "-" : value);
}

std::string stepRows(const nlohmann::json& steps) {
    std::string out;
    for (const auto& step : steps) {
        std::string baseline = "-";
        if (step.contains("baseline")) {
            const auto& b = step["baseline"];
            baseline = verdict(b.value("verdict", "")) + "<br/>" + text(b, "figures");
        }
        std::string figures = text(step, "figures");
        if (const auto fix = text(step, "fix"); !fix.empty()) figures += "<br/><i>What to do: " + fix + "</i>";
        out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>", text(step, "step"),
                           verdict(step.value("verdict", "")), figures, text(step, "limit"), baseline);
    }
    return out;
}

std::string signatureBlock(const nlohmann::json& report) {
    std::string out = "<h2>Signature</h2><table border=\"1\" cellspacing=\"0\" cellpadding=\"4\" width=\"100%\">";
    out += "<tr><th>Printed name</th><th>Date and time (UTC)</th><th>Meaning</th></tr>";
    if (report.contains("signature") && report["signature"].is_object()) {
        const auto& s = report["signature"];
        out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td></tr></table>", text(s, "printed_name"), text(s, "signed_utc"),
                           text(s, "meaning"));
        out += fmt::format("<p>Signed electronically by the station user {} after re-authentication ({}).</p>", text(s, "user"),
                           text(s, "authentication"));
    } else {
        out += "<tr><td>&nbsp;</td><td>&nbsp;</td><td>&nbsp;</td></tr></table>";
        out += "<p><i>Not signed. The operator signs as the logged-in station user, re-authenticated; a name typed into a "
               "field is no signature.</i></p>";
    }
    return out;
}

}  // namespace

std::string qaReportHtml(const nlohmann::json& report) {
    const auto& software = report.value("software", nlohmann::json::object());
    const auto& frontEnd = report.value("front_end", nlohmann::json::object());
    std::string html = "<html><body>";
    html += fmt::format("<h1>{}</h1>", report.contains("report") ? text(report, "report") : std::string("SonoLink QA report"));
    html += "<table cellspacing=\"0\" cellpadding=\"3\" width=\"100%\">";
    html += row("Station", text(report, "station"));
    html += row("Operator", text(report, "operator"));
    html += row("Software", fmt::format("SonoLink {} (build {}, {})", text(software, "version"), text(software, "build"),
                                        text(software, "build_type")));
    html += row("Front end", fmt::format("serial {}, firmware {}", text(frontEnd, "serial"), text(frontEnd, "firmware")));
    html += row("Link", text(report, "link"));
    html += row("Mode", text(report, "mode"));
    html += row("Started", text(report, "started_utc"));
    html += row("Finished", text(report, "finished_utc"));
    html += row("Verdict", verdict(report.value("verdict", "")));
    if (const auto problem = text(report, "problem"); !problem.empty()) html += row("Problem", problem);
    if (const auto block = text(report, "streaming_blocked_by"); !block.empty()) html += row("Streaming blocked by", block);
    html += "</table>";
    html += "<h2>Steps</h2><table border=\"1\" cellspacing=\"0\" cellpadding=\"4\" width=\"100%\">";
    html += "<thead><tr><th width=\"18%\">Step</th><th width=\"11%\">Verdict</th><th>Figures</th><th width=\"20%\">Limit</th>"
            "<th width=\"16%\">Baseline (last pass)</th></tr></thead>";  // repeated atop each page
    html += stepRows(report.value("steps", nlohmann::json::array()));
    html += "</table>";
    if (report.contains("override") && report["override"].is_object()) {
        const auto& o = report["override"];
        html += "<h2>Override</h2><table cellspacing=\"0\" cellpadding=\"3\" width=\"100%\">";
        html += row("Given by", text(o, "user"));
        html += row("When (UTC)", text(o, "time_utc"));
        html += row("Reason", text(o, "reason"));
        html += "</table>";
    }
    html += signatureBlock(report);
    if (report.contains("baseline_report")) {
        const auto& b = report["baseline_report"];
        html += fmt::format("<p>Baselines from {} (finished {}, SHA-256 {}).</p>", text(b, "file"), text(b, "finished_utc"), text(b, "sha256"));
    }
    html += fmt::format("<p><small>Report SHA-256 (its JSON without this field, compact, keys sorted): {}</small></p>", text(report, "sha256"));
    html += "</body></html>";
    return html;
}

}  // namespace sonolink::report
