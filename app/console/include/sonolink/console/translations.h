// The console's language: English (the sources), or Simplified Chinese from the translations
// built into it (:/i18n/sonolink_zh_CN.qm) with Qt's own (the wizard's and the file dialog's
// buttons, qt6-translations-l10n). Chosen by the --language option, else the "ui/language"
// setting, else the system locale. Thread contract: GUI thread, before the first window.
#pragma once

#include <QString>

class QCoreApplication;

namespace sonolink::app {

inline constexpr const char* kLanguageSetting = "ui/language";

// "en", "zh_CN": the language to show, from the override (may be empty), the setting and the locale.
[[nodiscard]] QString chooseLanguage(const QString& override);
// Installs the translators for `language` on the application (none for English). False, with
// nothing installed, when the console has no translation for it.
bool installTranslations(QCoreApplication& application, const QString& language);

}  // namespace sonolink::app
