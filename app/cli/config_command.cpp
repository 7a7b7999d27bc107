#include <iostream>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "exit_codes.h"
#include "sonolink/config/config_loader.h"

namespace sonolink::cli {
namespace {

struct ConfigCheckOptions {
    std::string file;
    bool json = false;
};

int runConfigCheck(const ConfigCheckOptions& options) {
    auto loaded = config::loadConfigFile(options.file);
    if (options.json) {
        nlohmann::json out{{"file", options.file}, {"valid", loaded.has_value()}};
        out["problems"] = nlohmann::json::array();
        if (!loaded) {
            out["error"] = loaded.error().message();
            for (const auto& detail : loaded.error().details()) out["problems"].push_back(detail);
        }
        std::cout << out.dump(2) << '\n';
    } else if (loaded) {
        std::cout << fmt::format("{}: valid\n", options.file);
    } else {
        std::cout << loaded.error().message() << '\n';
        for (const auto& detail : loaded.error().details()) std::cout << "  " << detail << '\n';
    }
    return loaded ? kExitOk : kExitFailed;
}

}  // namespace

void addConfigCommand(CLI::App& app, int& exitCode) {
    auto* config = app.add_subcommand("config", "Work with SonoLink configuration files");
    config->require_subcommand(1);
    auto options = std::make_shared<ConfigCheckOptions>();
    auto* check = config->add_subcommand("check", "Validate a configuration file: every bad value is listed with its key and the reason");
    check->add_option("FILE", options->file, "Configuration file (JSON)")->required();
    check->add_flag("--json", options->json, "Print the result as JSON");
    check->callback([options, &exitCode] { exitCode = runConfigCheck(*options); });
}

}  // namespace sonolink::cli
