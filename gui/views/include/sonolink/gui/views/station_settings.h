// StationSettings: what the settings dialog edits and keeps (QSettings): the station's DICOM
// identity (AE title, station name), its PACS nodes, the TLS files, the probes and the one in
// use, the start-up self-test policy. problemsOf() names every value the station could not use, each saying which and why
// (the configuration loader holds the file to the same rules).
// Thread contract: plain values and pure functions.
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace sonolink::gui {

struct PacsNodeEntry {
    QString name;
    QString aeTitle;
    QString host;
    int port = 104;
    bool tls = false;
    bool operator==(const PacsNodeEntry&) const = default;
};

// A probe the station can be used with: a linear array's element count, pitch and centre frequency.
struct ProbeEntry {
    QString name;
    int elementCount = 128;
    double pitchMm = 0.3;
    double centerFrequencyMHz = 5;
    bool operator==(const ProbeEntry&) const = default;
};

// The probes listed until the station keeps its own: L5-128 (the configuration's default), L7-192, L15-128.
[[nodiscard]] QList<ProbeEntry> builtInProbes();

struct StationSettings {
    QString stationAeTitle = "SONOLINK";
    QString stationName;
    QList<PacsNodeEntry> nodes;
    QString tlsCertificate;
    QString tlsPrivateKey;
    QString tlsTrustedCertificates;
    QList<ProbeEntry> probes = builtInProbes();
    QString probe;  // the one in use from the next start; empty: the configuration file's
    bool selfTestAtConnect = true;
    QString selfTestMode = "quick";  // "quick" or "full"
    bool operator==(const StationSettings&) const = default;
};

// An AE title: 1 to 16 characters of DICOM's default repertoire, no backslash, not only spaces.
[[nodiscard]] QString aeTitleProblem(const QString& aeTitle);
[[nodiscard]] QStringList problemsOf(const StationSettings& settings);

}  // namespace sonolink::gui
