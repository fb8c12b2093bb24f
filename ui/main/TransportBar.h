// The transport under the viewer: go to start, step back, play/pause, step forward, go
// to end, loop, speed, the seek bar and the timecode (HH:MM:SS:FF) of the current frame.
// It only displays and forwards: the Player owns the state.
#pragma once
#include <QWidget>

#include <cstdint>

class QComboBox;
class QLabel;
class QSlider;
class QToolButton;

namespace cs {

class TransportBar : public QWidget {
    Q_OBJECT
public:
    explicit TransportBar(QWidget* parent = nullptr);

    // No source: no timecode, and nothing to play or step (the state until a source opens).
    void clearSource();
    // A source opened, of frameCount frames at fps (0: unknown/live, the seek bar is disabled).
    void setTimeline(int64_t frameCount, double fps, bool seekable);
    void setPosition(double seconds, int64_t frameNumber);
    void setPlaying(bool playing);
    void setLoop(bool loop);
    void setSpeed(double speed);
    bool isScrubbing() const;

signals:
    void playToggled();
    void stepForwardClicked();
    void stepBackClicked();
    void startClicked();
    void endClicked();
    void loopToggled(bool loop);
    void speedChosen(double speed);
    void seekRequested(double seconds);

private:
    QToolButton* button(const QString& tip, int icon);
    QToolButton *start_, *back_, *play_, *forward_, *end_, *loop_;
    QComboBox* speed_;
    QSlider* seek_;
    QLabel *timecode_, *frame_;
    double fps_ = 25.0;
    int64_t frameCount_ = 0;
    QString durationText_;
};

}  // namespace cs
