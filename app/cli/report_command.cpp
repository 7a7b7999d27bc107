// sonolink-cli report sign REPORT.json --meaning TEXT: an engineer signs a QA report. The
// signer is the station user this process runs as, one of the engineers (selftest.engineer_group
// of --config, else of the station's configuration), re-authenticated through PAM (the password
// from the terminal, echo off, or one line of standard input with --password-stdin), never a
// name typed in; the report's signature block is completed, its hash renewed, and its PDF
// redrawn. Exit 0: signed; 1: not an engineer, PAM refused, or the report is edited, signed
// already or unreadable; 2: a bad command line (no terminal and no --password-stdin).

#include <filesystem>
#include <iostream>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "exit_codes.h"
#include "password_prompt.h"
#include "sonolink/report/json_file.h"
#include "sonolink/report/selftest_report.h"
#include "sonolink/auth/reauthenticate.h"
#include "sonolink/auth/station_role.h"
#include "sonolink/config/config_loader.h"
#include "sonolink/doctor/station_doctor.h"
#include "sonolink/util/station_user.h"

namespace sonolink::cli {
namespace {

struct SignOptions {
    std::string file;
    std::string meaning;
    std::string configFile;
    bool passwordStdin = false;
    bool json = false;
};

int sign(const SignOptions& o) {
    // What cannot be signed (no regular file, not JSON, nested past reason) is refused before
    // the password is asked for.
    if (auto readable = report::readJsonFile(o.file, "report"); !readable) {
        std::cerr << "sonolink-cli report sign: " << readable.error().describe() << ": the report is not signed\n";
        return kExitFailed;
    }
    const auto user = stationUser();
    const auto configFile = o.configFile.empty() ? doctor::stationConfigPath() : o.configFile;
    auto config = config::loadConfig(configFile, {});
    if (!config) {
        std::cerr << "sonolink-cli report sign: " << config.error().describe() << ": the report is not signed\n";
        return kExitFailed;
    }
    if (auto role = auth::requireRole(user, config->selftest.engineerGroup); !role) {  // before any password is asked
        std::cerr << "sonolink-cli report sign: " << role.error().message() << ": the report is not signed\n";
        return kExitFailed;
    }
    auto password = readPassword(user, "to sign", o.passwordStdin);
    if (!password) {
        std::cerr << "sonolink-cli report sign: no terminal to ask the password at: give it on standard input with --password-stdin\n";
        return kExitUsage;
    }
    const auto checked = auth::reauthenticate(user, *password);
    std::fill(password->begin(), password->end(), '\0');
    if (!checked) {
        std::cerr << "sonolink-cli report sign: " << checked.error().message() << ": the report is not signed\n";
        return kExitFailed;
    }
    auto signedOne = report::signReportFile(
        o.file, {user, auth::printedName(user), o.meaning, std::chrono::system_clock::now(), fmt::format("password, PAM service {}", auth::kPamService)});
    if (!signedOne) {
        std::cerr << "sonolink-cli report sign: " << signedOne.error().describe() << '\n';
        return kExitFailed;
    }
    if (o.json) {
        std::cout << nlohmann::json{{"report", o.file}, {"signature", (*signedOne)["signature"]}, {"sha256", (*signedOne)["sha256"]}}.dump(2) << '\n';
    } else {
        std::cout << fmt::format("{}: signed by {} ({}), meaning: {}\n", o.file, user, auth::printedName(user), o.meaning);
    }
    return kExitOk;
}

}  // namespace

void addReportCommand(CLI::App& app, int& exitCode) {
    auto* report = app.add_subcommand("report", "QA reports: sign one");
    report->require_subcommand(1);
    auto o = std::make_shared<SignOptions>();
    auto* cmd = report->add_subcommand("sign", "Sign a self-test QA report as the station user, re-authenticated through PAM");
    cmd->add_option("REPORT", o->file, "The report (selftest-<time>.json; its PDF beside it is redrawn)")->required()->check(CLI::ExistingFile);
    cmd->add_option("--meaning", o->meaning, "What the signature means, e.g. \"reviewed and approved\"")->required();
    cmd->add_option("--config", o->configFile,
                    "Configuration whose selftest.engineer_group names the engineers (default: $SONOLINK_CONFIG, else "
                    "/etc/sonolink/sonolink.json, else the built-in defaults)");
    cmd->add_flag("--password-stdin", o->passwordStdin, "Read the password from the first line of standard input");
    cmd->add_flag("--json", o->json, "Print JSON");
    cmd->callback([o, &exitCode] { exitCode = sign(*o); });
}

}  // namespace sonolink::cli
