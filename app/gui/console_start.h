// What the console settles before its window opens: the configuration file bare `sonolink` runs
// on, the folders that configuration names (made where missing, 0700: they hold patient data),
// one console per station user (a lock held for the process's life), and a start-up failure said
// in a dialog where there is a screen, as well as on stderr.
// Thread contract: GUI thread, before the event loop (the lock: for the process's life).
#pragma once

#include <QLockFile>
#include <QString>

#include <memory>
#include <string>

#include "sonolink/config/app_config.h"
#include "sonolink/util/result.h"

namespace sonolink::app {

// The file named with --config; else $SONOLINK_CONFIG or the package's /etc/sonolink/sonolink.json;
// else the configuration this build ships (resources/config/sonolink.json) where it is still
// there; else "" (the built-in defaults).
[[nodiscard]] std::string consoleConfigFile(const QString& named);

// The recordings', QA reports' and DICOM queue's folders; the first that cannot be made, and why.
[[nodiscard]] Status makeConsoleFolders(const config::AppConfig& config);

// Holds the console's lock for this configuration's DICOM queue (in the runtime folder): one
// console per station; FailedPrecondition naming the process that holds it when another runs.
[[nodiscard]] Result<std::unique_ptr<QLockFile>> holdConsoleLock(const std::string& queueDirectory);

// Says why the console cannot start: on stderr (as the engine wrote it), and, where the platform
// has a screen (not offscreen or minimal), in a dialog in the user's language: left to a user
// (interactive) to close; under automation saved as the PNG `screenshot` names, when it names
// one, and closed. Returns the exit status, 1.
int startupFailed(const Error& why, bool interactive, const QString& screenshot = {});

}  // namespace sonolink::app
