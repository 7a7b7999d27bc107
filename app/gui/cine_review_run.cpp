#include "cine_review_run.h"

#include <QApplication>
#include <QCryptographicHash>
#include <QLabel>
#include <QElapsedTimer>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>

#include <cstring>
#include <iostream>
#include <memory>

#include "sonolink/app/cine_review.h"
#include "sonolink/console/cine_review_window.h"
#include "sonolink/gui/views/bmode_view.h"
#include "sonolink/gui/views/cine_bar.h"
#include "sonolink/gui/views/exam_entry.h"

namespace sonolink::app {
namespace {

// A frame as the window shows it: Grayscale8 or RGB888, a deep copy.
QImage imageOf(const ReviewFrame& frame) {
    QImage image(frame.columns, frame.rows, frame.channels == 1 ? QImage::Format_Grayscale8 : QImage::Format_RGB888);
    const auto rowBytes = static_cast<std::size_t>(frame.columns) * static_cast<std::size_t>(frame.channels);
    for (int r = 0; r < frame.rows; ++r) std::memcpy(image.scanLine(r), frame.pixels.data() + static_cast<std::size_t>(r) * rowBytes, rowBytes);
    return image;
}

// SHA-256 of the picture's pixels, row by row without the scan lines' padding.
QString pixelDigest(const QImage& image) {
    QCryptographicHash hash(QCryptographicHash::Sha256);
    const auto rowBytes = static_cast<qsizetype>(image.width()) * (image.format() == QImage::Format_RGB888 ? 3 : 1);
    for (int r = 0; r < image.height(); ++r) hash.addData(QByteArrayView(reinterpret_cast<const char*>(image.constScanLine(r)), rowBytes));
    return QString::fromLatin1(hash.result().toHex());
}

// "Doe Jane   ID P-1, born 1980-01-01   study 2026-12-06", from the object's PN and dates.
QString patientBanner(const dicom::FrameFormat& f) {
    if (f.patientName.empty() && f.patientId.empty()) return QObject::tr("No patient in the object");
    const auto name = gui::displayName(gui::entryFromPn(QString::fromStdString(f.patientName)));
    const auto date = [](const std::string& d) {
        return d.size() == 8 ? QString::fromStdString(d.substr(0, 4) + '-' + d.substr(4, 2) + '-' + d.substr(6, 2)) : QString::fromStdString(d);
    };
    QString banner = f.patientId.empty() ? name : QObject::tr("%1   ID %2").arg(name, QString::fromStdString(f.patientId));
    if (!f.patientBirthDate.empty()) banner += QObject::tr(", born %1").arg(date(f.patientBirthDate));
    if (!f.studyDate.empty()) banner += QObject::tr("   study %1").arg(date(f.studyDate));
    return banner;
}

}  // namespace

CineReviewOpener cineReviewOpener(const config::AppConfig& config) {
    return [archive = config.archive](const QString& object, QString* why) -> CineReviewSource {
        auto opened = CineReview::open(object.toStdString(), archive);
        if (!opened) {
            *why = QString::fromStdString(opened.error().describe());
            return {};
        }
        const auto f = opened->format();
        auto review = std::make_shared<CineReview>(std::move(*opened));
        CineReviewSource source;
        source.name = object;
        source.frames = static_cast<int>(f.frames);
        source.frameIntervalMs = f.frameTimeMs;
        source.mmAcross = f.pixelSpacingXMm;
        source.mmDown = f.pixelSpacingYMm;
        source.firstPixelXMm = f.firstPixelXMm;
        source.firstPixelZMm = f.firstPixelYMm;
        source.patient = patientBanner(f);
        source.summary = QString("%1 frames of %2 x %3, %4, pixel spacing %5 x %6 mm")
                             .arg(f.frames)
                             .arg(f.columns)
                             .arg(f.rows)
                             .arg(QString::fromStdString(f.photometric))
                             .arg(f.pixelSpacingXMm)
                             .arg(f.pixelSpacingYMm);
        source.read = [review](int index, QString* failed) -> QImage {
            auto frame = review->frame(static_cast<std::uint32_t>(index));
            if (!frame) {
                *failed = QString::fromStdString(frame.error().describe());
                return {};
            }
            return imageOf(*frame);
        };
        return source;
    };
}

int runCineReview(const config::AppConfig& config, const CineReviewRun& run) {
    QString why;
    auto source = cineReviewOpener(config)(run.object, &why);
    if (source.frames <= 0) {
        std::cerr << "sonolink: " << why.toStdString() << '\n';
        return 1;
    }
    std::cerr << "sonolink: reviewing " << run.object.toStdString() << ": " << source.summary.toStdString() << '\n';
    CineReviewWindow window(std::move(source));
    window.show();
    if (run.probeSeconds > 0) {
        window.cineBar()->play();  // at once: a first frame that cannot be shown does not hold the rest
        QTimer::singleShot(static_cast<int>(run.probeSeconds * 1000), &window, [&window, &run] {
            QJsonObject report;
            report["frames_shown"] = window.framesShown();
            report["frames_failed"] = window.framesFailed();
            report["first_frame_ms"] = window.firstFrameMs();
            report["shown_fps"] = window.framesShown() / run.probeSeconds;
            report["window_title"] = window.windowTitle();
            report["patient_banner"] = window.view()->patientBanner();
            const auto& shown = window.view()->image();
            report["mm_per_pixel"] = shown.mmPerPixel;
            report["x_start_mm"] = shown.xStartMm;
            report["z_start_mm"] = shown.zStartMm;
            report["image_columns"] = shown.image.width();
            report["image_rows"] = shown.image.height();
            report["shown_frame"] = window.shownFrame();
            report["shown_sha256"] = pixelDigest(shown.image);
            report["problem"] = window.findChild<QLabel*>("problemLabel")->text();
            std::cout << QJsonDocument(report).toJson(QJsonDocument::Compact).toStdString() << std::endl;
            QApplication::quit();
        });
    } else if (!run.screenshot.isEmpty()) {
        QTimer::singleShot(run.quitAfterMs, &window, [&window, &run] {
            if (!window.grab().save(run.screenshot)) std::cerr << "sonolink: cannot write " << run.screenshot.toStdString() << '\n';
            QApplication::quit();
        });
    }
    return QApplication::exec();
}

}  // namespace sonolink::app
