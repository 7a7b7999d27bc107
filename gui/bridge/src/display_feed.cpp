#include "sonolink/gui/bridge/display_feed.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>

#include "sonolink/engine/shot_picture.h"

namespace sonolink::gui {
namespace {

// A display frame as the views draw it: its pixels wrapped, not copied (the frame is immutable
// once published; the image keeps it alive).
BModeImage imageOf(const std::shared_ptr<const engine::DisplayFrame>& frame) {
    auto* keep = new std::shared_ptr<const engine::DisplayFrame>(frame);
    QImage image(
        frame->pixels.data(), frame->columns, frame->rows, frame->columns, QImage::Format_Grayscale8,
        [](void* held) { delete static_cast<std::shared_ptr<const engine::DisplayFrame>*>(held); }, keep);
    BModeImage out;
    out.image = std::move(image);
    out.mmPerPixel = frame->cmPerPixelX * 10;
    out.xStartMm = frame->xStartCm * 10;
    out.zStartMm = frame->zStartCm * 10;
    out.session = frame->session;
    out.frameId = frame->frameId;
    out.latencyMs = frame->latencyUs / 1000;
    out.readyNs = frame->readyNs;
    out.gainDb = frame->imaging.gainDb;
    out.dynamicRangeDb = frame->imaging.dynamicRangeDb;
    out.tgcDb = frame->imaging.tgcDb;
    out.persistence = frame->imaging.persistence;
    out.incompleteAperture = QString::fromStdString(frame->incompleteAperture);
    return out;
}

// A cluster's hosts as the hosts panel shows them; throughput over the `seconds` since `before`.
ClusterHosts clusterHostsOf(const engine::ClusterHealth& now, const engine::ClusterHealth& before, double seconds) {
    ClusterHosts out{.file = QString::fromStdString(now.file),
                     .epoch = now.epoch,
                     .complete = now.framesComplete,
                     .incomplete = now.framesIncomplete,
                     .dropped = now.framesDropped,
                     .refused = now.partsRefused,
                     .addedLatencyP50Ms = now.addedLatencyMsP50,
                     .addedLatencyP99Ms = now.addedLatencyMsP99,
                     .hosts = {}};
    for (std::size_t i = 0; i < now.hosts.size(); ++i) {
        const auto& h = now.hosts[i];
        const std::uint64_t earlier =
            i < before.hosts.size() && before.hosts[i].bytesReceived <= h.bytesReceived ? before.hosts[i].bytesReceived : h.bytesReceived;
        out.hosts.push_back({.name = QString::fromStdString(h.name),
                             .address = QString::fromStdString(h.address),
                             .state = QString::fromStdString(h.state),
                             .firstChannel = h.firstChannel,
                             .lastChannel = h.lastChannel,
                             .partials = h.partials,
                             .missing = h.missing,
                             .late = h.late,
                             .losses = h.losses,
                             .partialLatencyMs = h.partialLatencyMs,
                             .megabytesPerSecond = seconds > 0 ? static_cast<double>(h.bytesReceived - earlier) / seconds / 1e6 : 0,
                             .heardAgoMs = h.heardAgoMs,
                             .problem = QString::fromStdString(h.lastProblem)});
    }
    return out;
}

// R, G, B bytes (rows x columns x 3) as an image of its own.
QImage rgbImage(const std::vector<std::uint8_t>& rgb, int columns, int rows) {
    QImage image(columns, rows, QImage::Format_RGB888);
    const auto rowBytes = static_cast<std::size_t>(columns) * 3;
    for (int y = 0; y < rows; ++y) std::memcpy(image.scanLine(y), rgb.data() + rowBytes * static_cast<std::size_t>(y), rowBytes);
    return image;
}

// The shot views and colour maps as the engine and the views name them, side by side.
constexpr std::pair<ShotView, engine::ShotView> kViews[] = {{ShotView::Ultrasound, engine::ShotView::Ultrasound},
                                                            {ShotView::Photoacoustic, engine::ShotView::Photoacoustic},
                                                            {ShotView::SideBySide, engine::ShotView::SideBySide},
                                                            {ShotView::Overlay, engine::ShotView::Overlay}};
constexpr std::pair<ShotMap, engine::ShotColourMap> kMaps[] = {{ShotMap::Hot, engine::ShotColourMap::Hot}, {ShotMap::Iron, engine::ShotColourMap::Iron}};

// The shots' levels, which the two name alike, copied either way.
template <typename To, typename From> void copyLevels(To& to, const From& from) {
    to.gainDb = from.gainDb;
    to.dynamicRangeDb = from.dynamicRangeDb;
    to.threshold = from.threshold;
    to.opacity = from.opacity;
    to.normaliseEnergy = from.normaliseEnergy;
}

engine::PhotoacousticSettings engineShotSettings(const ShotDisplay& d) {
    engine::PhotoacousticSettings s;
    for (const auto& [mine, its] : kViews) s.view = d.view == mine ? its : s.view;
    for (const auto& [mine, its] : kMaps) s.map = d.map == mine ? its : s.map;
    copyLevels(s, d);
    return s;
}

ShotDisplay shotDisplayOf(const engine::PhotoacousticSettings& s) {
    ShotDisplay d;
    for (const auto& [mine, its] : kViews) d.view = s.view == its ? mine : d.view;
    for (const auto& [mine, its] : kMaps) d.map = s.map == its ? mine : d.map;
    copyLevels(d, s);
    return d;
}

}  // namespace

DisplayFeed::DisplayFeed(engine::Engine& engine, int intervalMs, QObject* parent)
    : QObject(parent), engine_(engine), shotDisplay_(shotDisplayOf(engine.photoacoustic())) {
    setObjectName("displayFeed");
    connect(&timer_, &QTimer::timeout, this, &DisplayFeed::pull);
    timer_.start(intervalMs);
    lastStats_ = engine_.stats();
    sinceStart_.start();
}

void DisplayFeed::setShotDisplay(const ShotDisplay& display) {
    shotDisplay_ = display;
    engine_.setPhotoacoustic(engineShotSettings(display));
    lastShot_ = 0;  // shown again at once in the new way
    seenShot_ = false;
}

// The picture as the view shows it: a B-mode frame, and in dual mode the shot with it (laid over
// it, alone, or beside it) as the shot view asks; a shot of another raster (the depth changed
// between them) is left out until one of the new raster comes.
BModeImage DisplayFeed::composed(const std::shared_ptr<const engine::DisplayFrame>& frame, const std::shared_ptr<const engine::DisplayFrame>& shot) const {
    auto out = imageOf(frame);
    if (!shot || shot->session != frame->session || shotDisplay_.view == ShotView::Ultrasound) return out;
    const auto settings = engineShotSettings(shotDisplay_);
    if (shot->rows != frame->rows || shot->columns != frame->columns) return out;
    if (shotDisplay_.view == ShotView::Overlay) {
        auto rgb = engine::shotOverlay(*frame, *shot, settings);
        if (!rgb) return out;
        out.image = rgbImage(*rgb, frame->columns, frame->rows);
    } else if (shotDisplay_.view == ShotView::Photoacoustic) {
        out.image = rgbImage(engine::shotColours(*shot, settings), frame->columns, frame->rows);
    } else {
        out.shotColour = rgbImage(engine::shotColours(*shot, settings), frame->columns, frame->rows);
    }
    out.hasShot = true;
    out.shotFrameId = shot->frameId;
    out.shotEnergyMj = shot->laserEnergyMicroJ / 1000.0;
    out.shotPulseNs = shot->timestampNs;
    return out;
}

QList<BModeImage> DisplayFeed::cine() const {
    QList<BModeImage> out;
    const auto shots = engine_.shotCine();  // each B-mode frame with the last shot before it
    auto shot = shots.begin();
    std::shared_ptr<const engine::DisplayFrame> before;
    for (const auto& frame : engine_.cine()) {
        if (!frame || frame->rows <= 0 || frame->columns <= 0) continue;
        for (; shot != shots.end() && (*shot)->session <= frame->session && ((*shot)->session < frame->session || (*shot)->frameId < frame->frameId); ++shot) {
            before = *shot;
        }
        out << composed(frame, before);
    }
    return out;
}

void DisplayFeed::setRfChannels(const QList<int>& channels) {
    rfWanted_ = !channels.isEmpty();
    engine_.setRfChannels({channels.begin(), channels.end()});
}

// The chosen channels' RF of the newest frame, once per frame, about 30 times a second at most.
void DisplayFeed::pullRf() {
    if (!rfWanted_ || ticks_ % 4 != 0) return;
    const auto rf = engine_.latestRf();
    if (!rf || rf->channels.empty() || rf->samplingRateHz <= 0 || rf->frameId == lastRfFrame_) return;
    lastRfFrame_ = rf->frameId;
    RfTraces out;
    out.session = rf->session;
    out.frameId = rf->frameId;
    out.channels = QList<int>(rf->channels.begin(), rf->channels.end());
    out.samplesPerChannel = rf->samplesPerChannel;
    out.t0Us = rf->initialTimeUs;
    out.dtUs = 1e6 / rf->samplingRateHz;
    out.samples = rf->samples;
    Q_EMIT rfReady(out);
}

// Twice a second: what changed since the sample before.
void DisplayFeed::sampleHealth() {
    if (ticks_ % 62 != 0) return;
    const auto now = engine_.stats();
    const auto rate = engine::rates(lastStats_, now);
    LinkHealth h;
    h.seconds = static_cast<double>(sinceStart_.elapsed()) / 1000.0;
    h.throughputGbps = rate.throughputGbps;
    h.crcErrors = now.crcErrors - lastStats_.crcErrors;
    h.headerErrors = now.headerErrors - lastStats_.headerErrors;
    h.droppedNoBuffer = now.framesDroppedNoBuffer - lastStats_.framesDroppedNoBuffer;
    h.droppedIncomplete = now.framesIncomplete - lastStats_.framesIncomplete;
    h.droppedMissing = now.framesMissing - lastStats_.framesMissing;
    // The front end's own count restarts with each session.
    h.droppedFrontEnd = now.frontEnd.framesDropped >= lastStats_.frontEnd.framesDropped ? now.frontEnd.framesDropped - lastStats_.frontEnd.framesDropped
                                                                                        : now.frontEnd.framesDropped;
    h.notImaged = now.imagingFailures >= lastStats_.imagingFailures ? now.imagingFailures - lastStats_.imagingFailures : now.imagingFailures;
    h.latencyP50Ms = now.latencyP50Us / 1000;
    h.latencyP99Ms = now.latencyP99Us / 1000;
    h.temperatureC = now.frontEnd.state.empty() ? std::nan("") : now.frontEnd.temperatureC;
    h.clockOffsetUs = now.frontEnd.clockExchanges == 0 ? std::nan("") : now.frontEnd.clockOffsetUs;
    h.clockPathDelayUs = now.frontEnd.clockPathDelayUs;
    h.laserFires = engine_.firesLaser() || now.laser.fired > 0;
    h.shotsFired = now.laser.fired - std::min(now.laser.fired, lastStats_.laser.fired);
    h.shotsMissed = now.laser.missed + now.laser.late + now.laser.dark -
                    std::min(now.laser.missed + now.laser.late + now.laser.dark, lastStats_.laser.missed + lastStats_.laser.late + lastStats_.laser.dark);
    h.shotEnergyMj = h.shotsFired > 0 ? now.laser.lastEnergyMj : std::nan("");
    h.shotsFiredTotal = now.laser.fired;
    h.shotsMissedTotal = now.laser.missed + now.laser.late + now.laser.dark;
    h.shotToShownP99Ms = now.laser.shotToShownP99Ms;
    if (!now.cluster.file.empty()) Q_EMIT clusterSampled(clusterHostsOf(now.cluster, lastStats_.cluster, rate.seconds));
    lastStats_ = now;
    Q_EMIT healthSampled(h);
}

// At every tick: the newest frame, once: its pixels wrapped (the frame is immutable once published; the image
// keeps it alive), then handed to the views.
void DisplayFeed::pull() {
    ++ticks_;
    pullRf();
    sampleHealth();
    auto frame = engine_.latestFrame();
    if (!frame || frame->rows <= 0 || frame->columns <= 0) return;
    const bool newFrame = !seenOne_ || frame->session != lastSession_ || frame->frameId != lastFrame_;
    // Dual mode: a new shot is shown at once too (over, instead of or beside the B-mode).
    auto shot = shotDisplay_.view == ShotView::Ultrasound ? nullptr : engine_.latestShot();
    const bool newShot = shot && (!seenShot_ || shot->frameId != lastShot_ || shot->session != lastShotSession_);
    if (!newFrame && !newShot) return;
    if (newShot) {
        seenShot_ = true;
        lastShot_ = shot->frameId;
        lastShotSession_ = shot->session;
    }
    seenOne_ = true;
    lastSession_ = frame->session;
    lastFrame_ = frame->frameId;
    auto out = composed(frame, shot);
    if (newFrame) ++framesShown_;
    Q_EMIT imageReady(out);
}

}  // namespace sonolink::gui
