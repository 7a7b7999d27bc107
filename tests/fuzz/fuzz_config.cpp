// libFuzzer target: the configuration loader (parseConfig) and the self-test's steps file
// (parseSelfTestSteps) on any text: issues, never a throw, an abort or unbounded memory.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "sonolink/config/config_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto parsed = sonolink::config::parseConfig(text, "fuzz.json");
    for (const auto& issue : parsed.issues) (void)issue.describe();
    sonolink::config::SelfTestSettings steps;
    for (const auto& issue : sonolink::config::parseSelfTestSteps(text, "fuzz-steps.json", steps)) (void)issue.describe();
    return 0;
}
