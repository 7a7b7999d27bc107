// The console's own performance probe (`sonolink --probe-ui SECONDS`): once the first live
// image is shown, a second of settling, then SECONDS measured by UiProbe while the console
// streams; halfway an export and a worklist query go to the first DICOM node (the shipped
// configuration's is not running: a PACS outage). The report is printed as one JSON line on
// stdout, then the console quits. Thread contract: GUI thread only.
#pragma once

namespace sonolink::gui {
class EngineBridge;
}

namespace sonolink::app {

class MainWindow;
class UiProbe;

// Arms the run; the objects must outlive the event loop.
void scheduleUiProbe(double seconds, MainWindow& window, gui::EngineBridge& bridge, UiProbe& probe);

}  // namespace sonolink::app
