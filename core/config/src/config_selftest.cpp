// The self-test's settings: its section of the configuration file, and the steps file
// (selftest.steps_file) that holds each step's limits and timeout instead.
#include <algorithm>

#include <fmt/ranges.h>

#include "config_sections.h"
#include "sonolink/engine/engine_types.h"
#include "sonolink/engine/settings.h"

namespace sonolink::config {
namespace {

using nlohmann::json;

// The self-test's limits, each read by the same rules wherever it is given (the selftest section,
// or a step of the steps file).
void readSelfTestLimits(ObjectReader& section, SelfTestSettings& out) {
    section.choice("ber_pattern", out.berPattern,
                   {{"prbs7", BerPattern::Prbs7}, {"prbs15", BerPattern::Prbs15}, {"prbs23", BerPattern::Prbs23}, {"prbs31", BerPattern::Prbs31}});
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
        {"element check",
         {"element_frames", "element_dead_rms_fraction", "element_weak_rms_fraction", "element_noisy_snr_drop_db", "element_correlation_fraction"}},
        {"phantom check", {"phantom_min_ncc", "phantom_max_position_error_mm", "phantom_max_fwhm_error"}}};
    return keys;
}

}  // namespace

void readSelfTest(ObjectReader& root, SelfTestSettings& out) {
    auto section = root.object("selftest");
    section.boolean("at_connect", out.atConnect);
    section.choice("mode", out.mode, {{"quick", SelfTestMode::Quick}, {"full", SelfTestMode::Full}});
    readSelfTestLimits(section, out);
    section.number("ber_timeout_s", out.berTimeoutS, 1, 3600, "s");
    section.boolean("element_check", out.elementCheck);
    section.path("report_directory", out.reportDirectory, checkNotEmpty);
    section.string("engineer_group", out.engineerGroup, [](const std::string& group) -> std::string {
        const bool name = !group.empty() && group.size() <= 32 &&
                          group.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") == std::string::npos;
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
                                                                         "set it there, under the step '{}'",
                                                                         step));
            }
        }
    }
    for (const auto* key : {"ber_timeout_s"}) {
        if (section->contains(key))
            issues.add(fmt::format("/selftest/{}", key),
                       "the steps file (selftest.steps_file) holds the steps' timeouts: set it there, as the 'link BER' step's timeout_s");
    }
}

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

}  // namespace sonolink::config
