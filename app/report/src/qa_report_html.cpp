// The QA report's HTML: a header table (station, operator, software, front end, link, times,
// verdict), one row per step, the override where one was given, the signature block (completed
// or waiting), and the report's hash. The labels in the language of the installed translators
// (context QaReport); the JSON's values escaped, its sentences and step names
// said through the ReportLanguage given.
#include <string>
#include <initializer_list>
#include <string_view>

#include <QCoreApplication>
#include <QString>

#include <fmt/format.h>

#include "sonolink/report/qa_report_pdf.h"

namespace sonolink::report {

// The report's words in the installed translators' language (context QaReport, as lupdate names it).
class QaReport {
    Q_DECLARE_TR_FUNCTIONS(QaReport)
};

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

std::string said(const std::function<std::string(const std::string&)>& say, const std::string& value) { return say && !value.empty() ? say(value) : value; }

std::string raw(const nlohmann::json& object, const char* key) {
    if (!object.is_object() || !object.contains(key)) return {};
    const auto& value = object[key];
    return value.is_string() ? value.get<std::string>() : value.dump();
}

std::string text(const nlohmann::json& object, const char* key) {
    if (!object.is_object() || !object.contains(key)) return {};
    const auto& value = object[key];
    return escaped(value.is_string() ? value.get<std::string>() : value.dump());
}

// pass green, warn amber, fail red, in words as well as colour (a grey printout keeps them).
std::string verdict(const std::string& value) {
    const char* colour = value == "pass" ? "#1b7a1b" : value == "warn" ? "#a86400" : value == "fail" ? "#b00020" : "#000000";
    const std::string shown = value == "pass"   ? QaReport::tr("pass").toStdString()
                              : value == "warn" ? QaReport::tr("warn").toStdString()
                              : value == "fail" ? QaReport::tr("fail").toStdString()
                                                : value;
    return fmt::format("<b><span style=\"color:{}\">{}</span></b>", colour, escaped(shown.empty() ? "-" : shown));
}

std::string label(const QString& words) { return escaped(words.toStdString()); }

std::string row(std::string_view name, const std::string& value) {
    return fmt::format("<tr><td width=\"28%\"><b>{}</b></td><td>{}</td></tr>", name, value.empty() ? "-" : value);
}

std::string stepRows(const nlohmann::json& steps, const ReportLanguage& language) {
    std::string out;
    const auto sentence = [&](const nlohmann::json& object, const char* key) { return escaped(said(language.sentence, raw(object, key))); };
    for (const auto& step : steps) {
        std::string baseline = "-";
        if (step.contains("baseline")) {
            const auto& b = step["baseline"];
            baseline = verdict(b.value("verdict", "")) + "<br/>" + sentence(b, "figures");
        }
        std::string figures = sentence(step, "figures");
        if (const auto fix = sentence(step, "fix"); !fix.empty()) {
            figures += "<br/><i>" + label(QaReport::tr("What to do:")) + " " + fix + "</i>";
        }
        out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>", escaped(said(language.step, raw(step, "step"))),
                           verdict(step.value("verdict", "")), figures, sentence(step, "limit"), baseline);
    }
    return out;
}

std::string signatureBlock(const nlohmann::json& report) {
    std::string out = fmt::format("<h2>{}</h2><table border=\"1\" cellspacing=\"0\" cellpadding=\"4\" width=\"100%\">", label(QaReport::tr("Signature")));
    out += fmt::format("<tr><th>{}</th><th>{}</th><th>{}</th></tr>", label(QaReport::tr("Printed name")), label(QaReport::tr("Date and time (UTC)")),
                       label(QaReport::tr("Meaning")));
    if (report.contains("signature") && report["signature"].is_object()) {
        const auto& s = report["signature"];
        out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td></tr></table>", text(s, "printed_name"), text(s, "signed_utc"), text(s, "meaning"));
        out += "<p>" +
               escaped(QaReport::tr("Signed electronically by the station user %1 after re-authentication (%2).")
                           .arg(QString::fromStdString(raw(s, "user")), QString::fromStdString(raw(s, "authentication")))
                           .toStdString()) +
               "</p>";
    } else {
        out += "<tr><td>&nbsp;</td><td>&nbsp;</td><td>&nbsp;</td></tr></table>";
        out += "<p><i>" +
               label(QaReport::tr("Not signed. The operator signs as the logged-in station user, re-authenticated; a name typed into a "
                                  "field is no signature.")) +
               "</i></p>";
    }
    return out;
}

}  // namespace

std::string qaReportHtml(const nlohmann::json& report, const ReportLanguage& language) {
    const auto& software = report.value("software", nlohmann::json::object());
    const auto& frontEnd = report.value("front_end", nlohmann::json::object());
    const auto translated = [](QString out, std::initializer_list<std::string> values) {
        for (const auto& v : values) out = out.arg(QString::fromStdString(v));
        return escaped(out.toStdString());
    };
    std::string html = "<html><body>";
    html += fmt::format("<h1>{}</h1>",
                        report.contains("report") ? escaped(said(language.sentence, raw(report, "report"))) : label(QaReport::tr("SonoLink QA report")));
    html += "<table cellspacing=\"0\" cellpadding=\"3\" width=\"100%\">";
    html += row(label(QaReport::tr("Station")), text(report, "station"));
    html += row(label(QaReport::tr("Operator")), text(report, "operator"));
    html += row(label(QaReport::tr("Software")),
                translated(QaReport::tr("SonoLink %1 (build %2, %3)"), {raw(software, "version"), raw(software, "build"), raw(software, "build_type")}));
    html += row(label(QaReport::tr("Front end")), translated(QaReport::tr("serial %1, firmware %2"), {raw(frontEnd, "serial"), raw(frontEnd, "firmware")}));
    html += row(label(QaReport::tr("Link")), text(report, "link"));
    html += row(label(QaReport::tr("Mode")), text(report, "mode"));
    html += row(label(QaReport::tr("Started")), text(report, "started_utc"));
    html += row(label(QaReport::tr("Finished")), text(report, "finished_utc"));
    html += row(label(QaReport::tr("Verdict")), verdict(report.value("verdict", "")));
    if (const auto problem = raw(report, "problem"); !problem.empty()) html += row(label(QaReport::tr("Problem")), escaped(said(language.sentence, problem)));
    if (const auto block = raw(report, "streaming_blocked_by"); !block.empty()) {
        html += row(label(QaReport::tr("Streaming blocked by")), escaped(said(language.step, block)));
    }
    html += "</table>";
    html += fmt::format("<h2>{}</h2><table border=\"1\" cellspacing=\"0\" cellpadding=\"4\" width=\"100%\">", label(QaReport::tr("Steps")));
    html += fmt::format(
        "<thead><tr><th width=\"18%\">{}</th><th width=\"11%\">{}</th><th>{}</th><th width=\"20%\">{}</th>"
        "<th width=\"16%\">{}</th></tr></thead>",  // repeated atop each page
        label(QaReport::tr("Step")), label(QaReport::tr("Verdict")), label(QaReport::tr("Figures")), label(QaReport::tr("Limit")),
        label(QaReport::tr("Baseline (last pass)")));
    html += stepRows(report.value("steps", nlohmann::json::array()), language);
    html += "</table>";
    if (report.contains("override") && report["override"].is_object()) {
        const auto& o = report["override"];
        html += fmt::format("<h2>{}</h2><table cellspacing=\"0\" cellpadding=\"3\" width=\"100%\">", label(QaReport::tr("Override")));
        html += row(label(QaReport::tr("Given by")), text(o, "user"));
        html += row(label(QaReport::tr("When (UTC)")), text(o, "time_utc"));
        html += row(label(QaReport::tr("Reason")), text(o, "reason"));
        html += "</table>";
    }
    html += signatureBlock(report);
    if (report.contains("baseline_report")) {
        const auto& b = report["baseline_report"];
        html += "<p>" + translated(QaReport::tr("Baselines from %1 (finished %2, SHA-256 %3)."), {raw(b, "file"), raw(b, "finished_utc"), raw(b, "sha256")}) +
                "</p>";
    }
    html += "<p><small>" + translated(QaReport::tr("Report SHA-256 (its JSON without this field, compact, keys sorted): %1"), {raw(report, "sha256")}) +
            "</small></p>";
    html += "</body></html>";
    return html;
}

}  // namespace sonolink::report
