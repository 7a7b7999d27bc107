#include "sonolink/console/translations.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QSettings>
#include <QTranslator>

namespace sonolink::app {

QString chooseLanguage(const QString& override) {
    auto language = override;
    if (language.isEmpty()) language = QSettings().value(kLanguageSetting).toString();
    if (language.isEmpty()) language = QLocale::system().name();  // "zh_CN", "en_US"
    if (language.startsWith("zh")) return "zh_CN";                // Simplified Chinese for every Chinese locale we have
    return "en";
}

bool installTranslations(QCoreApplication& application, const QString& language) {
    if (language == "en") return true;
    auto* ours = new QTranslator(&application);
    if (!ours->load(QString("sonolink_%1").arg(language), ":/i18n")) {
        delete ours;
        return false;
    }
    QCoreApplication::installTranslator(ours);
    auto* qt = new QTranslator(&application);
    if (qt->load(QString("qtbase_%1").arg(language), QLibraryInfo::path(QLibraryInfo::TranslationsPath))) QCoreApplication::installTranslator(qt);
    else delete qt;  // Qt's own buttons stay English
    return true;
}

}  // namespace sonolink::app
