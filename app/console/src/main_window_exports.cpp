// MainWindow's files and exports: the picture saved as a PNG, the cine or one picture exported as
// DICOM under the exam (the measurements beside it as CSV), and the recording started, stopped
// and followed in the status bar.
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLocale>
#include <QTextStream>

#include "sonolink/console/main_window.h"
#include "sonolink/gui/views/bmode_view.h"
#include "sonolink/gui/views/measurement.h"

namespace sonolink::app {

void MainWindow::setExportTarget(const QString& folder, const QString& node) {
    exportFolder_ = folder;
    exportNode_ = node;
}

QString MainWindow::exportFile(const QString& prefix) {
    if (bridge_.exam().empty()) {  // an image filed under no patient is lost in the PACS
        export_->setText(tr("Not exported: start an exam first (Exam…, Ctrl+N)."));
        export_->setStyleSheet("color: #d03030");
        return {};
    }
    const QString name = QStringLiteral("%1_%2.dcm").arg(prefix, QDateTime::currentDateTime().toString("yyyyMMdd_HHmmss_zzz"));
    export_->setText(tr("Exporting…"));
    export_->setStyleSheet({});
    return exportFolder_.isEmpty() ? name : QDir(exportFolder_).filePath(name);
}

void MainWindow::exportCine() {
    const QString file = exportFile(QStringLiteral("cine"));
    if (file.isEmpty()) return;
    bridge_.exportCine(file, exportNode_);
    QString why;
    if (!view_->measurements().isEmpty() && !saveMeasurements(file + QStringLiteral(".measurements.csv"), &why)) export_->setText(why);
}

void MainWindow::exportImage() {
    if (view_->image().image.isNull()) {
        export_->setText(tr("No image to export yet."));
        export_->setStyleSheet("color: #d03030");
        return;
    }
    const QString file = exportFile(QStringLiteral("image"));
    if (file.isEmpty()) return;
    const bool burn = burnIn_ && burnIn_->isChecked() && !view_->measurements().isEmpty();
    bridge_.exportSnapshot(file, exportNode_, view_->image(), burn ? view_->renderImage(true) : QImage(), view_->measurements());
    QString why;
    if (!view_->measurements().isEmpty() && !saveMeasurements(file + QStringLiteral(".measurements.csv"), &why)) export_->setText(why);
}

bool MainWindow::saveMeasurements(const QString& path, QString* why) const {
    QFile out(path);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Text)) {
        *why = tr("The measurements could not be written to %1: %2").arg(path, out.errorString());
        return false;
    }
    QTextStream csv(&out);
    csv << "label,kind,value,unit,points_mm\n";
    for (const auto& m : view_->measurements()) {
        QStringList points;
        for (const auto& p : m.pointsMm) points << QStringLiteral("%1 %2").arg(p.x(), 0, 'f', 3).arg(p.y(), 0, 'f', 3);
        const bool distance = m.kind == gui::MeasurementKind::Distance, ellipse = m.kind == gui::MeasurementKind::Ellipse;
        const QString value = distance  ? QString::number(gui::distanceMm(m), 'f', 3)
                              : ellipse ? QString::number(gui::areaMm2(m), 'f', 2)
                                        : QStringLiteral("\"%1\"").arg(QString(m.text).replace('"', "\"\""));
        csv << m.label << ','
            << (distance  ? "distance"
                : ellipse ? "ellipse area"
                          : "text")
            << ',' << value << ','
            << (distance  ? "mm"
                : ellipse ? "mm2"
                          : "")
            << ',' << points.join(';') << '\n';
        if (ellipse) csv << m.label << ",ellipse circumference," << QString::number(gui::circumferenceMm(m), 'f', 3) << ",mm," << points.join(';') << '\n';
    }
    return true;
}

void MainWindow::toggleRecording() {
    if (!record_->isChecked()) {
        bridge_.stopRecording();
        return;
    }
    const QString name =
        QStringLiteral("rec_%1.uff").arg(QDateTime::currentDateTime().toString("yyyyMMdd_HHmmss_zzz"));  // the recorder never overwrites: a name of its own
    recording_->setText(tr("Starting the recording…"));
    recording_->setStyleSheet({});
    bridge_.startRecording(exportFolder_.isEmpty() ? name : QDir(exportFolder_).filePath(name));
}

// The recording as it goes: frames and size while it runs, the total when stopped, the reason at
// once when it fails (the action unchecked: it is not recording any more).
void MainWindow::showRecording(const gui::RecordingStatus& r) {
    const QString size = QLocale().formattedDataSize(static_cast<qint64>(r.bytes));
    const bool failed = r.phase == "failed" || !r.error.isEmpty();
    if (r.phase == "started" || r.phase == "progress") {
        recording_->setText(tr("● REC %1 frames, %2").arg(r.frames).arg(size) + (r.framesSkipped ? tr(", %1 never arrived").arg(r.framesSkipped) : QString()));
        record_->setChecked(true);
    } else if (failed) {
        recording_->setText(tr("Recording failed: %1 (%2 frames kept in %3)").arg(r.error).arg(r.frames).arg(r.path));
        record_->setChecked(false);
    } else {
        recording_->setText(tr("Recorded %1 frames, %2, to %3").arg(r.frames).arg(size, r.path));
        record_->setChecked(false);
    }
    recording_->setToolTip(r.path);
    recording_->setStyleSheet(failed || r.phase != "stopped" ? "color: #d03030" : "");
}

bool MainWindow::saveImage(const QString& path, QString* why) {
    if (view_->image().image.isNull()) {
        *why = tr("No image to save yet.");
        return false;
    }
    if (!view_->renderImage(burnIn_ && burnIn_->isChecked()).save(path, "PNG")) {
        *why = tr("The image could not be written to %1.").arg(path);
        return false;
    }
    return true;
}

}  // namespace sonolink::app
