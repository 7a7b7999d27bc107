// The QA report's PDF: its HTML laid out by QTextDocument onto QPdfWriter's A4 pages, each with
// a footer (report, time, hash, page i of n). Qt embeds the glyphs it uses, with their Unicode,
// so pdftotext reads the text back. A CJK family is
// named after the Latin one, so that Chinese text never falls to a font without its glyphs.
#include <memory>

#include <QFile>
#include <QFont>
#include <QGuiApplication>
#include <QMarginsF>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QAbstractTextDocumentLayout>
#include <QTextDocument>

#include <fmt/format.h>

#include "sonolink/report/qa_report_pdf.h"
#include "sonolink/util/build_info.h"

namespace sonolink::report {
namespace {

// A Qt application for the call's length where the process has none (the CLI): offscreen, so
// that no display is needed, and fonts from fontconfig as on the desktop.
class OffscreenApplication {
public:
    OffscreenApplication() {
        if (QCoreApplication::instance() != nullptr) return;
        app_ = std::make_unique<QGuiApplication>(argc_, argv_);
    }

private:
    int argc_ = 3;
    char name_[16] = "sonolink";
    char option_[16] = "-platform";
    char platform_[16] = "offscreen";
    char* argv_[4] = {name_, option_, platform_, nullptr};
    std::unique_ptr<QGuiApplication> app_;
};

// The report's font: a CJK family after the Latin one, so that Chinese text never falls to a
// font without its glyphs.
QFont qaReportFont() {
    QFont font;
    font.setFamilies({"DejaVu Sans", "Noto Sans CJK SC", "WenQuanYi Micro Hei", "AR PL UMing CN"});
    font.setPointSizeF(8.5);
    font.setStyleStrategy(QFont::PreferNoShaping);  // no ligatures: "fi" stays two letters that a search finds
    return font;
}

// The report drawn into path (partial, named in errors): A4 pages, each with its footer. The
// writer finishes the file when it goes, at the end of this call.
Status drawQaReportPdf(const nlohmann::json& report, const ReportLanguage& language, const QString& path, const std::filesystem::path& partial) {
    QPdfWriter writer(path);
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait, QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter));
    writer.setResolution(300);
    writer.setTitle(QString::fromStdString(report.value("report", std::string("SonoLink QA report"))));
    writer.setCreator(QString::fromStdString(fmt::format("SonoLink {}", buildInfo().version)));
    QTextDocument document;
    const QFont font = qaReportFont();
    document.setDefaultFont(font);
    document.setHtml(QString::fromStdString(qaReportHtml(report, language)));
    // Laid out in the writer's own pixels, page by page, each with its footer (print()
    // would add margins of its own to the writer's).
    document.documentLayout()->setPaintDevice(&writer);
    const QRect area = writer.pageLayout().paintRectPixels(writer.resolution());
    const int footer = writer.resolution() / 4;  // a quarter inch
    const QSizeF page(area.width(), area.height() - footer);
    document.setPageSize(page);
    const int pages = document.pageCount();
    const auto caption = QCoreApplication::translate("QaReport", "SonoLink QA report, %1, SHA-256 %2")
                             .arg(QString::fromStdString(report.value("finished_utc", std::string())),
                                  QString::fromStdString(report.value("sha256", std::string()).substr(0, 16)));
    QPainter painter;
    if (!painter.begin(&writer)) return fail(ErrorCode::DataLoss, fmt::format("cannot write the report {}", partial.string()));
    QFont small = font;
    small.setPointSizeF(7);
    for (int i = 0; i < pages; ++i) {
        if (i > 0) writer.newPage();
        painter.save();
        painter.translate(0, -i * page.height());
        document.drawContents(&painter, QRectF(QPointF(0, i * page.height()), page));
        painter.restore();
        painter.setFont(small);
        painter.drawText(QRectF(0, page.height(), page.width(), footer), Qt::AlignRight | Qt::AlignBottom,
                         QCoreApplication::translate("QaReport", "%1, page %2 of %3").arg(caption).arg(i + 1).arg(pages));
    }
    painter.end();
    return {};
}

}  // namespace

Status writeQaReportPdf(const nlohmann::json& report, const std::filesystem::path& file, const ReportLanguage& language) {
    OffscreenApplication application;
    // Drawn under a temporary name and renamed over the file: a crash or a failure mid-way leaves
    // the report's earlier PDF as it was, never half of a new one.
    const auto partial = std::filesystem::path(file).concat(".partial");
    const auto path = QString::fromStdString(partial.string());
    {
        QFile probe(path);  // QPdfWriter says nothing when it cannot open its file
        if (!probe.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
            return fail(ErrorCode::DataLoss, fmt::format("cannot write the report {}: {}", file.string(), probe.errorString().toStdString()));
        }
    }
    if (auto drawn = drawQaReportPdf(report, language, path, partial); !drawn) return drawn;
    std::error_code ec;
    if (QFile(path).size() == 0) {
        std::filesystem::remove(partial, ec);
        return fail(ErrorCode::DataLoss, fmt::format("cannot write the report {}: nothing was written", file.string()));
    }
    std::filesystem::rename(partial, file, ec);
    if (ec) {
        std::filesystem::remove(partial, ec);
        return fail(ErrorCode::DataLoss, fmt::format("cannot put the report at {}: {}", file.string(), ec.message()));
    }
    return {};
}

}  // namespace sonolink::report
