// consoleEngine(): the real engine as the console's QtTests drive it: the configuration from a
// file (empty: the built-in defaults), the built-in simulated front end in-process on a link of
// its own (the GUI tests run at once), no start-up self-test unless asked, the faults its front end injects
// (bit errors, vanishing after N blocks), and what the test changes in the configuration (adjust).
// Null, with the reason logged, when it cannot be made. Thread contract: call from the test.
#pragma once

#include <QtGlobal>
#include <unistd.h>

#include <functional>
#include <memory>
#include <string>

#include "sonolink/app/engine_setup.h"
#include "sonolink/config/config_loader.h"
#include "sonolink/transport/sim/fault_injector.h"

namespace sonolink::testing {

inline std::unique_ptr<engine::Engine> consoleEngine(const std::string& configPath, const std::string& testName, transport::sim::FaultPlan faults = {},
                                                     const std::function<void(config::AppConfig&)>& adjust = {},
                                                     app::SelfTestChoice selfTest = app::SelfTestChoice::Off) {
    auto config = config::loadConfig(configPath, {});
    if (!config) {
        qWarning("%s", config.error().describe().c_str());
        return nullptr;
    }
    config->link.shmName = testName + "_" + std::to_string(::getpid());
    if (adjust) adjust(*config);
    app::EngineChoice choice;
    choice.link = app::linkChoiceFrom(*config, /*inProcess=*/true);
    choice.link.frontEnd.faults = faults;
    choice.selfTest = selfTest;
    auto engine = app::makeEngine(*config, choice);
    if (!engine) {
        qWarning("%s", engine.error().describe().c_str());
        return nullptr;
    }
    return std::move(*engine);
}

}  // namespace sonolink::testing
