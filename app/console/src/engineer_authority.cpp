#include "engineer_authority.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

#include <fmt/format.h>

#include "sonolink/auth/reauthenticate.h"
#include "sonolink/auth/station_role.h"
#include "sonolink/util/station_user.h"

namespace sonolink::app {

Status engineerRole(const std::string& engineerGroup) { return auth::requireRole(stationUser(), engineerGroup); }

void reauthenticateThen(QObject* owner, QString password, std::function<void(const Status&)> then) {
    auto* watcher = new QFutureWatcher<Status>(owner);
    QObject::connect(watcher, &QFutureWatcher<Status>::finished, owner, [watcher, then = std::move(then)] {
        then(watcher->result());
        watcher->deleteLater();
    });
    watcher->setFuture(QtConcurrent::run([user = stationUser(), secret = password.toStdString()]() mutable {
        auto checked = auth::reauthenticate(user, secret);
        std::fill(secret.begin(), secret.end(), '\0');
        return checked;
    }));
    password.fill(QChar('\0'));
}

std::string authenticationMethod() { return fmt::format("password, PAM service {}", auth::kPamService); }

}  // namespace sonolink::app
