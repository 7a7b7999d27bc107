// The station settings kept between starts: in QSettings ("station/settings", as JSON), and the
// configuration overrides they make at the next start (a JSON pointer and its JSON text each),
// which the configuration loader then checks like the file itself; and the imaging presets
// (named picture settings, "imaging/presets"), the built-in ones first.
// Thread contract: GUI thread (QSettings of the application).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <QList>
#include <QString>

#include "sonolink/gui/views/imaging_panel.h"
#include "sonolink/gui/views/station_settings.h"

namespace sonolink::app {

[[nodiscard]] std::optional<gui::StationSettings> loadStationSettings();
void saveStationSettings(const gui::StationSettings& settings);
[[nodiscard]] std::vector<std::pair<std::string, std::string>> configOverridesOf(const gui::StationSettings& settings);

struct ImagingPreset {
    QString name;
    gui::ImagingValues values;
};
// The built-in presets (General: the defaults given; Superficial: shallower, a little more gain;
// Deep: the far field lifted), then the ones kept, a kept one replacing a built-in of its name.
[[nodiscard]] QList<ImagingPreset> imagingPresets(const gui::ImagingValues& defaults);
void saveImagingPreset(const ImagingPreset& preset);

}  // namespace sonolink::app
