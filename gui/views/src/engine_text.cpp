#include "sonolink/gui/views/engine_text.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include <algorithm>
#include <vector>

#include "engine_text_catalogue.h"

namespace sonolink::gui {
namespace {

constexpr const char* kContext = "sonolink::gui::EngineText";

struct Pattern {
    const char* source;
    QRegularExpression match;
    qsizetype literal = 0;  // characters that are not placeholders: the more, the more specific
};

// Each pattern as an anchored expression: its text escaped, each %n a lazy group.
const std::vector<Pattern>& patterns() {
    static const std::vector<Pattern> all = [] {
        std::vector<Pattern> out;
        static const QRegularExpression placeholder(QStringLiteral("%[1-9]"));
        for (const char* source : engineTextCatalogue()) {
            const QString text = QString::fromUtf8(source);
            QString expression = QStringLiteral("^");
            qsizetype at = 0, literal = 0;
            for (auto it = placeholder.globalMatch(text); it.hasNext();) {
                const auto m = it.next();
                expression += QRegularExpression::escape(text.mid(at, m.capturedStart() - at)) + QStringLiteral("(.*?)");
                literal += m.capturedStart() - at;
                at = m.capturedEnd();
            }
            expression += QRegularExpression::escape(text.mid(at)) + QStringLiteral("$");
            literal += text.size() - at;
            out.push_back({source, QRegularExpression(expression, QRegularExpression::DotMatchesEverythingOption), literal});
        }
        std::stable_sort(out.begin(), out.end(), [](const Pattern& a, const Pattern& b) { return a.literal > b.literal; });
        return out;
    }();
    return all;
}

QString translated(const QString& english, int depth) {
    if (english.isEmpty() || depth > 16) return english;  // a list of n items nests n deep
    for (const auto& p : patterns()) {
        const auto m = p.match.match(english);
        if (!m.hasMatch()) continue;
        QString out = QCoreApplication::translate(kContext, p.source);
        // %n in the translation may come in another order: each replaced by its own value.
        QStringList values;
        for (int i = 1; i <= m.lastCapturedIndex(); ++i) values << translated(m.captured(i), depth + 1);
        QString result;
        for (qsizetype i = 0; i < out.size(); ++i) {
            if (out[i] == '%' && i + 1 < out.size() && out[i + 1].isDigit() && out[i + 1] != '0') {
                const int n = out[i + 1].digitValue();
                if (n <= values.size()) {
                    result += values[n - 1];
                    ++i;
                    continue;
                }
            }
            result += out[i];
        }
        return result;
    }
    return english;
}

}  // namespace

QString engineText(const QString& english) { return translated(english, 0); }

const QStringList& engineTextPatterns() {
    static const QStringList all = [] {
        QStringList out;
        for (const char* source : engineTextCatalogue()) out << QString::fromUtf8(source);
        return out;
    }();
    return all;
}

}  // namespace sonolink::gui
