#include "sonolink/console/settings_store.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QObject>
#include <QSettings>

#include <algorithm>

namespace sonolink::app {
namespace {

constexpr const char* kKey = "station/settings";

QJsonArray nodesJson(const gui::StationSettings& s) {
    QJsonArray nodes;
    for (const auto& n : s.nodes) nodes.append(QJsonObject{{"name", n.name}, {"ae_title", n.aeTitle}, {"host", n.host}, {"port", n.port}, {"tls", n.tls}});
    return nodes;
}

QJsonArray probesJson(const gui::StationSettings& s) {
    QJsonArray probes;
    for (const auto& p : s.probes) {
        probes.append(
            QJsonObject{{"name", p.name}, {"element_count", p.elementCount}, {"pitch_mm", p.pitchMm}, {"center_frequency_mhz", p.centerFrequencyMHz}});
    }
    return probes;
}

// A value as JSON text: the value alone in an array, written, its brackets taken off.
std::string text(const QJsonValue& v) { return QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact).mid(1).chopped(1).toStdString(); }

}  // namespace

std::optional<gui::StationSettings> loadStationSettings() {
    const auto stored = QSettings().value(kKey).toByteArray();
    if (stored.isEmpty()) return std::nullopt;
    const auto o = QJsonDocument::fromJson(stored).object();
    gui::StationSettings s;
    s.stationAeTitle = o["station_ae_title"].toString(s.stationAeTitle);
    s.stationName = o["station_name"].toString();
    for (const auto& v : o["nodes"].toArray()) {
        const auto n = v.toObject();
        s.nodes << gui::PacsNodeEntry{n["name"].toString(), n["ae_title"].toString(), n["host"].toString(), n["port"].toInt(104), n["tls"].toBool()};
    }
    const auto tls = o["tls"].toObject();
    s.tlsCertificate = tls["certificate"].toString();
    s.tlsPrivateKey = tls["private_key"].toString();
    s.tlsTrustedCertificates = tls["trusted_certificates"].toString();
    if (o.contains("probes")) {
        s.probes.clear();
        for (const auto& v : o["probes"].toArray()) {
            const auto p = v.toObject();
            s.probes << gui::ProbeEntry{p["name"].toString(), p["element_count"].toInt(-1), p["pitch_mm"].toDouble(-1), p["center_frequency_mhz"].toDouble(-1)};
        }
    }
    s.probe = o["probe"].toString();
    s.selfTestAtConnect = o["selftest_at_connect"].toBool(true);
    s.selfTestMode = o["selftest_mode"].toString("quick");
    return s;
}

void saveStationSettings(const gui::StationSettings& s) {
    const QJsonObject o{
        {"station_ae_title", s.stationAeTitle},
        {"station_name", s.stationName},
        {"nodes", nodesJson(s)},
        {"tls", QJsonObject{{"certificate", s.tlsCertificate}, {"private_key", s.tlsPrivateKey}, {"trusted_certificates", s.tlsTrustedCertificates}}},
        {"probes", probesJson(s)},
        {"probe", s.probe},
        {"selftest_at_connect", s.selfTestAtConnect},
        {"selftest_mode", s.selfTestMode}};
    QSettings().setValue(kKey, QJsonDocument(o).toJson(QJsonDocument::Compact));
}

namespace {

constexpr const char* kPresetsKey = "imaging/presets";

QJsonObject presetJson(const gui::ImagingValues& v) {
    QJsonArray tgc;
    for (double db : v.tgcDb) tgc.append(db);
    return {{"gain_db", v.gainDb}, {"dynamic_range_db", v.dynamicRangeDb}, {"depth_end_mm", v.depthEndMm}, {"persistence", v.persistence}, {"tgc_db", tgc}};
}

gui::ImagingValues presetValues(const QJsonObject& o, const gui::ImagingValues& defaults) {
    gui::ImagingValues v = defaults;
    v.gainDb = o["gain_db"].toDouble(v.gainDb);
    v.dynamicRangeDb = o["dynamic_range_db"].toDouble(v.dynamicRangeDb);
    v.depthEndMm = o["depth_end_mm"].toDouble(v.depthEndMm);
    v.persistence = o["persistence"].toDouble(v.persistence);
    const auto tgc = o["tgc_db"].toArray();
    if (static_cast<std::size_t>(tgc.size()) == v.tgcDb.size()) {
        for (qsizetype i = 0; i < tgc.size(); ++i) v.tgcDb[static_cast<std::size_t>(i)] = tgc[i].toDouble();
    }
    return v;
}

}  // namespace

QList<ImagingPreset> imagingPresets(const gui::ImagingValues& defaults) {
    QList<ImagingPreset> out;
    out << ImagingPreset{QObject::tr("General"), defaults};
    auto superficial = defaults;
    superficial.depthEndMm = std::max(defaults.depthStartMm + 5, 25.0);
    superficial.gainDb = defaults.gainDb + 3;
    out << ImagingPreset{QObject::tr("Superficial"), superficial};
    auto deep = defaults;
    for (std::size_t i = 0; i < deep.tgcDb.size(); ++i)
        deep.tgcDb[i] = 12.0 * static_cast<double>(i) / static_cast<double>(std::max<std::size_t>(1, deep.tgcDb.size() - 1));
    deep.persistence = 0.3;
    out << ImagingPreset{QObject::tr("Deep"), deep};
    const auto kept = QJsonDocument::fromJson(QSettings().value(kPresetsKey).toByteArray()).object();
    for (auto it = kept.begin(); it != kept.end(); ++it) {
        const ImagingPreset preset{it.key(), presetValues(it.value().toObject(), defaults)};
        auto same = std::find_if(out.begin(), out.end(), [&](const auto& p) { return p.name == preset.name; });
        if (same != out.end()) *same = preset;
        else out << preset;
    }
    return out;
}

void saveImagingPreset(const ImagingPreset& preset) {
    QSettings store;
    auto kept = QJsonDocument::fromJson(store.value(kPresetsKey).toByteArray()).object();
    kept[preset.name] = presetJson(preset.values);
    store.setValue(kPresetsKey, QJsonDocument(kept).toJson(QJsonDocument::Compact));
}

std::vector<std::pair<std::string, std::string>> configOverridesOf(const gui::StationSettings& s) {
    std::vector<std::pair<std::string, std::string>> out{{"/dicom/station_ae_title", text(s.stationAeTitle)},
                                                         {"/dicom/station_name", text(s.stationName)},
                                                         {"/dicom/nodes", text(nodesJson(s))},
                                                         {"/selftest/at_connect", text(QJsonValue(s.selfTestAtConnect))},
                                                         {"/selftest/mode", text(s.selfTestMode)}};
    if (!s.tlsCertificate.isEmpty() || !s.tlsPrivateKey.isEmpty() || !s.tlsTrustedCertificates.isEmpty()) {
        out.emplace_back(
            "/dicom/tls",
            text(QJsonObject{{"certificate", s.tlsCertificate}, {"private_key", s.tlsPrivateKey}, {"trusted_certificates", s.tlsTrustedCertificates}}));
    }
    const auto probe = std::find_if(s.probes.begin(), s.probes.end(), [&](const auto& p) { return p.name == s.probe; });
    if (!s.probe.isEmpty() && probe != s.probes.end()) {
        out.emplace_back("/probe/element_count", text(probe->elementCount));
        out.emplace_back("/probe/pitch_m", text(probe->pitchMm * 1e-3));
        out.emplace_back("/probe/center_frequency_hz", text(probe->centerFrequencyMHz * 1e6));
    }
    return out;
}

}  // namespace sonolink::app
