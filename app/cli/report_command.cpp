// sonolink-cli report sign REPORT.json --meaning TEXT: the operator signs a QA report. The
// signer is the station user this process runs as, re-authenticated through PAM (the password
// from the terminal, echo off, or one line of standard input with --password-stdin), never a
// name typed in; the report's signature block is completed, its hash renewed, and its PDF
// redrawn. Exit 0: signed; 1: PAM refused, or the report is edited, signed already or
// unreadable; 2: a bad command line (no terminal and no --password-stdin).
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "exit_codes.h"
#include "password_prompt.h"
#include "selftest_report.h"
#include "sonolink/auth/reauthenticate.h"
#include "sonolink/util/station_user.h"

namespace sonolink::cli {
namespace {

struct SignOptions {
    std::string file;
    std::string meaning;
    bool passwordStdin = false;
    bool json = false;
};

// The report's folder locked (flock) while a signature reads, checks and replaces a report in it
// (after PAM: no one waits on another's typing): two signers at once cannot both sign the same
// version, the later one dropping the earlier's signature; the second waits, then finds the
// report signed already.
class FolderLock {
public:
    explicit FolderLock(const std::filesystem::path& file) {
        const auto dir = file.has_parent_path() ? file.parent_path() : std::filesystem::path(".");
        fd_ = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd_ >= 0 && ::flock(fd_, LOCK_EX) != 0) {
            ::close(fd_);
            fd_ = -1;
        }
    }
    ~FolderLock() {
        if (fd_ >= 0) ::close(fd_);  // closing releases the lock
    }
    FolderLock(const FolderLock&) = delete;
    FolderLock& operator=(const FolderLock&) = delete;
    [[nodiscard]] bool held() const { return fd_ >= 0; }

private:
    int fd_ = -1;
};

int sign(const SignOptions& o) {
    const auto user = stationUser();
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
    const FolderLock lock(o.file);
    if (!lock.held()) {
        std::cerr << fmt::format("sonolink-cli report sign: cannot lock the folder of {}: {}\n", o.file, std::strerror(errno));
        return kExitFailed;
    }
    std::ifstream in(o.file);
    auto report = nlohmann::json::parse(in, nullptr, false);
    if (!in || report.is_discarded()) {
        std::cerr << fmt::format("sonolink-cli report sign: cannot read the report {}: not a JSON file\n", o.file);
        return kExitFailed;
    }
    auto signedOne = signedReport(report, {user, auth::printedName(user), o.meaning, std::chrono::system_clock::now(),
                                           fmt::format("password, PAM service {}", auth::kPamService)});
    if (!signedOne) {
        std::cerr << "sonolink-cli report sign: " << o.file << ": " << signedOne.error().message() << '\n';
        return kExitFailed;
    }
    if (auto written = rewriteSelfTestReport(o.file, *signedOne); !written) {
        std::cerr << "sonolink-cli report sign: " << written.error().describe() << '\n';
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
    cmd->add_flag("--password-stdin", o->passwordStdin, "Read the password from the first line of standard input");
    cmd->add_flag("--json", o->json, "Print JSON");
    cmd->callback([o, &exitCode] { exitCode = sign(*o); });
}

}  // namespace sonolink::cli
