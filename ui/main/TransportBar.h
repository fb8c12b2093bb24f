// The transport under the viewer: go to start, step back, play/pause, step forward, go
// to end, loop, speed, the seek bar, a large readout of the current frame's timecode (the
// source's, ';' before the frames for drop-frame; or the elapsed time: a click on it or
// View > Show Elapsed Time switches) with the duration, and the frame number.
// It only displays and forwards: the Player owns the state.
#pragma once
#include <QWidget>

#include <cstdint>

#include "timecode/Timecode.h"

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
    // The current frame: its time, number and source timecode (not known(): the elapsed time
    // is shown, marked so).
    void setPosition(double seconds, int64_t frameNumber, const FrameTimecode& source = {});
    // The readout shows the elapsed time instead of the source timecode.
    void setShowElapsed(bool elapsed);
    bool showsElapsed() const { return showElapsed_; }
    void setPlaying(bool playing);
    void setLoop(bool loop);
    void setSpeed(double speed);
    // Playing in reverse at `speed` ("◀ 2x" beside the speed box); 0: not in reverse.
    void setReverse(double speed);
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
    void scrubbingChanged(bool scrubbing);   // the seek bar's handle pressed / released
    void showElapsedToggled(bool elapsed);   // the readout was clicked

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QToolButton* button(const QString& tip, int icon);
    QToolButton *start_, *back_, *play_, *forward_, *end_, *loop_;
    QComboBox* speed_;
    QLabel* reverse_;   // the reverse speed, while playing in reverse
    QSlider* seek_;
    void showTimecode();
    QLabel *timecode_, *timecodeKind_, *duration_, *frame_;
    double seconds_ = 0.0;
    FrameTimecode source_;
    bool haveFrame_ = false, showElapsed_ = false;
    double fps_ = 25.0;
    int64_t frameCount_ = 0;
    QString durationText_;
};

}  // namespace cs
