#include "console_start.h"

#include <QDir>
#include <QGuiApplication>
#include <QMessageBox>
#include <QStandardPaths>

#include <filesystem>
#include <iostream>

#include <fmt/format.h>

#include "sonolink/doctor/station_doctor.h"
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
                                                               "consoles would contend for the link, the recordings and the PACS queue.", pid));
    }
    return fail(ErrorCode::FailedPrecondition, fmt::format("cannot take the console's lock {}: {}", lock->fileName().toStdString(),
                                                           lock->error() == QLockFile::PermissionError ? "permission denied" : "unknown error"));
}

int startupFailed(const QString& why, bool interactive) {
    std::cerr << "sonolink: " << why.toStdString() << '\n';
    const auto platform = QGuiApplication::platformName();
    if (interactive && platform != "offscreen" && platform != "minimal") {
        QMessageBox box(QMessageBox::Critical, QObject::tr("SonoLink cannot start"), why, QMessageBox::Close);
        box.setObjectName("startupFailure");
        box.exec();
    }
    return 1;
}

}  // namespace sonolink::app
