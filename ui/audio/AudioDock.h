// The window's audio: the "Audio" dock (AudioMeters with the target preset and Reset) and
// the monitor behind it. The monitor reads the file's audio (audio/AudioTimeline.h) in step
// with the picture: each frame the Player shows is measured over its interval
// [pts, pts + 1 / frame rate) when it is shown, whatever the speed (playing, scrubbing,
// stepping); a jump of the picture (a seek, a loop, stepping back) moves the audio there.
// Live sources and patterns have no audio here. No audio output device is needed: the meters
// run on the decoded samples. Everything runs on the GUI thread (decoding a frame's audio
// and metering it takes well under a millisecond), so it needs no lock.
#pragma once
#include <QObject>

#include <memory>
#include <string>

#include "AudioMeters.h"
#include "audio/AudioTimeline.h"

class QComboBox;
class QDockWidget;
class QMainWindow;

namespace cs {

class Player;

// The monitor alone, without widgets (tests drive it directly).
class AudioMonitor {
public:
    // The input's audio; false (and `why`) when it has none or it cannot be read.
    bool open(const std::string& input, std::string& why);
    void close() { timeline_.reset(); }
    bool isOpen() const { return timeline_ != nullptr; }
    // The frame shown: its levels (and the running loudness).
    AudioLevels frame(int64_t index, double pts, double duration);
    // Loudness measured from now on (the Reset button).
    void reset();
    std::vector<std::string> takeWarnings();

private:
    std::string input_;
    std::unique_ptr<audio::AudioTimeline> timeline_;
    double next_ = 0;          // where the audio read so far ends (seconds)
    bool any_ = false;
};

class AudioDock : public QObject {
    Q_OBJECT
public:
    // Adds the dock to `window` (right area, tabbed with `tabWith` when given) and follows `player`.
    AudioDock(QMainWindow* window, Player* player, QDockWidget* tabWith = nullptr);
    QDockWidget* dock() const { return dock_; }
    AudioMeters* meters() const { return meters_; }

signals:
    void warning(const QString& message);

private:
    void onOpened();
    void onFrame();
    Player* player_;
    QDockWidget* dock_;
    AudioMeters* meters_;
    QComboBox* target_;
    AudioMonitor monitor_;
    double lastPts_ = -1;
};

}  // namespace cs
