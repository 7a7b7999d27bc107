// The console's Help > Station check…: the station doctor (doctor/station_doctor.h) on the
// configuration as the console runs it (the file, and the settings it kept on top), as the
// dialog shows it. Thread contract: blocking (a C-ECHO per node); call it off the GUI thread.
#pragma once

#include <string>
#include <vector>

#include "sonolink/config/config_loader.h"
#include "sonolink/gui/dialogs/station_check_dialog.h"

namespace sonolink::app {

[[nodiscard]] gui::StationCheckReport stationCheckReport(const std::string& configFile, const std::vector<config::ConfigOverride>& overrides);

}  // namespace sonolink::app
