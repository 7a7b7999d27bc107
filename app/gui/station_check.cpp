#include "station_check.h"

#include "sonolink/doctor/station_doctor.h"
#include "sonolink/gui/views/engine_text.h"

namespace sonolink::app {

gui::StationCheckReport stationCheckReport(const std::string& configFile, const std::vector<config::ConfigOverride>& overrides) {
    const auto report = doctor::runDoctor({configFile, overrides});
    gui::StationCheckReport shown{{}, QString::fromStdString(report.configFile)};
    for (const auto& c : report.checks) {
        shown.rows << gui::StationCheckRow{QString::fromStdString(c.check), QString::fromUtf8(selftest::toString(c.verdict).data()),
                                           gui::engineText(QString::fromStdString(c.figures)), gui::engineText(QString::fromStdString(c.limit)),
                                           gui::engineText(QString::fromStdString(c.fix))};
    }
    return shown;
}

}  // namespace sonolink::app
