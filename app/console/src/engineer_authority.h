// What an engineer's action asks of the console's user: the engineer's role (a member of the
// station's engineers' group, checked at once, before any password is asked), then the password
// again through PAM, off the GUI thread (PAM's delay after a wrong password freezes nothing);
// `then` runs on the GUI thread with the verdict. The password is wiped.
// Thread contract: GUI thread only.
#pragma once

#include <QObject>
#include <QString>

#include <functional>
#include <string>

#include "sonolink/util/result.h"

namespace sonolink::app {

// Whether the station user holds the engineer's role (PermissionDenied with who and which group).
[[nodiscard]] Status engineerRole(const std::string& engineerGroup);

// The station user re-authenticated with password; then(verdict) on owner's thread.
void reauthenticateThen(QObject* owner, QString password, std::function<void(const Status&)> then);

// How the console authenticates, as the QA report and the audit name it.
[[nodiscard]] std::string authenticationMethod();

}  // namespace sonolink::app
