// The configuration's loader: the JSON document parsed (with command-line overrides), read
// section by section (config_sections.cpp, config_selftest.cpp), checked as a whole, and loaded
// from its file together with the self-test's steps file.
#include "sonolink/config/config_loader.h"

#include <algorithm>
#include <filesystem>
#include <optional>

#include "config_sections.h"
#include "object_reader.h"
#include "sonolink/util/durable_file.h"
#include "sonolink/util/json_nesting.h"

namespace sonolink::config {
namespace {

using nlohmann::json;

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
        issues.add("/acquisition/sampling_rate_hz", fmt::format("must be at least twice probe.center_frequency_hz ({:g} Hz) to "
                                                                "sample the echoes (got {:g} Hz)",
                                                                config.probe.centerFrequencyHz, config.acquisition.samplingRateHz));
    }
}

std::pair<int, int> lineAndColumn(std::string_view text, std::size_t byte) {
    int line = 1, column = 1;
    for (std::size_t i = 0; i < byte && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return {line, column};
}

}  // namespace

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

std::string ConfigIssue::describe() const { return fmt::format("{}: {}: {}", file, key.empty() ? "(file)" : key, reason); }

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
Result<std::string> readConfigText(const std::string& path) { return readRegularFile(path, kMaxConfigBytes, "configuration file"); }

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
            return fail(stepsText.error().code(),
                        fmt::format("{} (the self-test's steps file: selftest.steps_file in {})", stepsText.error().message(), source));
        }
        for (auto& issue : parseSelfTestSteps(*stepsText, steps, parsed.config.selftest)) parsed.issues.push_back(std::move(issue));
    }
    if (!parsed.ok()) {
        Error error(ErrorCode::InvalidArgument, fmt::format("configuration {}'{}' has {} problem{}", path.empty() ? "" : "file ", source, parsed.issues.size(),
                                                            parsed.issues.size() == 1 ? "" : "s"));
        for (const auto& issue : parsed.issues) error.addDetail(issue.describe());
        return fail(std::move(error));
    }
    return std::move(parsed.config);
}

}  // namespace sonolink::config
