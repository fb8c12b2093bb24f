// Listening in the window: a file's audio through the desktop's default output (Qt
// Multimedia's QAudioSink, PulseAudio on Linux, PipeWire through its PulseAudio server), and
// the clock it gives the picture (docs/AUDIO.md, "Listening").
//
// The sound runs only while the picture plays forward at 1x: start(pts) at the frame where
// playback (re)starts, stop() for pause, scrubbing, stepping, seeking, reverse and the other
// speeds. heard() is then the media time at the ear (audio/Listen.h heardPosition, from the
// sink's processedUSecs), which the Player follows instead of its own clock. Mute keeps the
// sink running on silence, so the clock and the lock stay as they are.
//
// No output device (a server, Xvfb, CI) is not an error: available() is false, start() does
// nothing, heard() is empty and the picture keeps its own clock; the meters never depend on
// this. A sink that fails to open, errors, or stops moving is a message (signal `message`),
// after which heard() is empty until the next start().
//
// Threading: GUI thread only. The GUI thread feeds the sink (push mode: a 10 ms timer writes
// what the sink has room for into its QIODevice, from this object's own ListenFeed, a demuxer
// apart from the meters'); the sink holds kBufferSeconds, so a GUI stall shorter than that
// does not underrun. Qt's PulseAudio backend runs its own mainloop thread behind the sink and
// guards its stream with its own lock; nothing here is shared with another thread, so there is
// no lock of ours.
//
// Qt Multimedia is linked privately to cs_ui: this header names none of its types, so the
// targets that include it compile as before.
#pragma once
#include <QObject>
#include <QTimer>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "audio/Listen.h"

class QAudioSink;
class QIODevice;

namespace cs {

class AudioOutput : public QObject {
    Q_OBJECT
public:
    static constexpr double kBufferSeconds = 0.2;

    explicit AudioOutput(QObject* parent = nullptr);
    ~AudioOutput() override;

    // Whether the desktop has an output device (looked at when the output is made).
    bool available() const { return available_; }
    // The input's audio to listen to; false (and `why`) when it has none.
    bool open(const std::string& input, std::string& why);
    void close();
    bool isOpen() const { return feed_ != nullptr; }
    const audio::ChannelLayoutInfo* layout() const { return feed_ ? &feed_->info().layout : nullptr; }

    // Sound from `pts` (seconds on the picture's clock) on; stop() silences it.
    void start(double pts);
    void stop();
    bool running() const { return sink_ != nullptr; }
    // The media time heard now, while running and the sink has not failed.
    std::optional<double> heard() const;

    void setVolume(double volume);   // 0..1, a slider's position (logarithmic to the ear)
    void setMuted(bool muted);
    void setChoice(audio::ListenChoice c);
    audio::ListenChoice choice() const { return choice_; }
    // Underruns while the feed had more to give (the sink ran dry because it was fed late).
    int underruns() const { return underruns_; }
    // Times a still sink was written to regardless to start it again (AudioOutput.cpp, feed).
    int kicks() const { return kicks_; }

signals:
    void message(const QString& text);

private:
    void feed();
    void onState();
    void fail(const QString& why);
    float gain() const;

    bool available_ = false;
    std::unique_ptr<audio::ListenFeed> feed_;
    std::string input_;
    QAudioSink* sink_ = nullptr;
    QIODevice* io_ = nullptr;
    int frameBytes_ = 0;           // the sink's bytes per stereo frame
    bool floatSamples_ = true;     // float, else 16-bit
    QTimer timer_;
    std::vector<float> mix_;
    std::vector<char> bytes_;
    std::vector<char> pending_;   // produced but not yet taken by the sink
    double startPts_ = 0;
    bool failed_ = false;
    bool fedAll_ = false;         // the feed ended: an idle sink is the end, not an underrun
    double volume_ = 1.0;
    bool muted_ = false;
    audio::ListenChoice choice_;
    int underruns_ = 0;
    qint64 lastPlayed_ = -1;
    std::chrono::steady_clock::time_point lastMove_, lastKick_;
    int kicks_ = 0;
};

}  // namespace cs
