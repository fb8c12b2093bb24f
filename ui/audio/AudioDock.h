// The window's audio: the "Audio" dock (AudioMeters with the target preset and Reset) and
// the monitor behind it. The monitor reads the file's audio (audio/AudioTimeline.h) in step
// with the picture: each frame the Player shows is measured over its interval
// [pts, pts + 1 / frame rate) when it is shown, whatever the speed (playing, scrubbing,
// stepping); a jump of the picture (a seek, a loop, stepping back) moves the audio there.
// Live sources and patterns have no audio here. No audio output device is needed: the meters
// run on the decoded samples.
//
// Listening (AudioOutput.h): the dock's second row has the channels heard (downmix, a pair,
// one solo), mute and volume, remembered in the settings (ui/Settings.h), and one line for the
// output's state. The sound runs while the Player plays forward at 1x (Player::atListeningSpeed)
// and the seek bar is not held: it starts on Player::clockStarted, stops on clockInterrupted,
// pause, reverse, another speed and scrubbing, and the Player's heard clock reads it.
//
// Everything runs on the GUI thread (decoding a frame's audio and metering it takes well
// under a millisecond; the sink is fed there too), so it needs no lock.
#pragma once
#include <QObject>

#include <memory>
#include <string>

#include "AudioMeters.h"
#include "AudioOutput.h"
#include "audio/AudioTimeline.h"

class QComboBox;
class QDockWidget;
class QLabel;
class QMainWindow;
class QSlider;
class QToolButton;

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
    AudioOutput* output() const { return output_; }
    // The seek bar's handle is held: no sound until it is let go.
    void setScrubbing(bool scrubbing);

    // Picture against sound while the picture follows it: at each frame presented, the media
    // time heard less the frame's pts. Within [0, frame duration) the frame on screen is the
    // one whose interval holds the sound at the ear.
    struct SyncStats {
        int64_t frames = 0;
        double minLead = 0, maxLead = 0;   // seconds
        int64_t outside = 0;               // frames with a lead outside [-2 ms, 1 frame): not the sound's frame
    };
    SyncStats syncStats() const { return sync_; }
    void resetSyncStats() { sync_ = {}; }

signals:
    void warning(const QString& message);

private:
    void onOpened();
    void onFrame();
    void updateListening(bool restart);
    void fillChannels();
    void saveListening();
    Player* player_;
    AudioOutput* output_;
    QComboBox* channels_;
    QToolButton* mute_;
    QSlider* volume_;
    QLabel* outputLine_;
    bool scrubbing_ = false;
    SyncStats sync_;
    QDockWidget* dock_;
    AudioMeters* meters_;
    QComboBox* target_;
    AudioMonitor monitor_;
    double lastPts_ = -1;
};

}  // namespace cs
