// The configuration loader's private parts, shared by its files: the readers of the sections
// (config_sections.cpp, config_selftest.cpp) and the document parser (config_loader.cpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "object_reader.h"
#include "sonolink/config/config_loader.h"

namespace sonolink::config {

inline constexpr int kSchemaVersion = 1;

// "must not be empty" for an empty text, else nothing.
std::string checkNotEmpty(const std::string& text);

// The JSON text (// comments allowed), or none with the issue: where it breaks, by line and
// column; a number no double holds (1e999) too.
std::optional<nlohmann::json> parseDocument(std::string_view text, IssueList& issues);

// Each section of the configuration file into its settings (config_sections.cpp).
void readLog(ObjectReader& root, IssueList& issues, log::Settings& out);
void readLink(ObjectReader& root, LinkSettings& out);
void readProbe(ObjectReader& root, ProbeSettings& out);
void readAcquisition(ObjectReader& root, AcquisitionSettings& out);
void readBeamform(ObjectReader& root, BeamformSettings& out);
void readDisplay(ObjectReader& root, DisplaySettings& out);
void readArchive(ObjectReader& root, ArchiveSettings& out);
void readDicom(ObjectReader& root, IssueList& issues, DicomSettings& out);

// The selftest section (config_selftest.cpp), and its check against a steps file.
void readSelfTest(ObjectReader& root, SelfTestSettings& out);
void checkNoLimitsBesideAStepsFile(const nlohmann::json& document, IssueList& issues);

}  // namespace sonolink::config
