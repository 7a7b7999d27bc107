#include "console_start.h"

#include <QDir>
#include <QElapsedTimer>
#include <QGuiApplication>
#include <QMessageBox>
#include <QStandardPaths>

#include <filesystem>
#include <iostream>

#include <fmt/format.h>

#include "sonolink/doctor/station_doctor.h"
#include "sonolink/gui/views/engine_text.h"
#include "sonolink/util/durable_file.h"

namespace sonolink::app {

std::string consoleConfigFile(const QString& named) {
    if (!named.isEmpty()) return named.toStdString();
    if (auto station = doctor::stationConfigPath(); !station.empty()) return station;
#ifdef SONOLINK_SHIPPED_CONFIG
    std::error_code ec;
    if (std::filesystem::is_regular_file(SONOLINK_SHIPPED_CONFIG, ec)) return SONOLINK_SHIPPED_CONFIG;
#endif
    return {};
}

Status makeConsoleFolders(const config::AppConfig& config) {
    const std::pair<const char*, std::string> folders[] = {{"recording.directory", config.recording.directory},
                                                           {"selftest.report_directory", config.selftest.reportDirectory},
                                                           {"dicom.queue_directory", config.dicom.queueDirectory}};
    for (const auto& [key, folder] : folders) {
        if (folder.empty()) continue;
        if (auto made = makePrivateDirectories(folder); !made) return fail(std::move(made.error()).addContext(fmt::format("making {} ({})", key, folder)));
    }
    return {};
}

Result<std::unique_ptr<QLockFile>> holdConsoleLock(const std::string& queueDirectory) {
    QString folder = QStandardPaths::writableLocation(QStandardPaths::RuntimeLocation);
    if (folder.isEmpty()) folder = QDir::tempPath();
    const auto queue = QDir(QString::fromStdString(queueDirectory)).absolutePath();
    const auto name = QString("sonolink-console-%1.lock").arg(qHash(queue), 0, 16);
    auto lock = std::make_unique<QLockFile>(QDir(folder).filePath(name));
    lock->setStaleLockTime(0);  // a console that died leaves its lock: the PID in it is checked instead
    if (lock->tryLock(0)) return lock;
    qint64 pid = 0;
    QString host, application;
    if (lock->error() == QLockFile::LockFailedError && lock->getLockInfo(&pid, &host, &application)) {
        return fail(ErrorCode::FailedPrecondition, fmt::format("SonoLink is already running on this station (process {}): use its window. Two "
                                                               "consoles would contend for the link, the recordings and the PACS queue.",
                                                               pid));
    }
    return fail(ErrorCode::FailedPrecondition, fmt::format("cannot take the console's lock {}: {}", lock->fileName().toStdString(),
                                                           lock->error() == QLockFile::PermissionError ? "permission denied" : "unknown error"));
}

// The error as the dialog says it: its message, what was being done and the details, each in
// the user's language where the engine's catalogue knows it.
QString said(const Error& error) {
    QString text = gui::engineText(QString::fromStdString(error.message()));
    for (const auto& c : error.context()) text += QObject::tr(" (while %1)").arg(gui::engineText(QString::fromStdString(c)));
    for (const auto& d : error.details()) text += QStringLiteral("\n") + gui::engineText(QString::fromStdString(d));
    return text;
}

int startupFailed(const Error& why, bool interactive, const QString& screenshot) {
    std::cerr << "sonolink: " << why.describe() << '\n';
    const auto platform = QGuiApplication::platformName();
    if (platform == "offscreen" || platform == "minimal" || (!interactive && screenshot.isEmpty())) return 1;
    QMessageBox box(QMessageBox::Critical, QObject::tr("SonoLink cannot start"), said(why), QMessageBox::Close);
    box.setObjectName("startupFailure");
    if (interactive) {
        box.exec();
        return 1;
    }
    box.show();
    QElapsedTimer shown;
    shown.start();
    while (shown.elapsed() < 500) QCoreApplication::processEvents(QEventLoop::AllEvents, 50);  // laid out and painted
    if (!box.grab().save(screenshot)) std::cerr << "sonolink: cannot save the screenshot " << screenshot.toStdString() << '\n';
    return 1;
}

}  // namespace sonolink::app
