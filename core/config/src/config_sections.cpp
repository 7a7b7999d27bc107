// The readers of the configuration file's sections (log, link, probe, acquisition, beamform,
// display, archive, dicom): each value checked against the engine's limits or DICOM's rules.
#include <cstdio>
#include <set>

#include "config_sections.h"
#include "sonolink/dicom/value_rules.h"
#include "sonolink/engine/settings.h"

namespace sonolink::config {
namespace {

using nlohmann::json;
namespace limits = engine::limits;  // the engine's own limits for the same settings

std::string checkAeTitle(const std::string& ae) { return dicom::aeTitleProblem(ae); }
std::string checkUidRoot(const std::string& root) { return root.empty() ? "" : dicom::uidRootProblem(root); }  // empty: 2.25 UUIDs
std::string checkLongString(const std::string& text) { return dicom::longStringProblem(text); }
std::string checkShortString(const std::string& text) { return dicom::shortStringProblem(text); }

void readLevel(ObjectReader& reader, std::string_view key, log::Level& out) {
    reader.choice(key, out,
                  {{"trace", log::Level::Trace},
                   {"debug", log::Level::Debug},
                   {"info", log::Level::Info},
                   {"warn", log::Level::Warn},
                   {"error", log::Level::Error},
                   {"critical", log::Level::Critical},
                   {"off", log::Level::Off}});
}

}  // namespace

std::string checkNotEmpty(const std::string& text) { return text.empty() ? "must not be empty" : ""; }

void readLog(ObjectReader& root, IssueList& issues, log::Settings& out) {
    auto section = root.object("log");
    readLevel(section, "level", out.level);
    section.path("file", out.file);
    section.members("categories", [&](const std::string& name, const json& value, const std::string& where) {
        auto level =
            value.is_string() ? log::parseLevel(value.get<std::string>()) : Result<log::Level>(fail(ErrorCode::InvalidArgument, "must be a level name"));
        if (!level) return issues.add(where, level.error().message() + " (got " + value.dump() + ")");
        out.categoryLevels[name] = *level;
    });
}

void readLink(ObjectReader& root, LinkSettings& out) {
    auto section = root.object("link");
    section.choice("backend", out.backend, {{"sim", LinkBackend::Sim}, {"verbs", LinkBackend::Verbs}});
    section.string("shm_name", out.shmName, [](const std::string& name) -> std::string {
        if (name.empty() || name.size() > 200 || name.find('/') != std::string::npos) return "must be 1 to 200 characters without '/'";
        return {};
    });
    section.string("address", out.address, [](const std::string& address) -> std::string {
        unsigned a, b, c, d;
        char extra;
        if (address.empty() || (std::sscanf(address.c_str(), "%u.%u.%u.%u%c", &a, &b, &c, &d, &extra) == 4 && a < 256 && b < 256 && c < 256 && d < 256))
            return {};
        return fmt::format("must be an IPv4 address such as 192.168.10.1 (got '{}')", address);
    });
    section.integer("port", out.port, 1, 65535);
    std::uint32_t slotSize = out.slotSizeBytes;
    section.integer("slot_size_bytes", slotSize, 4096, 64LL << 20, "bytes");
    if (slotSize % 4096 != 0) {
        section.issue("slot_size_bytes", fmt::format("must be a multiple of 4096 bytes: slots are "
                                                     "4 KiB-aligned for the NIC (got {})",
                                                     slotSize));
    } else {
        out.slotSizeBytes = slotSize;
    }
    section.integer("slot_count", out.slotCount, 2, 65536);
    section.choice("completion_mode", out.completionMode, {{"event", CompletionMode::Event}, {"busy_poll", CompletionMode::BusyPoll}});
    section.boolean("huge_pages", out.hugePages);
    section.integer("rx_cpu", out.rxCpu, -1, 4095);
}

void readProbe(ObjectReader& root, ProbeSettings& out) {
    auto section = root.object("probe");
    section.integer("element_count", out.elementCount, static_cast<int>(limits::kElements.min), static_cast<int>(limits::kElements.max));
    section.number("pitch_m", out.pitchM, limits::kPitchMm.min * 1e-3, limits::kPitchMm.max * 1e-3, "m");
    section.number("center_frequency_hz", out.centerFrequencyHz, limits::kCenterFrequencyMHz.min * 1e6, limits::kCenterFrequencyMHz.max * 1e6, "Hz");
}

void readAcquisition(ObjectReader& root, AcquisitionSettings& out) {
    auto section = root.object("acquisition");
    section.number("sampling_rate_hz", out.samplingRateHz, 20e6, 125e6, "Hz");
    section.integer("samples_per_channel", out.samplesPerChannel, static_cast<int>(limits::kSamples.min), static_cast<int>(limits::kSamples.max));
    section.number("frame_rate_hz", out.frameRateHz, limits::kFrameRateHz.min, limits::kFrameRateHz.max, "Hz");
    section.number("sound_speed_m_s", out.soundSpeedMps, 1000, 2000, "m/s");
    section.number("photoacoustic_sound_speed_m_s", out.photoacousticSoundSpeedMps, 0, 2000, "m/s");
    if (out.photoacousticSoundSpeedMps != 0 && out.photoacousticSoundSpeedMps < 1000) {
        section.issue("photoacoustic_sound_speed_m_s", "must be 0 (the sound_speed_m_s) or a speed from 1000 to 2000 m/s");
    }
    double delayUs = out.photoacousticSystemDelayS * 1e6;
    section.number("photoacoustic_system_delay_us", delayUs, 0, 100, "us");
    out.photoacousticSystemDelayS = delayUs * 1e-6;
    section.number("laser_rate_hz", out.laserRateHz, 0, 1000, "Hz");
    std::vector<double> angles;
    bool anglesOk = true;
    section.array("plane_wave_angles_deg", [&](const json& value, const std::string&) {
        if (!value.is_number() || !limits::kAngleDeg.holds(value.get<double>())) anglesOk = false;
        else angles.push_back(value.get<double>());
    });
    if (!anglesOk) {
        section.issue("plane_wave_angles_deg", "every angle must be a number between -45 and 45 degrees");
    } else if (!angles.empty()) {
        out.planeWaveAnglesDeg = std::move(angles);
    }
}

void readBeamform(ObjectReader& root, BeamformSettings& out) {
    auto section = root.object("beamform");
    section.choice("backend", out.backend, {{"auto", BeamformerBackend::Auto}, {"cuda", BeamformerBackend::Cuda}, {"cpu", BeamformerBackend::Cpu}});
    section.number("f_number", out.fNumber, limits::kFNumber.min, limits::kFNumber.max);
    section.choice("window", out.window,
                   {{"rectangular", ApodizationWindow::Rectangular}, {"hann", ApodizationWindow::Hann}, {"tukey", ApodizationWindow::Tukey}});
    section.number("dynamic_range_db", out.dynamicRangeDb, limits::kDynamicRangeDb.min, limits::kDynamicRangeDb.max, "dB");
    section.number("gain_db", out.gainDb, limits::kGainDb.min, limits::kGainDb.max, "dB");
}

void readDisplay(ObjectReader& root, DisplaySettings& out) {
    auto section = root.object("display");
    std::vector<double> tgc;
    bool tgcOk = true;
    bool tgcGiven = false;
    section.array("tgc_db", [&](const json& value, const std::string&) {
        tgcGiven = true;
        if (!value.is_number() || !limits::kTgcDb.holds(value.get<double>())) tgcOk = false;
        else tgc.push_back(value.get<double>());
    });
    if (!tgcOk) {
        section.issue("tgc_db", fmt::format("every TGC point must be a number from {:g} to {:g} dB", limits::kTgcDb.min, limits::kTgcDb.max));
    } else if (tgcGiven && !limits::kTgcPoints.holds(static_cast<double>(tgc.size()))) {
        section.issue("tgc_db", fmt::format("{} TGC points: give {:g} to {:g}", tgc.size(), limits::kTgcPoints.min, limits::kTgcPoints.max));
    } else if (tgcGiven) {
        out.tgcDb = std::move(tgc);
    }
    section.number("persistence", out.persistence, limits::kPersistence.min, limits::kPersistence.max);
    section.choice("grey_map", out.greyMap, {{"linear", GreyMap::Linear}, {"soft", GreyMap::Soft}, {"contrast", GreyMap::Contrast}});
    section.integer("columns", out.columns, static_cast<long long>(limits::kDisplayPixels.min), static_cast<long long>(limits::kDisplayPixels.max));
    section.integer("rows", out.rows, static_cast<long long>(limits::kDisplayPixels.min), static_cast<long long>(limits::kDisplayPixels.max));
    section.choice("photoacoustic_view", out.shotView,
                   {{"ultrasound", ShotView::Ultrasound},
                    {"photoacoustic", ShotView::Photoacoustic},
                    {"overlay", ShotView::Overlay},
                    {"side_by_side", ShotView::SideBySide}});
    section.choice("photoacoustic_map", out.shotMap, {{"hot", ShotColourMap::Hot}, {"iron", ShotColourMap::Iron}});
    section.number("photoacoustic_dynamic_range_db", out.shotDynamicRangeDb, limits::kDynamicRangeDb.min, limits::kDynamicRangeDb.max, "dB");
    section.number("photoacoustic_threshold", out.shotThreshold, limits::kShotThreshold.min, limits::kShotThreshold.max);
    section.number("photoacoustic_opacity", out.shotOpacity, limits::kShotOpacity.min, limits::kShotOpacity.max);
    section.boolean("photoacoustic_normalise_energy", out.shotNormaliseEnergy);
}

void readArchive(ObjectReader& root, ArchiveSettings& out) {
    auto section = root.object("archive");
    section.string("endpoint", out.endpoint, [](const std::string& url) -> std::string {
        if (url.empty() || ((url.starts_with("http://") || url.starts_with("https://")) && !url.ends_with("/"))) return {};
        return fmt::format("must be http(s)://host[:port] with no trailing '/' (got '{}')", url);
    });
    section.string("region", out.region, checkNotEmpty);
    section.string("bucket", out.bucket, [](const std::string& bucket) -> std::string {
        const bool ok = bucket.empty() ||
                        (bucket.size() >= 3 && bucket.size() <= 63 && bucket.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789.-") == std::string::npos);
        return ok ? "" : fmt::format("must be an S3 bucket name: 3 to 63 of a-z, 0-9, '.', '-' (got '{}')", bucket);
    });
    section.string("prefix", out.prefix);
    section.path("ca_file", out.caFile);
    section.boolean("verify_tls", out.verifyTls);
    section.string("access_key_id", out.accessKeyId);
    section.string("secret_access_key", out.secretAccessKey);
    section.path("credentials_file", out.credentialsFile);
    section.string("profile", out.profile);
    section.path("sse_customer_key_file", out.sseCustomerKeyFile);
    section.integer("part_size_bytes", out.partSizeBytes, 5LL << 20, 5LL << 30, "bytes");
    section.integer("parallel_requests", out.parallelRequests, 1, 64);
    section.number("connect_timeout_s", out.connectTimeoutS, 1, 600, "s");
    section.number("stall_timeout_s", out.stallTimeoutS, 1, 3600, "s");
    section.integer("max_attempts", out.maxAttempts, 1, 100);
    section.path("journal_directory", out.journalDirectory, checkNotEmpty);
    section.path("queue_directory", out.queueDirectory, checkNotEmpty);
    section.path("audit_file", out.auditFile, checkNotEmpty);
    section.number("retention_days", out.retentionDays, -1, 36500, "days");
    section.number("retry_initial_s", out.retryInitialS, 0.05, 3600, "s");
    section.number("retry_max_s", out.retryMaxS, 0.05, 86400, "s");
}

void readDicom(ObjectReader& root, IssueList& issues, DicomSettings& out) {
    auto section = root.object("dicom");
    section.string("station_ae_title", out.stationAeTitle, checkAeTitle);
    section.string("station_name", out.stationName, checkShortString);
    section.string("uid_root", out.uidRoot, checkUidRoot);
    section.integer("listen_port", out.listenPort, 1, 65535);
    section.string("device_serial_number", out.deviceSerialNumber, checkLongString);
    section.path("queue_directory", out.queueDirectory, checkNotEmpty);
    section.number("retry_initial_s", out.retryInitialS, 0.05, 3600, "s");
    section.number("retry_max_s", out.retryMaxS, 0.05, 86400, "s");
    section.number("commitment_timeout_s", out.commitmentTimeoutS, 1, 7 * 86400, "s");
    section.number("queue_retention_days", out.queueRetentionDays, 0, 3650, "days");
    section.integer("dimse_timeout_s", out.dimseTimeoutS, 1, 3600, "s");
    section.path("audit_file", out.auditFile, checkNotEmpty);
    section.string("audit_syslog_host", out.auditSyslogHost);
    section.integer("audit_syslog_port", out.auditSyslogPort, 1, 65535);
    {
        auto tls = section.object("tls");
        tls.path("certificate", out.tls.certificate);
        tls.path("private_key", out.tls.privateKey);
        tls.path("trusted_certificates", out.tls.trustedCertificates);
    }
    std::set<std::string> names;
    section.array("nodes", [&](const json& value, const std::string& where) {
        PacsNode node;
        ObjectReader reader(&value, where, issues);
        reader.string("name", node.name, checkNotEmpty);
        reader.string("ae_title", node.aeTitle, checkAeTitle);
        reader.string("host", node.host, checkNotEmpty);
        reader.integer("port", node.port, 1, 65535);
        reader.boolean("tls", node.tls);
        reader.boolean("storage_commitment", node.storageCommitment);
        if (!value.is_object()) return;
        for (const char* required : {"name", "ae_title", "host", "port"}) {
            if (!value.contains(required)) reader.issue(required, "is required for a PACS node");
        }
        if (!node.name.empty() && !names.insert(node.name).second) {
            reader.issue("name", fmt::format("duplicate PACS node name '{}'", node.name));
        }
        out.nodes.push_back(std::move(node));
    });
}

}  // namespace sonolink::config
