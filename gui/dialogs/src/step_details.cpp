// One step's details as the wizard's details box shows them: the verdict, figures, limit and fix;
// the link BER test's counts and bound; the element check's map, every flagged channel first.
#include <QLocale>

#include "self_test_pages.h"

namespace sonolink::gui {
namespace {

QString row(const QString& name, const QString& value) {
    return QString("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(name.toHtmlEscaped(), value.toHtmlEscaped());
}

QString elementMap(const QList<ElementResult>& elements) {
    QString flagged, map;
    int bad = 0;
    for (int channel = 0; channel < elements.size(); ++channel) {
        const auto& e = elements[channel];
        const bool ok = e.fault == "ok";
        // The map: one cell a channel, coloured by its fault, its number in the tooltip of the print.
        map += QString("<td style=\"background-color:%1\" title=\"%2\">&nbsp;</td>")
                   .arg(ok                                        ? "#2e7d32"
                        : e.fault == "weak" || e.fault == "noisy" ? "#b26a00"
                                                                  : "#c62828")
                   .arg(channel);
        if ((channel + 1) % 32 == 0) map += "</tr><tr>";
        if (ok) continue;
        ++bad;
        const auto fault = e.swappedWith >= 0 ? SelfTestPage::tr("%1 (with channel %2)").arg(faultText(e.fault)).arg(e.swappedWith) : faultText(e.fault);
        flagged += QString("<tr><td>%1</td><td>%2</td><td>%3</td><td>%4</td><td>%5</td></tr>")
                       .arg(channel)
                       .arg(fault.toHtmlEscaped())
                       .arg(e.rms, 0, 'f', 1)
                       .arg(e.snrDb, 0, 'f', 1)
                       .arg(e.neighbourCorrelation, 0, 'f', 2);
    }
    QString html =
        QString("<p><b>%1</b></p><table cellspacing=\"1\"><tr>%2</tr></table>")
            .arg(SelfTestPage::tr("Element map, %1 channels (green: ok; amber: weak or noisy; red: dead, swapped or uncorrelated)").arg(elements.size()), map);
    if (bad > 0) {
        html += QString("<p><b>%1</b></p><table border=\"1\" cellpadding=\"3\"><tr><th>%2</th><th>%3</th><th>%4</th><th>%5</th><th>%6</th></tr>%7</table>")
                    .arg(SelfTestPage::tr("%n flagged channel(s)", nullptr, bad), SelfTestPage::tr("Channel"), SelfTestPage::tr("Fault"),
                         SelfTestPage::tr("RMS (counts)"), SelfTestPage::tr("SNR (dB)"), SelfTestPage::tr("Neighbour correlation"), flagged);
    }
    return html;
}

}  // namespace

QString stepDetailsHtml(const SelfTestResult& r) {
    QString html = QString("<h3 style=\"color:%1\">%2: %3</h3><table cellpadding=\"2\">")
                       .arg(verdictColor(r.verdict).name(), stepTitle(r.step).toHtmlEscaped(), verdictText(r.verdict).toHtmlEscaped());
    html += row(SelfTestPage::tr("Figures"), r.figures);
    html += row(SelfTestPage::tr("Limit"), r.limit);
    if (!r.fix.isEmpty()) html += row(SelfTestPage::tr("What to do"), r.fix);
    if (r.seconds > 0) html += row(SelfTestPage::tr("Time"), SelfTestPage::tr("%1 s").arg(r.seconds, 0, 'f', 2));
    if (r.verdict == "fail") {
        html += row(SelfTestPage::tr("Blocks acquisition"), r.blocksStreaming ? SelfTestPage::tr("yes") : SelfTestPage::tr("no"));
    }
    if (r.bitsChecked > 0) {
        const QLocale c = QLocale::c();
        html += row(SelfTestPage::tr("Bits compared"), QString::number(static_cast<double>(r.bitsChecked), 'g', 4));
        html += row(SelfTestPage::tr("Bit errors"), c.toString(r.bitErrors));
        html += row(SelfTestPage::tr("Losses of pattern lock"), c.toString(r.lockLosses));
        html += row(SelfTestPage::tr("Blocks with CRC errors"), c.toString(r.crcErrors));
        html += row(SelfTestPage::tr("BER measured"), QString::number(r.ber, 'g', 3));
        html += row(SelfTestPage::tr("BER upper bound"), QString::number(r.berUpperBound, 'g', 3));
    }
    html += "</table>";
    if (!r.elements.isEmpty()) html += elementMap(r.elements);
    return html;
}

}  // namespace sonolink::gui
