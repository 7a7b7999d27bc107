// RecordingStatus: a raw-data recording as the console shows it: started, its progress (about
// twice a second), stopped, or failed with the reason (what was written stays readable). The
// bridge makes these from the engine's recording events; views never see the engine.
// Thread contract: a plain value: copy freely.
#pragma once

#include <QString>
#include <QtGlobal>

namespace sonolink::gui {

struct RecordingStatus {
    QString phase;  // "started", "progress", "stopped", "failed"
    QString path;
    quint64 frames = 0;  // written so far
    quint64 bytes = 0;
    quint64 framesRefused = 0;
    quint64 framesSkipped = 0;  // ids that never arrived: gaps in the file
    QString error;              // failed (and stopped after a failure): why
};

}  // namespace sonolink::gui
