// QtTest for a cluster's display host as the console shows it: the hosts panel (one row per host:
// channels, address, state in words and colour, partials, frames without it, the problem and how
// often it was lost; the summary of frames joined and the added latency; a station that is no
// display host says so), and the B-mode view's flag on a frame that lacks a host's part.
#include <QtTest>

#include <QTableWidget>

#include "sonolink/gui/views/bmode_view.h"
#include "sonolink/gui/views/hosts_panel.h"

using sonolink::gui::BModeImage;
using sonolink::gui::BModeView;
using sonolink::gui::ClusterHosts;
using sonolink::gui::HostsPanel;

namespace {

ClusterHosts sample() {
    ClusterHosts c{.file = "lab-cluster.json",
                   .epoch = 2,
                   .complete = 1234,
                   .incomplete = 17,
                   .dropped = 0,
                   .refused = 1,
                   .addedLatencyP50Ms = 2.5,
                   .addedLatencyP99Ms = 5.25,
                   .hosts = {}};
    c.hosts.append({.name = "node0",
                    .address = "10.77.0.11:40002",
                    .state = "joined",
                    .firstChannel = 0,
                    .lastChannel = 32,
                    .partials = 1251,
                    .missing = 0,
                    .late = 0,
                    .losses = 0,
                    .partialLatencyMs = 0.42,
                    .megabytesPerSecond = 5.2,
                    .heardAgoMs = 12,
                    .problem = ""});
    c.hosts.append({.name = "node1",
                    .address = "10.77.0.12:40004",
                    .state = "lost",
                    .firstChannel = 32,
                    .lastChannel = 64,
                    .partials = 1234,
                    .missing = 17,
                    .late = 2,
                    .losses = 3,
                    .partialLatencyMs = 0.5,
                    .megabytesPerSecond = 0,
                    .heardAgoMs = 900,
                    .problem = "no word for 304 ms"});
    c.hosts.append({.name = "node2",
                    .address = "",
                    .state = "waiting",
                    .firstChannel = 64,
                    .lastChannel = 96,
                    .partials = 0,
                    .missing = 0,
                    .late = 0,
                    .losses = 0,
                    .partialLatencyMs = 0,
                    .megabytesPerSecond = 0,
                    .heardAgoMs = 0,
                    .problem = ""});
    return c;
}

int redPixels(const QImage& image) {
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            n += c.red() > 200 && c.green() < 140 && c.blue() < 140;
        }
    return n;
}

}  // namespace

class HostsPanelTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void eachHostIsARowWithItsStateAndProblem() {
        HostsPanel panel;
        panel.showHosts(sample());
        QCOMPARE(panel.rowCount(), 3);
        QCOMPARE(panel.cellText(0, 0), QString("node0"));
        QCOMPARE(panel.cellText(0, 1), QString("0–31"));
        QCOMPARE(panel.cellText(1, 1), QString("32–63"));
        QCOMPARE(panel.cellText(1, 3), QString("lost"));
        QCOMPARE(panel.cellText(1, 5), QString("17"));
        QCOMPARE(panel.cellText(1, 10), QString("no word for 304 ms (lost 3 times)"));
        QCOMPARE(panel.cellText(0, 8), QString("5.2"));
        QCOMPARE(panel.cellText(2, 3), QString("waiting"));
        QCOMPARE(panel.cellText(2, 8), QString());  // never heard: no figures
        const auto* table = panel.findChild<QTableWidget*>("hostsTable");
        QVERIFY(table);
        QCOMPARE(table->item(1, 3)->foreground().color(), QColor(0xd0, 0x30, 0x30));
        QCOMPARE(table->item(0, 3)->foreground().color(), QColor(0x2c, 0x8a, 0x2c));
        QVERIFY(panel.summaryText().contains("lab-cluster.json, epoch 2"));
        QVERIFY(panel.summaryText().contains("17 incomplete"));
        QVERIFY(panel.summaryText().contains("p99 5.25 ms"));
    }

    void aNewSampleReplacesTheRows() {
        HostsPanel panel;
        panel.showHosts(sample());
        auto fewer = sample();
        fewer.hosts.removeLast();
        fewer.hosts[1].state = "joined";
        panel.showHosts(fewer);
        QCOMPARE(panel.rowCount(), 2);
        QCOMPARE(panel.cellText(1, 3), QString("joined"));
    }

    void aStationThatIsNoDisplayHostSaysSo() {
        HostsPanel panel;
        QCOMPARE(panel.rowCount(), 0);
        QVERIFY(panel.summaryText().contains("not the display host of a cluster"));
    }

    void aFrameLackingAHostIsFlaggedOnTheImageAndAWholeOneIsNot() {
        BModeView view;
        view.resize(400, 400);
        view.show();
        BModeImage image;
        image.image = QImage(64, 96, QImage::Format_Grayscale8);
        image.image.fill(90);
        image.mmPerPixel = 0.25;
        image.xStartMm = -8;
        image.zStartMm = 5;
        view.showImage(image);
        const int whole = redPixels(view.grab().toImage());
        image.incompleteAperture = "incomplete aperture: host 2";
        view.showImage(image);
        const int flagged = redPixels(view.grab().toImage());
        QCOMPARE(whole, 0);
        QVERIFY2(flagged > 200, qPrintable(QString("red pixels of the flag: %1").arg(flagged)));
    }
};

QTEST_MAIN(HostsPanelTest)
#include "tst_hosts_panel.moc"
