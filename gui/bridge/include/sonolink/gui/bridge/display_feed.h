// DisplayFeed: the picture side of the bridge. A timer on the GUI thread pulls the newest display
// frame from the engine at the screen's pace and hands it on as a BModeImage (in dual mode
// composed with its laser shot as the shot display asks: over it, instead of it or beside it),
// the chosen channels' RF (about 30 times a second) and the link's health (twice a second; a
// cluster's display host: its hosts' too); the
// cine is composed the same way. Reads the facade only (the shot display also tells the engine).
// Thread contract: GUI thread only (the signals are emitted there).
#pragma once

#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QTimer>

#include <memory>

#include "sonolink/engine/engine.h"
#include "sonolink/gui/views/bmode_image.h"
#include "sonolink/gui/views/hosts_panel.h"
#include "sonolink/gui/views/link_health.h"
#include "sonolink/gui/views/rf_traces.h"
#include "sonolink/gui/views/shot_display.h"

namespace sonolink::gui {

class DisplayFeed : public QObject {
    Q_OBJECT
public:
    // engine must outlive the feed. intervalMs: how often the newest frame is looked for.
    explicit DisplayFeed(engine::Engine& engine, int intervalMs = 8, QObject* parent = nullptr);

    // Channels whose RF rfReady() brings (none: no RF is pulled).
    void setRfChannels(const QList<int>& channels);
    // Dual mode: how laser shots are shown (the pictures that follow are composed so, the cine too).
    void setShotDisplay(const ShotDisplay& display);
    [[nodiscard]] const ShotDisplay& shotDisplay() const { return shotDisplay_; }
    // The cine, oldest first: the last frames shown (held still while frozen), each with the last
    // laser shot before it in dual mode.
    [[nodiscard]] QList<BModeImage> cine() const;
    [[nodiscard]] quint64 framesShown() const { return framesShown_; }

Q_SIGNALS:
    void imageReady(const sonolink::gui::BModeImage& image);
    void rfReady(const sonolink::gui::RfTraces& traces);
    void healthSampled(const sonolink::gui::LinkHealth& health);
    // A cluster's display host: its hosts, with the health sample.
    void clusterSampled(const sonolink::gui::ClusterHosts& hosts);

private:
    void pull();
    [[nodiscard]] BModeImage composed(const std::shared_ptr<const engine::DisplayFrame>& frame, const std::shared_ptr<const engine::DisplayFrame>& shot) const;
    void pullRf();
    void sampleHealth();

    engine::Engine& engine_;
    QTimer timer_;
    int ticks_ = 0;
    quint64 lastSession_ = 0;
    quint32 lastFrame_ = 0;
    bool seenOne_ = false;
    quint64 framesShown_ = 0;
    ShotDisplay shotDisplay_;
    bool seenShot_ = false;
    quint32 lastShot_ = 0;
    quint64 lastShotSession_ = 0;
    bool rfWanted_ = false;
    quint32 lastRfFrame_ = 0;
    engine::EngineStats lastStats_;  // the health sample before
    QElapsedTimer sinceStart_;
};

}  // namespace sonolink::gui
