// sonolink-cli selftest: the start-up self-test through the engine, as the GUI's start-up runs
// it: the station's set-up is checked, the link comes up, March C- runs over the DMA ring, the
// link BER test runs in a session of its own (quick: shows selftest.ber_quick_limit; full:
// selftest.ber_limit), every PACS node is echoed, and each step's verdict, figures, limit and
// fix are printed (a warning does not fail the test); --report DIR also writes the QA report,
// JSON and PDF; --override REASON, after a failure that blocks streaming, gives the engineer
// override as the station user re-authenticated through PAM (recorded in the report and the
// audit trail; the exit code stays 1). Exit 0: every step passed; 1: a step failed, the configuration is invalid or the
// report could not be written; 3: the link or the front end could not be reached; 2: a bad
// command line.
#include <algorithm>
#include <chrono>
#include <iostream>
#include <memory>

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "sonolink/report/engine_event_json.h"
#include "exit_codes.h"
#include "password_prompt.h"
#include "sonolink/report/selftest_report.h"
#include "sonolink/app/engine_setup.h"
#include "sonolink/auth/reauthenticate.h"
#include "sonolink/auth/station_role.h"
#include "sonolink/config/config_loader.h"
#include "sonolink/engine/event_log.h"
#include "sonolink/util/log.h"
#include "sonolink/util/station_user.h"

namespace sonolink::cli {
using report::lastPassingReport;
using report::selfTestReport;
using report::toJson;
using report::writeSelfTestReport;
namespace {

struct SelfTestOptions {
    std::string configFile;
    std::optional<std::string> linkName;
    bool inProcess = false;
    bool quick = false;
    bool full = false;
    bool json = false;
    std::string reportDir;
    std::vector<std::string> steps;
    double acceptTimeoutS = 30;
    std::string overrideReason;
    bool passwordStdin = false;
};

// After a failed run: the engineer override, given as the station user, one of the engineers
// (selftest.engineer_group), once PAM has re-authenticated them, through the facade (which audits it). The record for the report, or
// null; `problem` says why there is none.
nlohmann::json giveOverride(const SelfTestOptions& o, const std::string& engineerGroup, engine::Engine& engine, engine::EventLog& events,
                            const engine::EngineStats& stats, std::string& problem, int& exitCode) {
    if (stats.selfTestBlock.empty()) {
        problem = "nothing blocks streaming: no override was given";
        return nullptr;
    }
    const auto user = stationUser();
    if (auto role = auth::requireRole(user, engineerGroup); !role) {  // before any password is asked
        problem = role.error().message() + ": no override was given";
        return nullptr;
    }
    auto password = readPassword(user, "to override the self-test", o.passwordStdin);
    if (!password) {
        problem = "no terminal to ask the password at for the override: give it on standard input with --password-stdin";
        exitCode = kExitUsage;
        return nullptr;
    }
    const auto checked = auth::reauthenticate(user, *password);
    std::fill(password->begin(), password->end(), '\0');
    if (!checked) {
        problem = checked.error().message() + ": no override was given";
        return nullptr;
    }
    engine.overrideSelfTest(o.overrideReason);
    const auto given = events.waitFor<engine::SelfTestOverridden>([](const engine::SelfTestOverridden&) { return true; }, std::chrono::seconds(5));
    if (!given) {
        problem = "the engine did not take the override";
        return nullptr;
    }
    return report::overrideRecord(*given, std::chrono::system_clock::now(), fmt::format("password, PAM service {}", auth::kPamService));
}

// The engine as the GUI's start-up builds it, display and PACS queue off, with the self-test
// asked for (quick or full, these steps only).
app::EngineChoice selfTestEngineChoice(const SelfTestOptions& o, const config::AppConfig& config) {
    app::EngineChoice choice;
    choice.link = app::linkChoiceFrom(config, o.inProcess);
    choice.display = false;
    choice.dicomQueue = false;
    choice.acceptTimeout = std::chrono::milliseconds(static_cast<long>(o.acceptTimeoutS * 1000));
    choice.selfTest = o.full ? app::SelfTestChoice::Full : app::SelfTestChoice::Quick;
    choice.selfTestSteps = o.steps;
    return choice;
}

// The run's exit code from its steps and how it ended (`end`: none if it did not settle in
// time); `problem` says what went wrong beside a failed step.
int selfTestVerdict(const std::optional<engine::StateChanged>& end, const std::vector<engine::SelfTestStep>& steps, engine::EventLog& events,
                    std::string& problem) {
    int exitCode = kExitOk;
    for (const auto& step : steps) {
        if (step.verdict == engine::SelfTestVerdict::Fail) exitCode = kExitFailed;
    }
    if (!end) {
        problem = "the self-test did not finish in time";
        exitCode = kExitFailed;
    } else if (end->to == engine::EngineState::Error) {
        // The error's event follows the state's at once.
        const auto error =
            events.waitFor<engine::EngineError>([](const engine::EngineError& e) { return e.origin == engine::ErrorOrigin::Link; }, std::chrono::seconds(2));
        problem = error ? error->describe() : end->reason;
        exitCode = error && error->code == ErrorCode::Unavailable ? kExitUnavailable : kExitFailed;
    } else if (steps.empty()) {
        problem = "no self-test step ran";
        exitCode = kExitFailed;
    }
    return exitCode;
}

// --report DIR: the QA report (JSON and PDF) written there and its path put in `out`; one that
// cannot be written fails the run.
void addSelfTestQaReport(const SelfTestOptions& o, const report::SelfTestRun& run, nlohmann::json& out, int& exitCode) {
    const auto report = selfTestReport(run, lastPassingReport(o.reportDir));
    auto written = writeSelfTestReport(o.reportDir, report);
    if (!written) {
        std::cerr << "sonolink-cli selftest: " << written.error().describe() << '\n';
        exitCode = kExitFailed;
    } else {
        out["report"] = written->string();
    }
}

// Each step's verdict, figures, limit and fix, then the problem, the override and the report.
void printSelfTestText(const std::vector<engine::SelfTestStep>& steps, const std::string& problem, const nlohmann::json& overrideRecord,
                       const nlohmann::json& out, int exitCode) {
    for (const auto& step : steps) {
        std::cout << fmt::format("{}: {}\n  {}\n  limit: {}\n", step.step, engine::toString(step.verdict), step.figures, step.limit);
        if (!step.fix.empty()) std::cout << "  what to do: " << step.fix << '\n';
    }
    if (!problem.empty()) std::cout << "self-test: " << problem << '\n';
    if (!overrideRecord.is_null()) {
        std::cout << fmt::format("overridden by {}: {} (it overrode: {})\n", overrideRecord["user"].get<std::string>(),
                                 overrideRecord["reason"].get<std::string>(), overrideRecord["overrode"].get<std::string>());
    }
    if (out.contains("report")) std::cout << "report: " << out["report"].get<std::string>() << '\n';
    std::cout << (exitCode == kExitOk ? "self-test passed\n" : "self-test FAILED\n");
}

int runSelfTest(const SelfTestOptions& o) {
    std::vector<config::ConfigOverride> overrides;
    if (o.linkName) overrides.push_back({"/link/shm_name", nlohmann::json(*o.linkName).dump(), "--link-name"});
    auto loaded = config::loadConfig(o.configFile, overrides);
    if (!loaded) {
        // A bad value on the command line is a usage error; one in the file, a problem found.
        std::cerr << "sonolink-cli selftest: " << loaded.error().describe() << '\n';
        const auto& details = loaded.error().details();
        const bool commandLine = std::any_of(details.begin(), details.end(), [](const auto& d) { return d.starts_with("command line: "); });
        return commandLine ? kExitUsage : kExitFailed;
    }
    if (auto logging = log::configure(loaded->log); !logging) std::cerr << "sonolink-cli selftest: " << logging.error().message() << '\n';
    auto made = app::makeEngine(*loaded, selfTestEngineChoice(o, *loaded));
    if (!made) {
        std::cerr << "sonolink-cli selftest: " << made.error().describe() << '\n';
        return kExitFailed;
    }
    auto& engine = **made;
    engine::EventLog events;
    auto subscription = engine.subscribe(std::ref(events));
    const auto started = std::chrono::system_clock::now();
    engine.connect();
    const auto settled = [](const engine::StateChanged& s) { return s.to == engine::EngineState::Ready || s.to == engine::EngineState::Error; };
    const auto timeout = std::chrono::milliseconds(static_cast<long>((loaded->selftest.berTimeoutS + o.acceptTimeoutS + 30) * 1000));
    const auto end = events.waitFor<engine::StateChanged>(settled, timeout);
    const auto steps = events.all<engine::SelfTestStep>();
    const auto stats = engine.stats();
    const auto finished = std::chrono::system_clock::now();
    std::string problem;
    int exitCode = selfTestVerdict(end, steps, events, problem);
    nlohmann::json overrideRecord;
    if (!o.overrideReason.empty() && exitCode == kExitFailed && end && end->to != engine::EngineState::Error) {
        std::string why;
        overrideRecord = giveOverride(o, loaded->selftest.engineerGroup, engine, events, engine.stats(), why, exitCode);
        if (overrideRecord.is_null()) problem += (problem.empty() ? "" : "; ") + why;
    }
    engine.disconnect();
    nlohmann::json out{{"steps", nlohmann::json::array()}};
    for (const auto& step : steps) out["steps"].push_back(toJson(step));
    out["pass"] = exitCode == kExitOk;
    out["problem"] = problem;
    if (!overrideRecord.is_null()) out["override"] = overrideRecord;
    if (!o.reportDir.empty()) {
        addSelfTestQaReport(
            o, {o.full ? "full" : "quick", started, finished, steps, stats, exitCode == kExitOk, problem, loaded->dicom.stationName, overrideRecord}, out,
            exitCode);
    }
    if (o.json) std::cout << out.dump(2) << '\n';
    else printSelfTestText(steps, problem, overrideRecord, out, exitCode);
    return exitCode;
}

}  // namespace

void addSelfTestCommand(CLI::App& app, int& exitCode) {
    auto o = std::make_shared<SelfTestOptions>();
    auto* cmd =
        app.add_subcommand("selftest", "The start-up self-test (station set-up, ring memory, link BER, PACS) through the engine, with verdicts and figures");
    cmd->add_option("--config", o->configFile, "Configuration file (JSON); defaults otherwise");
    cmd->add_option("--link-name", o->linkName, "Shared-memory link name (/dev/shm/<name>) for sonolink-fe-sim (default: link.shm_name)");
    cmd->add_flag("--in-process", o->inProcess, "Test the built-in simulated front end");
    auto* quick = cmd->add_flag("--quick", o->quick, "Show selftest.ber_quick_limit (the default)");
    cmd->add_flag("--full", o->full, "Show selftest.ber_limit (1e-12 at 95 %: 2.996e12 bits, about 30 s at 100 Gb/s)")->excludes(quick);
    cmd->add_option("--accept-timeout", o->acceptTimeoutS, "Seconds to wait for the front end")->check(CLI::Range(0.1, 86400.0))->capture_default_str();
    cmd->add_flag("--json", o->json, "Print JSON");
    cmd->add_option("--report", o->reportDir, "Also write the QA report (JSON, with its SHA-256, and PDF) into this folder");
    cmd->add_option("--override", o->overrideReason,
                    "Should the test fail a step that blocks streaming: override it for this reason, as the station user re-authenticated "
                    "through PAM (recorded in the report and the audit trail)");
    cmd->add_flag("--password-stdin", o->passwordStdin, "Read the override's password from the first line of standard input");
    cmd->add_option("--step", o->steps,
                    "Run only this step (repeatable): station (or one as \"station: <check>\"), ring memory, link BER, "
                    "ring slots (DMA path), element check, phantom check, PACS")
        ->check([](const std::string& name) { return engine::isSelfTestStepName(name) ? std::string() : "no self-test step is named '" + name + "'"; });
    cmd->callback([o, &exitCode] { exitCode = runSelfTest(*o); });
}

}  // namespace sonolink::cli
