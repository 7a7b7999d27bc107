// The sonolink-cli subcommands. Each add*Command registers its subcommand on the CLI11 app;
// when it runs it stores the process exit code (exit_codes.h) in `exitCode`.
// Thread contract: main thread only.
#pragma once

#include <CLI/CLI.hpp>

namespace sonolink::cli {

void addConfigCommand(CLI::App& app, int& exitCode);
void addProbeCommand(CLI::App& app, int& exitCode);
void addStreamCommand(CLI::App& app, int& exitCode);
void addBenchCommand(CLI::App& app, int& exitCode);
void addLinkCommand(CLI::App& app, int& exitCode);
void addBeamformCommand(CLI::App& app, int& exitCode);
void addDicomCommand(CLI::App& app, int& exitCode);
void addDemoCommand(CLI::App& app, int& exitCode);
void addSoakCommand(CLI::App& app, int& exitCode);
void addSelfTestCommand(CLI::App& app, int& exitCode);
void addReportCommand(CLI::App& app, int& exitCode);
void addDoctorCommand(CLI::App& app, int& exitCode);
void addArchiveCommand(CLI::App& app, int& exitCode);
void addRecordingCommand(CLI::App& app, int& exitCode);
// `node`, and `cluster run | reference`: several acquisition hosts as one.
void addClusterCommands(CLI::App& app, int& exitCode);
// reprocess, and cluster submit/status/finish/task (reprocess_command.cpp).
void addReprocessCommand(CLI::App& app, int& exitCode);
void addBatchCommands(CLI::App& cluster, int& exitCode);
// `bench link`, registered on the bench subcommand.
void addBenchLinkCommand(CLI::App& bench, int& exitCode);
// `bench engine`, registered on the bench subcommand.
void addBenchEngineCommand(CLI::App& bench, int& exitCode);
// `bench prbs` and `bench memory`, registered on the bench subcommand.
void addBenchPrbsCommand(CLI::App& bench, int& exitCode);
void addBenchMemoryCommand(CLI::App& bench, int& exitCode);
// `bench fabric`: the partial exchange over UCX beside ucx_perftest.
void addBenchFabricCommand(CLI::App& bench, int& exitCode);
// `dicom queue ...` and `dicom commit`, registered on the dicom subcommand.
void addDicomQueueCommands(CLI::App& dicom, int& exitCode);
// `dicom worklist`, registered on the dicom subcommand.
void addDicomWorklistCommand(CLI::App& dicom, int& exitCode);
// `dicom export`, registered on the dicom subcommand.
void addDicomExportCommand(CLI::App& dicom, int& exitCode);
// `dicom frames`, registered on the dicom subcommand.
void addDicomFramesCommand(CLI::App& dicom, int& exitCode);
// `archive queue ...`, registered on the archive subcommand.
void addArchiveQueueCommands(CLI::App& archive, int& exitCode);
// Prints version, git hash, build type and built optional parts.
int printVersion(bool json);

}  // namespace sonolink::cli
