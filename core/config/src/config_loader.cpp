#include "sonolink/config/config_loader.h"

#include <algorithm>


#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <set>

#include <fmt/ranges.h>

#include "object_reader.h"
#include "sonolink/dicom/value_rules.h"
#include "sonolink/engine/engine_types.h"
#include "sonolink/engine/settings.h"
#include "sonolink/util/durable_file.h"
#include "sonolink/util/json_nesting.h"

namespace sonolink::config {
namespace {

using nlohmann::json;
namespace limits = engine::limits;  // the engine's own limits for the same settings

constexpr int kSchemaVersion = 1;

std::string checkAeTitle(const std::string& ae) { return dicom::aeTitleProblem(ae); }
std::string checkUidRoot(const std::string& root) { return root.empty() ? "" : dicom::uidRootProblem(root); }  // empty: 2.25 UUIDs
std::string checkLongString(const std::string& text) { return dicom::longStringProblem(text); }
std::string checkShortString(const std::string& text) { return dicom::shortStringProblem(text); }

std::string checkNotEmpty(const std::string& text) { return text.empty() ? "must not be empty" : ""; }

void readLevel(ObjectReader& reader, std::string_view key, log::Level& out) {
    reader.choice(key, out, {{"trace", log::Level::Trace}, {"debug", log::Level::Debug},
                             {"info", log::Level::Info}, {"warn", log::Level::Warn},
                             {"error", log::Level::Error}, {"critical", log::Level::Critical},
                             {"off", log::Level::Off}});
}

void readLog(ObjectReader& root, IssueList& issues, log::Settings& out) {
    auto section = root.object("log");
    readLevel(section, "level", out.level);
    section.path("file", out.file);
    section.members("categories", [&](const std::string& name, const json& value, const std::string& where) {
        auto level = value.is_string() ? log::parseLevel(value.get<std::string>())
                                       : Result<log::Level>(fail(ErrorCode::InvalidArgument, "must be a level name"));
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
        if (address.empty() || (std::sscanf(address.c_str(), "%u.%u.%u.%u%c", &a, &b, &c, &d, &extra) == 4 && a < 256 && b < 256 && c < 256 && d < 256)) return {};
        return fmt::format("must be an IPv4 address such as 192.168.10.1 (got '{}')", address);
    });
    section.integer("port", out.port, 1, 65535);
    std::uint32_t slotSize = out.slotSizeBytes;
    section.integer("slot_size_bytes", slotSize, 4096, 64LL << 20, "bytes");
    if (slotSize % 4096 != 0) {
        section.issue("slot_size_bytes", fmt::format("must be a multiple of 4096 bytes: slots are "
                                                     "4 KiB-aligned for the NIC (got {})", slotSize));
    } else {
        out.slotSizeBytes = slotSize;
    }
    section.integer("slot_count", out.slotCount, 2, 65536);
    section.choice("completion_mode", out.completionMode,
                   {{"event", CompletionMode::Event}, {"busy_poll", CompletionMode::BusyPoll}});
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
    section.choice("backend", out.backend, {{"auto", BeamformerBackend::Auto},
                                            {"cuda", BeamformerBackend::Cuda},
                                            {"cpu", BeamformerBackend::Cpu}});
    section.number("f_number", out.fNumber, limits::kFNumber.min, limits::kFNumber.max);
    section.choice("window", out.window, {{"rectangular", ApodizationWindow::Rectangular},
                                          {"hann", ApodizationWindow::Hann},
                                          {"tukey", ApodizationWindow::Tukey}});
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
    section.choice("photoacoustic_view", out.shotView, {{"ultrasound", ShotView::Ultrasound}, {"photoacoustic", ShotView::Photoacoustic},
                                                        {"overlay", ShotView::Overlay}, {"side_by_side", ShotView::SideBySide}});
    section.choice("photoacoustic_map", out.shotMap, {{"hot", ShotColourMap::Hot}, {"iron", ShotColourMap::Iron}});
    section.number("photoacoustic_dynamic_range_db", out.shotDynamicRangeDb, limits::kDynamicRangeDb.min, limits::kDynamicRangeDb.max, "dB");
    section.number("photoacoustic_threshold", out.shotThreshold, limits::kShotThreshold.min, limits::kShotThreshold.max);
    section.number("photoacoustic_opacity", out.shotOpacity, limits::kShotOpacity.min, limits::kShotOpacity.max);
    section.boolean("photoacoustic_normalise_energy", out.shotNormaliseEnergy);
}

// The self-test's limits, each read by the same rules wherever it is given (the selftest section,
// or a step of the steps file).
void readSelfTestLimits(ObjectReader& section, SelfTestSettings& out) {
    section.choice("ber_pattern", out.berPattern, {{"prbs7", BerPattern::Prbs7}, {"prbs15", BerPattern::Prbs15},
                                                   {"prbs23", BerPattern::Prbs23}, {"prbs31", BerPattern::Prbs31}});
    section.number("ber_limit", out.berLimit, 1e-15, 1e-3);
    section.number("ber_quick_limit", out.berQuickLimit, 1e-15, 1e-3);
    section.number("ber_confidence", out.berConfidence, 0.5, 0.9999);
    section.integer("element_frames", out.elementFrames, 2, 64);
    section.number("element_dead_rms_fraction", out.elementDeadRmsFraction, 0.0, 1.0);
    section.number("element_weak_rms_fraction", out.elementWeakRmsFraction, 0.0, 1.0);
    section.number("element_noisy_snr_drop_db", out.elementNoisySnrDropDb, 0.0, 60.0, "dB");
    section.number("element_correlation_fraction", out.elementCorrelationFraction, 0.0, 1.0);
    section.number("phantom_min_ncc", out.phantomMinNcc, 0.0, 1.0);
    section.number("phantom_max_position_error_mm", out.phantomMaxPositionErrorMm, 0.01, 10.0, "mm");
    section.number("phantom_max_fwhm_error", out.phantomMaxFwhmError, 0.01, 10.0);
    section.integer("gpu_memory_mib", out.gpuMemoryMib, 0, 1 << 20);
}

// Which step each limit and timeout belongs to (the steps file holds each under its own step).
const std::map<std::string_view, std::vector<std::string_view>>& stepLimitKeys() {
    static const std::map<std::string_view, std::vector<std::string_view>> keys{
        {"GPU memory", {"gpu_memory_mib"}},
        {"link BER", {"ber_pattern", "ber_limit", "ber_quick_limit", "ber_confidence"}},
        {"element check", {"element_frames", "element_dead_rms_fraction", "element_weak_rms_fraction", "element_noisy_snr_drop_db",
                           "element_correlation_fraction"}},
        {"phantom check", {"phantom_min_ncc", "phantom_max_position_error_mm", "phantom_max_fwhm_error"}}};
    return keys;
}

void readSelfTest(ObjectReader& root, SelfTestSettings& out) {
    auto section = root.object("selftest");
    section.boolean("at_connect", out.atConnect);
    section.choice("mode", out.mode, {{"quick", SelfTestMode::Quick}, {"full", SelfTestMode::Full}});
    readSelfTestLimits(section, out);
    section.number("ber_timeout_s", out.berTimeoutS, 1, 3600, "s");
    section.boolean("element_check", out.elementCheck);
    section.path("report_directory", out.reportDirectory, checkNotEmpty);
    section.string("engineer_group", out.engineerGroup, [](const std::string& group) -> std::string {
        const bool name = !group.empty() && group.size() <= 32 && group.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") == std::string::npos;
        return name && group[0] != '-' ? "" : "not a group name (letters, digits, '.', '_' and '-', up to 32)";
    });
    section.path("steps_file", out.stepsFile);
    std::vector<std::string> steps;
    std::string unknown;
    section.array("steps", [&](const json& value, const std::string&) {
        if (!value.is_string() || !engine::isSelfTestStepName(value.get<std::string>())) unknown = value.is_string() ? value.get<std::string>() : value.dump();
        else steps.push_back(value.get<std::string>());
    });
    if (!unknown.empty()) {
        section.issue("steps", fmt::format("no self-test step is named '{}' (the steps: {})", unknown, fmt::join(engine::kSelfTestSteps, ", ")));
    } else {
        out.steps = std::move(steps);
    }
}

// With a steps file the limits live there alone: one given in the selftest section too is an
// issue (which of the two would count is not for a reader of either file to guess).
void checkNoLimitsBesideAStepsFile(const json& document, IssueList& issues) {
    const auto section = document.find("selftest");
    if (section == document.end() || !section->is_object() || !section->contains("steps_file")) return;
    for (const auto& [step, keys] : stepLimitKeys()) {
        for (const auto key : keys) {
            if (section->contains(std::string(key))) {
                issues.add(fmt::format("/selftest/{}", key), fmt::format("the steps file (selftest.steps_file) holds the self-test's limits: "
                                                                          "set it there, under the step '{}'", step));
            }
        }
    }
    for (const auto* key : {"ber_timeout_s"}) {
        if (section->contains(key)) issues.add(fmt::format("/selftest/{}", key), "the steps file (selftest.steps_file) holds the steps' timeouts: set it there, as the 'link BER' step's timeout_s");
    }
}

void readArchive(ObjectReader& root, ArchiveSettings& out) {
    auto section = root.object("archive");
    section.string("endpoint", out.endpoint, [](const std::string& url) -> std::string {
        if (url.empty() || ((url.starts_with("http://") || url.starts_with("https://")) && !url.ends_with("/"))) return {};
        return fmt::format("must be http(s)://host[:port] with no trailing '/' (got '{}')", url);
    });
    section.string("region", out.region, checkNotEmpty);
    section.string("bucket", out.bucket, [](const std::string& bucket) -> std::string {
        const bool ok = bucket.empty() || (bucket.size() >= 3 && bucket.size() <= 63 &&
                                           bucket.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789.-") == std::string::npos);
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

// Every relative data folder and file, taken under the station's data folder (which "."
// leaves as written: relative to the folder SonoLink starts in).
void placeUnderDataDirectory(AppConfig& config) {
    const std::filesystem::path data(config.dataDirectory);
    if (data.empty() || data == ".") return;
    for (std::string* path : {&config.log.file, &config.recording.directory, &config.selftest.reportDirectory, &config.dicom.queueDirectory,
                              &config.dicom.auditFile, &config.archive.journalDirectory, &config.archive.queueDirectory, &config.archive.auditFile}) {
        if (!path->empty() && std::filesystem::path(*path).is_relative()) *path = (data / *path).lexically_normal().string();
    }
}

// Checks that involve more than one value.
void checkConsistency(const AppConfig& config, IssueList& issues) {
    if (config.link.backend == LinkBackend::Verbs && config.link.address.empty()) {
        issues.add("/link/address", "is required with backend \"verbs\": the IP address of the host's RDMA interface");
    }
    if (config.dicom.retryMaxS < config.dicom.retryInitialS) {
        issues.add("/dicom/retry_max_s", fmt::format("must be at least dicom.retry_initial_s ({:g} s)", config.dicom.retryInitialS));
    }
    const auto& tls = config.dicom.tls;
    const bool anyTls = std::any_of(config.dicom.nodes.begin(), config.dicom.nodes.end(), [](const PacsNode& n) { return n.tls; });
    if (anyTls && (tls.certificate.empty() || tls.privateKey.empty() || tls.trustedCertificates.empty())) {
        issues.add("/dicom/tls", "needs certificate, private_key and trusted_certificates: a node has tls");
    }
    if (config.acquisition.samplingRateHz < 2.0 * config.probe.centerFrequencyHz) {
        issues.add("/acquisition/sampling_rate_hz",
                   fmt::format("must be at least twice probe.center_frequency_hz ({:g} Hz) to "
                               "sample the echoes (got {:g} Hz)",
                               config.probe.centerFrequencyHz, config.acquisition.samplingRateHz));
    }
}

std::pair<int, int> lineAndColumn(std::string_view text, std::size_t byte) {
    int line = 1, column = 1;
    for (std::size_t i = 0; i < byte && i < text.size(); ++i) {
        if (text[i] == '\n') { ++line; column = 1; } else { ++column; }
    }
    return {line, column};
}

// The JSON text (// comments allowed), or none with the issue: where it breaks, by line and
// column; a number no double holds (1e999) too.
std::optional<json> parseDocument(std::string_view text, IssueList& issues) {
    if (auto ok = checkJsonNesting(text, "the document"); !ok) {
        issues.add("", ok.error().message());
        return std::nullopt;
    }
    try {
        return json::parse(text.begin(), text.end(), nullptr, true, /*ignore_comments=*/true);
    } catch (const json::parse_error& e) {
        const auto [line, column] = lineAndColumn(text, e.byte == 0 ? 0 : e.byte - 1);
        issues.add("", fmt::format("not valid JSON at line {}, column {}: {}", line, column, e.what()));
    } catch (const json::exception& e) {
        issues.add("", fmt::format("not valid JSON: {}", e.what()));
    }
    return std::nullopt;
}

}  // namespace

std::vector<ConfigIssue> parseSelfTestSteps(std::string_view jsonText, const std::string& sourceName, SelfTestSettings& out) {
    IssueList issues(sourceName);
    const auto document = parseDocument(jsonText, issues);
    if (!document) return issues.take();
    ObjectReader root(&*document, "", issues);
    int schema = kSchemaVersion;
    root.integer("schema_version", schema, kSchemaVersion, kSchemaVersion);
    std::size_t next = 0;  // the engine's order: each step after the one before
    root.array("steps", [&](const json& step, const std::string& where) {
        if (!step.is_object() || !step.contains("name") || !step["name"].is_string()) {
            return issues.add(where, fmt::format("must be an object with a name (one of: {})", fmt::join(engine::kSelfTestSteps, ", ")));
        }
        const auto name = step["name"].get<std::string>();
        const auto at = std::find(engine::kSelfTestSteps.begin(), engine::kSelfTestSteps.end(), name);
        if (at == engine::kSelfTestSteps.end()) {
            return issues.add(where + "/name", fmt::format("no self-test step is named '{}' (the steps: {})", name, fmt::join(engine::kSelfTestSteps, ", ")));
        }
        const auto index = static_cast<std::size_t>(at - engine::kSelfTestSteps.begin());
        if (index < next) {
            return issues.add(where + "/name", fmt::format("'{}' out of order or twice: the steps run in the engine's order ({})", name,
                                                           fmt::join(engine::kSelfTestSteps, ", ")));
        }
        next = index + 1;
        ObjectReader reader(&step, where, issues);
        std::string ignored;
        reader.string("name", ignored);
        if (step.contains("blocks_streaming")) {
            bool blocks = true;
            reader.boolean("blocks_streaming", blocks);
            if (step["blocks_streaming"].is_boolean()) out.blocksStreaming[name] = blocks;
        }
        if (name == "link BER") {
            reader.number("timeout_s", out.berTimeoutS, 1, 3600, "s");
        } else if (name == "element check") {
            reader.number("timeout_s", out.elementTimeoutS, 1, 600, "s");
        } else if (step.contains("timeout_s")) {
            double none = 0;
            reader.number("timeout_s", none, 0, 1e9, "s");
            reader.issue("timeout_s", fmt::format("the step '{}' has no timeout of its own (only 'link BER' and 'element check' have)", name));
        }
        // Each limit under its own step (any issue fails the whole file: nothing half applied).
        const auto limits = step.find("limits");
        if (limits != step.end() && limits->is_object()) {
            const auto& mine = stepLimitKeys().contains(name) ? stepLimitKeys().at(name) : std::vector<std::string_view>{};
            for (const auto& [key, value] : limits->items()) {
                if (std::find(mine.begin(), mine.end(), key) != mine.end()) continue;
                for (const auto& [other, keys] : stepLimitKeys()) {
                    if (std::find(keys.begin(), keys.end(), key) != keys.end()) {
                        issues.add(fmt::format("{}/limits/{}", where, key), fmt::format("a limit of the step '{}', not of '{}'", other, name));
                    }
                }
            }
        }
        auto limitsReader = reader.object("limits");
        readSelfTestLimits(limitsReader, out);
    });
    return issues.take();
}

std::string ConfigIssue::describe() const {
    return fmt::format("{}: {}: {}", file, key.empty() ? "(file)" : key, reason);
}

ConfigParse parseConfig(std::string_view jsonText, const std::string& sourceName, const std::vector<ConfigOverride>& overrides) {
    ConfigParse result;
    IssueList issues(sourceName);
    auto parsed = parseDocument(jsonText, issues);
    if (!parsed) {
        result.issues = issues.take();
        return result;
    }
    json& document = *parsed;
    for (const auto& o : overrides) {
        try {
            document[json::json_pointer(o.key)] = json::parse(o.value);
            issues.attribute(o.key, o.source);
        } catch (const json::exception& e) {
            issues.attribute(o.key, o.source);
            issues.add(o.key, fmt::format("not a value: {} ({})", o.value, e.what()));
        }
    }
    {
        ObjectReader root(&document, "", issues);
        int schema = kSchemaVersion;
        root.integer("schema_version", schema, kSchemaVersion, kSchemaVersion);
        root.path("data_directory", result.config.dataDirectory, checkNotEmpty);
        readLog(root, issues, result.config.log);
        readLink(root, result.config.link);
        readProbe(root, result.config.probe);
        readAcquisition(root, result.config.acquisition);
        readBeamform(root, result.config.beamform);
        readDisplay(root, result.config.display);
        auto recording = root.object("recording");
        recording.path("directory", result.config.recording.directory, checkNotEmpty);
        readDicom(root, issues, result.config.dicom);
        readSelfTest(root, result.config.selftest);
        readArchive(root, result.config.archive);
        auto metrics = root.object("metrics");
        metrics.integer("prometheus_port", result.config.metrics.prometheusPort, -1, 65535);
    }  // readers report unknown keys as they close
    checkNoLimitsBesideAStepsFile(document, issues);
    checkConsistency(result.config, issues);
    placeUnderDataDirectory(result.config);
    result.issues = issues.take();
    return result;
}

namespace {

// The file's text: NotFound if it is not there; InvalidArgument if it is no regular file (a FIFO
// is refused before it is opened for reading, which would wait for a writer for ever) or past
// kMaxConfigBytes (refused before it is read: /dev/zero would grow memory for ever).
Result<std::string> readConfigText(const std::string& path) {
    return readRegularFile(path, kMaxConfigBytes, "configuration file");
}

}  // namespace

Result<AppConfig> loadConfigFile(const std::string& path) { return loadConfig(path, {}); }

Result<AppConfig> loadConfig(const std::string& path, const std::vector<ConfigOverride>& overrides) {
    std::string text = "{}";
    if (!path.empty()) {
        auto read = readConfigText(path);
        if (!read) return fail(std::move(read.error()));
        text = std::move(*read);
    }
    const std::string source = path.empty() ? "the defaults" : path;
    auto parsed = parseConfig(text, source, overrides);
    if (auto& steps = parsed.config.selftest.stepsFile; parsed.ok() && !steps.empty()) {
        // Relative to the configuration file's folder, so that it is found from anywhere.
        if (!steps.starts_with("/") && !path.empty()) steps = (std::filesystem::path(path).parent_path() / steps).lexically_normal().string();
        auto stepsText = readConfigText(steps);
        if (!stepsText) {
            return fail(stepsText.error().code(), fmt::format("{} (the self-test's steps file: selftest.steps_file in {})", stepsText.error().message(), source));
        }
        for (auto& issue : parseSelfTestSteps(*stepsText, steps, parsed.config.selftest)) parsed.issues.push_back(std::move(issue));
    }
    if (!parsed.ok()) {
        Error error(ErrorCode::InvalidArgument, fmt::format("configuration {}'{}' has {} problem{}", path.empty() ? "" : "file ", source,
                                                            parsed.issues.size(), parsed.issues.size() == 1 ? "" : "s"));
        for (const auto& issue : parsed.issues) error.addDetail(issue.describe());
        return fail(std::move(error));
    }
    return std::move(parsed.config);
}

}  // namespace sonolink::config
