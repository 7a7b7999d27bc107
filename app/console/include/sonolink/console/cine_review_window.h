// CineReviewWindow: a DICOM image or cine reviewed in the console (sonolink --cine FILE|s3://…):
// its frames in the B-mode view in true proportions (the object's pixel spacing; unequal spacing
// resampled to square pixels), the cine bar to scrub, play and loop at its frame time. Frames
// are read on a thread of the window's own, the latest asked for first, so a slow or remote
// object never blocks the window (closing it waits at most a second for a read under way); a
// frame that cannot be read is named in the status bar and the picture before it stays.
// Thread contract: GUI thread only (`read` runs on the loader).
#pragma once

#include <QLabel>
#include <QMainWindow>

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>

namespace sonolink::gui {
class BModeView;
class CineBar;
}  // namespace sonolink::gui

namespace sonolink::app {

struct CineReviewSource {
    QString name;     // the object as opened: a path or an s3:// URL
    QString summary;  // what it holds, in a line (frames, size, colour, spacing)
    QString patient;  // whose it is, as the object says (the banner over every frame)
    int frames = 0;
    double frameIntervalMs = 0;           // its Frame Time; 0: not stated (played at 30 frames/s)
    double mmAcross = 0;                  // between columns; 0: not stated
    double mmDown = 0;                    // between rows
    std::optional<double> firstPixelXMm;  // the first pixel's centre: across from the probe's centre,
    std::optional<double> firstPixelZMm;  // and deep; unset: the picture centred, its top at 0
    // Frame `index` (0 ..) as Grayscale8 or RGB888, or a null image and why; on the loader thread.
    std::function<QImage(int index, QString* why)> read;
};

// Opens an object for review (a path or an s3:// URL); off the GUI thread (it reads the header,
// remotely too). A source with no frames and why when it cannot.
using CineReviewOpener = std::function<CineReviewSource(const QString& object, QString* why)>;

class CineReviewWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit CineReviewWindow(CineReviewSource source, QWidget* parent = nullptr);
    ~CineReviewWindow() override;

    [[nodiscard]] gui::BModeView* view() const { return view_; }
    [[nodiscard]] gui::CineBar* cineBar() const { return cineBar_; }
    [[nodiscard]] int shownFrame() const { return shown_; }  // -1 before the first
    [[nodiscard]] int framesShown() const { return framesShown_; }
    [[nodiscard]] double firstFrameMs() const { return firstFrameMs_; }  // from the window's making; -1 before
    [[nodiscard]] int framesFailed() const { return framesFailed_; }

Q_SIGNALS:
    void frameShown(int index);
    void frameFailed(int index, const QString& why);

private:
    // The loader's state, shared with its thread: a window closed while a read hangs (a stalled
    // archive) waits for it a moment, then leaves it to end on its own.
    struct Loader {
        std::mutex mutex;
        std::condition_variable wake;
        std::condition_variable idle;
        int wanted = -1;
        bool reading = false;
        bool stopping = false;
    };
    void want(int index);
    static void loaderLoop(std::shared_ptr<Loader> loader, std::function<QImage(int, QString*)> read, CineReviewWindow* window);
    void onLoaded(int index, const QImage& image, const QString& why, double readMs);

    CineReviewSource source_;
    gui::BModeView* view_;
    gui::CineBar* cineBar_;
    QLabel* frameLabel_;
    QLabel* problem_;
    qint64 madeNs_ = 0;
    int shown_ = -1;
    int framesShown_ = 0;
    int framesFailed_ = 0;
    double firstFrameMs_ = -1;
    std::shared_ptr<Loader> loader_ = std::make_shared<Loader>();
};

}  // namespace sonolink::app
