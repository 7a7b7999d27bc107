// CineBar: reviewing the cine of a frozen image: a scrub slider over its frames, play and
// pause at the acquisition's pace, loop, and the frame counter ("12 / 64"). It says which
// frame to show by a signal; the caller holds the frames.
// Thread contract: GUI thread only.
#pragma once

#include <QTimer>
#include <QWidget>

class QCheckBox;
class QLabel;
class QPushButton;
class QSlider;

namespace sonolink::gui {

class CineBar : public QWidget {
    Q_OBJECT
public:
    explicit CineBar(QWidget* parent = nullptr);

    // A new cine of count frames, shown from its last; frameIntervalMs: the pace of play.
    void load(int count, double frameIntervalMs);
    void setFrame(int index);  // 0 .. count - 1
    void play();
    void pause();
    [[nodiscard]] int frame() const;
    [[nodiscard]] int count() const { return count_; }
    [[nodiscard]] bool playing() const { return timer_.isActive(); }

Q_SIGNALS:
    void frameChosen(int index);

private:
    void step();
    void showCounter();

    QSlider* slider_;
    QPushButton* play_;
    QCheckBox* loop_;
    QLabel* counter_;
    QTimer timer_;
    int count_ = 0;
};

}  // namespace sonolink::gui
