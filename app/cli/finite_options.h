// refuseNonFiniteNumbers: every floating-point option of a CLI11 command tree, at any depth,
// refuses NaN and the infinities ("nan", "inf", "1e999"). CLI11 parses those into a double
// and its Range and Number checks compare with < and >, which NaN passes; one rule applied to
// the whole tree, after every command is declared, closes the class rather than each option.
// Header-only, for sonolink-cli and sonolink-fe-sim. Thread contract: call before parse().
#pragma once

#include <cmath>
#include <cstdlib>
#include <string>

#include <CLI/CLI.hpp>

namespace sonolink::cli {

inline const CLI::Validator& finiteNumber() {
    static const CLI::Validator check(
        [](std::string& value) -> std::string {
            char* end = nullptr;
            const double v = std::strtod(value.c_str(), &end);
            if (end == value.c_str()) return {};  // not a number at all: CLI11's own parse names it
            if (!std::isfinite(v)) {              // "1e999" overflows to an infinity
                return "'" + value + "' is not a finite number (NaN and infinities are refused)";
            }
            return {};
        },
        "", "finite");
    return check;
}

// Adds finiteNumber() to every FLOAT option of app and of its subcommands, recursively.
inline void refuseNonFiniteNumbers(CLI::App& app) {
    for (CLI::Option* option : app.get_options()) {
        if (option->get_type_name().find("FLOAT") != std::string::npos) option->check(finiteNumber());
    }
    for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) refuseNonFiniteNumbers(*sub);
}

}  // namespace sonolink::cli
