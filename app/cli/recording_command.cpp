// sonolink-cli recording recover: keeps the whole frames of a recording that a power cut (or a
// copy stopped early) left shorter than its HDF5 metadata declares, in a new file beside it.
#include <iostream>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "exit_codes.h"
#include "sonolink/record/recording_recovery.h"

namespace sonolink::cli {
namespace {

struct RecoverOptions {
    std::string file;
    std::string output;  // default: FILE's name with .recovered.uff
    bool json = false;
};

std::string defaultOutput(const std::string& file) {
    const auto dot = file.rfind('.');
    const auto slash = file.rfind('/');
    const bool hasSuffix = dot != std::string::npos && (slash == std::string::npos || dot > slash);
    return (hasSuffix ? file.substr(0, dot) : file) + ".recovered.uff";
}

int runRecover(const RecoverOptions& o) {
    const auto output = o.output.empty() ? defaultOutput(o.file) : o.output;
    auto recovered = record::recoverRecording(o.file, output);
    if (!recovered) return reportError("recording recover", recovered.error());
    const auto& r = *recovered;
    if (o.json) {
        std::cout << nlohmann::json{{"file", o.file},
                                    {"output", output},
                                    {"frames_declared", r.framesDeclared},
                                    {"frames_kept", r.framesKept},
                                    {"frames_lost", r.framesDeclared - r.framesKept},
                                    {"bytes_on_disk", r.bytesOnDisk},
                                    {"bytes_declared", r.bytesDeclared},
                                    {"shots_declared", r.shotsDeclared},
                                    {"shots_kept", r.shotsKept}}
                         .dump(2)
                  << '\n';
    } else {
        std::cout << fmt::format(
            "{}: {} of its {} frames whole, kept in {}{}\n", o.file, r.framesKept, r.framesDeclared, output,
            r.bytesOnDisk < r.bytesDeclared ? fmt::format(" (the disk held {} of the {} bytes declared)", r.bytesOnDisk, r.bytesDeclared) : std::string());
        if (r.shotsDeclared > 0) std::cout << fmt::format("  laser shots: {} of {} whole, kept\n", r.shotsKept, r.shotsDeclared);
    }
    return kExitOk;
}

}  // namespace

void addRecordingCommand(CLI::App& app, int& exitCode) {
    auto* recording = app.add_subcommand("recording", "Work with recordings already on the disk");
    recording->require_subcommand(1);
    auto o = std::make_shared<RecoverOptions>();
    auto* recover = recording->add_subcommand("recover",
                                              "Keep the whole frames of a recording cut short (a power cut, a copy stopped early) "
                                              "in a new file; the original is left as it is");
    recover->add_option("FILE", o->file, "The damaged recording (UFF)")->required();
    recover->add_option("--output", o->output, "The new file (default: FILE with .recovered.uff); never overwritten");
    recover->add_flag("--json", o->json, "Print JSON");
    recover->callback([o, &exitCode] { exitCode = runRecover(*o); });
}

}  // namespace sonolink::cli
