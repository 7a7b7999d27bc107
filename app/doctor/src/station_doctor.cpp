// The station doctor: the configuration loaded, then every check in the order a station is
// brought up (its memory and devices, the console's display and fonts, its data, its peers).
#include "sonolink/doctor/station_doctor.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>

#include "sonolink/app/dicom_setup.h"
#include "sonolink/app/engine_setup.h"
#include "sonolink/config/config_loader.h"
#include "sonolink/dicom/pacs_client.h"
#include "sonolink/engine/engine_backends.h"

namespace sonolink::doctor {
namespace {

constexpr const char* kPackagedConfig = "/etc/sonolink/sonolink.json";

std::vector<PacsAnswer> askPacs(const config::DicomSettings& dicom, int timeoutS) {
    auto association = app::associationFrom(dicom);
    association.connectTimeoutS = std::min(association.connectTimeoutS, timeoutS);
    association.acseTimeoutS = std::min(association.acseTimeoutS, timeoutS);
    association.dimseTimeoutS = std::min(association.dimseTimeoutS, timeoutS);
    std::vector<PacsAnswer> answers;
    for (const auto& n : dicom.nodes) {
        auto destination = app::destinationNamed(dicom, n.name);
        PacsAnswer a;
        a.node = fmt::format("{} ({} at {}:{}{})", n.name, n.aeTitle, n.host, n.port, n.tls ? ", TLS" : "");
        const auto started = std::chrono::steady_clock::now();
        const auto ok = destination ? dicom::echo(destination->node, association) : Status(fail(destination.error()));
        a.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
        a.answered = ok.has_value();
        if (!ok) {
            a.failureClass = std::string(dicom::toString(dicom::classifyEchoFailure(ok.error())));
            a.message = ok.error().message();
        }
        answers.push_back(std::move(a));
    }
    return answers;
}

}  // namespace

bool DoctorReport::anyFailed() const {
    return std::any_of(checks.begin(), checks.end(), [](const Diagnostic& d) { return d.verdict == DiagnosticVerdict::Fail; });
}

std::string stationConfigPath() {
    if (const char* chosen = std::getenv("SONOLINK_CONFIG"); chosen != nullptr && *chosen != '\0') return chosen;
    std::error_code ec;
    return std::filesystem::exists(kPackagedConfig, ec) ? kPackagedConfig : "";
}

DoctorReport runDoctor(const DoctorOptions& options) {
    DoctorReport report;
    report.configFile = options.configFile;
    auto loaded = config::loadConfig(options.configFile, options.overrides);
    std::vector<std::string> problems;
    if (!loaded) {
        problems = loaded.error().details();
        if (problems.empty()) problems.push_back(loaded.error().message());
    }
    report.checks.push_back(checkConfiguration(options.configFile, problems));
    // A configuration that does not load: the station is checked against the defaults.
    const auto configuration = loaded ? *loaded : config::AppConfig{};

    const auto link = app::linkChoiceFrom(configuration, true);
    auto station = app::stationCheckFrom(configuration, link);
    station.folders.emplace_back("QA reports", configuration.selftest.reportDirectory);
    const auto hardware = station.readHardware ? station.readHardware() : selftest::HardwareFacts{};
    station.readHardware = [&hardware] { return hardware; };
    report.checks.push_back(checkRdmaAccess(readRdmaAccess(station.rdmaLink, hardware)));
    for (auto& found : engine::stationDiagnostics(station)) report.checks.push_back(std::move(found.diagnostic));
    report.checks.push_back(checkQtPlatformPlugin(readQtPlugin()));
    report.checks.push_back(checkDisplay(readDisplay()));
    report.checks.push_back(checkChineseFonts(readFonts()));
    if (options.askPacs) report.checks.push_back(checkPacsNodes(askPacs(configuration.dicom, options.pacsTimeoutS)));
    report.checks.push_back(checkTimeSync(readClock()));
    return report;
}

}  // namespace sonolink::doctor
