// sonolink-cli: SonoLink without a display. Every subcommand has --help and --json.
#include <exception>
#include <iostream>
#include <new>

#include "commands.h"
#include "exit_codes.h"
#include "finite_options.h"

int main(int argc, char** argv) {
    using namespace sonolink::cli;
    CLI::App app{
        "SonoLink headless workstation: configuration, diagnostics and (as they land) "
        "streaming, recording, beamforming and DICOM export"};
    app.name("sonolink-cli");
    bool version = false;
    bool json = false;
    app.add_flag("--version", version, "Print version, git hash, build type and built optional parts");
    app.add_flag("--json", json, "With --version: print JSON");
    int exitCode = kExitOk;
    addConfigCommand(app, exitCode);
    addProbeCommand(app, exitCode);
    addStreamCommand(app, exitCode);
    addBenchCommand(app, exitCode);
    addLinkCommand(app, exitCode);
    addBeamformCommand(app, exitCode);
    addDicomCommand(app, exitCode);
    addDemoCommand(app, exitCode);
    addSoakCommand(app, exitCode);
    addSelfTestCommand(app, exitCode);
    addReportCommand(app, exitCode);
    addDoctorCommand(app, exitCode);
    addArchiveCommand(app, exitCode);
    addRecordingCommand(app, exitCode);
    addClusterCommands(app, exitCode);
    addReprocessCommand(app, exitCode);
    app.require_subcommand(0, 1);
    refuseNonFiniteNumbers(app);
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        app.exit(e);
        return kExitUsage;
    } catch (const std::bad_alloc&) {  // any command: a clear line and exit 1, never an abort
        std::cerr << "sonolink-cli: out of memory: the command needs more memory than this process may have\n";
        return kExitFailed;
    } catch (const std::exception& e) {  // a filesystem or JSON error no command caught: named, exit 1
        std::cerr << "sonolink-cli: " << e.what() << '\n';
        return kExitFailed;
    }
    if (version) return printVersion(json);
    if (app.get_subcommands().empty()) {
        std::cerr << app.help() << "\nerror: name a command (or --version)\n";
        return kExitUsage;
    }
    return exitCode;
}
