#include "sonolink/gui/views/station_settings.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QSet>

namespace sonolink::gui {
namespace {

struct SettingsText {
    Q_DECLARE_TR_FUNCTIONS(sonolink::gui::StationSettings)
};

QString fileProblem(const QString& what, const QString& path) {
    if (path.isEmpty()) return SettingsText::tr("TLS needs the %1 file.").arg(what);
    const QFileInfo file(path);
    if (!file.isFile() || !file.isReadable()) return SettingsText::tr("The %1 file %2 cannot be read.").arg(what, path);
    return {};
}

// As the engine's limits (engine/settings.h) hold every probe; tst_settings checks they agree.
constexpr int kMaxElements = 256;
constexpr double kMinPitchMm = 0.01, kMaxPitchMm = 5;
constexpr double kMinCenterMHz = 0.5, kMaxCenterMHz = 50;

// A node's or a probe's name: given, and given once.
void nameProblems(const QString& which, const QString& name, QSet<QString>& names, QStringList& out) {
    if (name.trimmed().isEmpty()) out << SettingsText::tr("%1 has no name.").arg(which);
    else if (names.contains(name)) out << SettingsText::tr("%1 is named twice.").arg(which);
    names.insert(name);
}

void probeProblems(const StationSettings& s, QStringList& out) {
    QSet<QString> names;
    for (int i = 0; i < s.probes.size(); ++i) {
        const auto& p = s.probes[i];
        const QString which = SettingsText::tr("Probe %1").arg(p.name.isEmpty() ? QString::number(i + 1) : p.name);
        nameProblems(which, p.name, names, out);
        if (p.elementCount < 1 || p.elementCount > kMaxElements) {
            out << SettingsText::tr("%1: %2 elements is not 1 to %3.").arg(which).arg(p.elementCount).arg(kMaxElements);
        }
        if (!(p.pitchMm >= kMinPitchMm && p.pitchMm <= kMaxPitchMm)) {
            out << SettingsText::tr("%1: a pitch of %2 mm is not %3 to %4 mm.").arg(which).arg(p.pitchMm).arg(kMinPitchMm).arg(kMaxPitchMm);
        }
        if (!(p.centerFrequencyMHz >= kMinCenterMHz && p.centerFrequencyMHz <= kMaxCenterMHz)) {
            out << SettingsText::tr("%1: a centre frequency of %2 MHz is not %3 to %4 MHz.")
                       .arg(which)
                       .arg(p.centerFrequencyMHz)
                       .arg(kMinCenterMHz)
                       .arg(kMaxCenterMHz);
        }
    }
    if (!s.probe.isEmpty() && !names.contains(s.probe)) out << SettingsText::tr("The probe in use, %1, is not listed.").arg(s.probe);
}

}  // namespace

QList<ProbeEntry> builtInProbes() { return {ProbeEntry{"L5-128", 128, 0.3, 5}, ProbeEntry{"L7-192", 192, 0.2, 7.5}, ProbeEntry{"L15-128", 128, 0.1, 15}}; }

QString aeTitleProblem(const QString& ae) {
    if (ae.trimmed().isEmpty()) return SettingsText::tr("is empty");
    if (ae.size() > 16) return SettingsText::tr("is longer than 16 characters");
    for (const QChar c : ae) {
        if (c.unicode() < 0x20 || c.unicode() > 0x7e || c == '\\') return SettingsText::tr("may hold only printable ASCII characters, no backslash");
    }
    return {};
}

QStringList problemsOf(const StationSettings& s) {
    QStringList out;
    if (const auto p = aeTitleProblem(s.stationAeTitle); !p.isEmpty()) out << SettingsText::tr("The station's AE title %1.").arg(p);
    if (s.stationName.size() > 16) out << SettingsText::tr("The station name is longer than DICOM's 16 characters.");
    QSet<QString> names;
    bool anyTls = false;
    for (int i = 0; i < s.nodes.size(); ++i) {
        const auto& n = s.nodes[i];
        const QString which = SettingsText::tr("Node %1").arg(n.name.isEmpty() ? QString::number(i + 1) : n.name);
        nameProblems(which, n.name, names, out);
        if (const auto p = aeTitleProblem(n.aeTitle); !p.isEmpty()) out << SettingsText::tr("%1: its AE title %2.").arg(which, p);
        if (n.host.trimmed().isEmpty()) out << SettingsText::tr("%1 has no host.").arg(which);
        if (n.port < 1 || n.port > 65535) out << SettingsText::tr("%1: port %2 is not 1 to 65535.").arg(which).arg(n.port);
        anyTls = anyTls || n.tls;
    }
    if (anyTls) {
        for (const auto& [what, path] :
             {std::pair{SettingsText::tr("certificate"), s.tlsCertificate}, std::pair{SettingsText::tr("private key"), s.tlsPrivateKey},
              std::pair{SettingsText::tr("trusted certificates"), s.tlsTrustedCertificates}}) {
            if (const auto p = fileProblem(what, path); !p.isEmpty()) out << p;
        }
    }
    probeProblems(s, out);
    if (s.selfTestMode != "quick" && s.selfTestMode != "full") out << SettingsText::tr("The self-test mode must be quick or full.");
    return out;
}

}  // namespace sonolink::gui
