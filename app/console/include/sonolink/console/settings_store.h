// The station settings kept between starts: in QSettings ("station/settings", as JSON), and the
// configuration overrides they make at the next start (a JSON pointer and its JSON text each),
// which the configuration loader then checks like the file itself.
// Thread contract: GUI thread (QSettings of the application).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sonolink/gui/views/station_settings.h"

namespace sonolink::app {

[[nodiscard]] std::optional<gui::StationSettings> loadStationSettings();
void saveStationSettings(const gui::StationSettings& settings);
[[nodiscard]] std::vector<std::pair<std::string, std::string>> configOverridesOf(const gui::StationSettings& settings);

}  // namespace sonolink::app
