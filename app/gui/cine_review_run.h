// `sonolink --cine FILE|s3://…`: the console reviews a DICOM image or cine instead of scanning
// (no engine, no link): CineReviewWindow over a CineReview read in place. With --probe-ui S it
// plays the cine for S seconds, prints what it showed as one JSON line and quits; with
// --screenshot PNG it saves the window after --quit-after and quits.
// Thread contract: GUI thread only; returns the process's exit status.
#pragma once

#include <QString>

#include "sonolink/console/cine_review_window.h"

namespace sonolink::config {
struct AppConfig;
}

namespace sonolink::app {

struct CineReviewRun {
    QString object;           // a path or an s3:// URL
    double probeSeconds = 0;  // > 0: play, report, quit
    QString screenshot;       // non-empty: save the window after quitAfterMs, quit
    int quitAfterMs = 6000;
};

// 1 when the object cannot be opened (the reason on stderr), else the event loop's status.
[[nodiscard]] int runCineReview(const config::AppConfig& config, const CineReviewRun& run);
// What opens an object for review through config's archive (CineReview, its frames as QImages):
// the console's File > Review a DICOM cine… and --cine alike.
[[nodiscard]] CineReviewOpener cineReviewOpener(const config::AppConfig& config);

}  // namespace sonolink::app
