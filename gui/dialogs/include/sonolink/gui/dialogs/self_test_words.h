// The self-test's words as every view shows them, in the user's language: a step's name
// ("station: memlock limit"), a station check's name, a verdict and its colour, an element's fault.
// Thread contract: GUI thread (tr()).
#pragma once

#include <QColor>
#include <QString>

namespace sonolink::gui {

[[nodiscard]] QString stepTitle(const QString& step);
// One of the station's checks as the views show it, without "station: " ("writable folder (recordings)").
[[nodiscard]] QString stationCheckTitle(const QString& check);
[[nodiscard]] QString verdictText(const QString& verdict);
[[nodiscard]] QString faultText(const QString& fault);  // an element's fault ("dead")
[[nodiscard]] QColor verdictColor(const QString& verdict);

}  // namespace sonolink::gui
