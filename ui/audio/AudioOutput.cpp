// Listening through QAudioSink (AudioOutput.h).
#include "AudioOutput.h"

#include <QAudio>
#include <QAudioDevice>
#include <QAudioFormat>
#include <QAudioSink>
#include <QMediaDevices>

#include <algorithm>
#include <cmath>

namespace cs {
namespace {

constexpr int kFeedIntervalMs = 10;
constexpr auto kKick = std::chrono::milliseconds(250);   // the sink still this long while fed: written to regardless
constexpr auto kStall = std::chrono::seconds(2);         // still this long: it failed

}  // namespace

AudioOutput::AudioOutput(QObject* parent) : QObject(parent) {
    available_ = !QMediaDevices::defaultAudioOutput().isNull();
    timer_.setInterval(kFeedIntervalMs);
    connect(&timer_, &QTimer::timeout, this, &AudioOutput::feed);
}

AudioOutput::~AudioOutput() {
    timer_.stop();
    if (!sink_) return;
    sink_->disconnect(this);
    sink_->stop();
    delete sink_;   // now, not later: nothing may outlive the window (and leak at exit)
}

bool AudioOutput::open(const std::string& input, std::string& why) {
    close();
    auto f = audio::ListenFeed::open(input);
    if (!f) {
        why = f.message();
        return false;
    }
    feed_ = std::move(*f);
    feed_->setChoice(choice_);
    feed_->setGain(gain());
    input_ = input;
    return true;
}

void AudioOutput::close() {
    stop();
    feed_.reset();
}

float AudioOutput::gain() const {
    if (muted_) return 0.0f;
    // The slider's position is heard as loudness: Qt's logarithmic scale to a linear gain.
    return float(QAudio::convertVolume(volume_, QAudio::LogarithmicVolumeScale, QAudio::LinearVolumeScale));
}

void AudioOutput::setVolume(double volume) {
    volume_ = std::clamp(volume, 0.0, 1.0);
    if (feed_) feed_->setGain(gain());
}

void AudioOutput::setMuted(bool muted) {
    muted_ = muted;
    if (feed_) feed_->setGain(gain());
}

void AudioOutput::setChoice(audio::ListenChoice c) {
    choice_ = c;
    if (feed_) feed_->setChoice(c);
}

void AudioOutput::start(double pts) {
    stop();
    if (!available_ || !feed_) return;
    if (Status s = feed_->start(pts); !s) {
        fail(QString::fromStdString(s.message()));
        return;
    }
    const QAudioDevice device = QMediaDevices::defaultAudioOutput();
    if (device.isNull()) {
        available_ = false;
        emit message(tr("No audio output device: the meters run and the picture keeps its own clock"));
        return;
    }
    QAudioFormat f;
    f.setSampleRate(feed_->sampleRate());
    f.setChannelCount(2);
    f.setSampleFormat(QAudioFormat::Float);
    if (!device.isFormatSupported(f)) f.setSampleFormat(QAudioFormat::Int16);
    if (!device.isFormatSupported(f)) {
        fail(tr("%1 takes neither float nor 16-bit stereo at %2 Hz").arg(device.description()).arg(feed_->sampleRate()));
        return;
    }
    frameBytes_ = f.bytesPerFrame();
    floatSamples_ = f.sampleFormat() == QAudioFormat::Float;
    // No parent: Qt 6.4's QAudioSink gives its own parent to the platform sink it makes and
    // deletes that too, so a parent's destruction would delete it twice. stop() deletes it.
    sink_ = new QAudioSink(device, f);
    sink_->setBufferSize(f.bytesForDuration(qint64(kBufferSeconds * 1e6)));
    connect(sink_, &QAudioSink::stateChanged, this, &AudioOutput::onState);
    io_ = sink_->start();
    if (!io_ || sink_->error() != QAudio::NoError) {
        fail(tr("%1 could not be opened").arg(device.description()));
        return;
    }
    startPts_ = feed_->startPts();
    failed_ = false;
    fedAll_ = false;
    lastPlayed_ = -1;
    lastMove_ = std::chrono::steady_clock::now();
    lastKick_ = {};
    feed();
    timer_.start();
}

void AudioOutput::stop() {
    timer_.stop();
    pending_.clear();
    if (!sink_) return;
    sink_->disconnect(this);
    sink_->stop();
    sink_->deleteLater();   // stop() may run inside the sink's own stateChanged
    sink_ = nullptr;
    io_ = nullptr;
}

std::optional<double> AudioOutput::heard() const {
    if (!sink_ || failed_) return std::nullopt;
    // The sound has ended (a track shorter than the picture): the picture goes on by itself.
    if (fedAll_ && pending_.empty() && sink_->state() == QAudio::IdleState) return std::nullopt;
    // Qt's PulseAudio sink reports what the server has played less its latency, so no latency
    // of ours is added (audio/Listen.h heardPosition).
    return audio::heardPosition(startPts_, double(sink_->processedUSecs()) * 1e-6, 0.0);
}

void AudioOutput::feed() {
    if (!sink_ || !io_) return;
    const auto now = std::chrono::steady_clock::now();
    const qint64 played = sink_->processedUSecs();
    const bool moved = played != lastPlayed_;
    if (moved) {
        lastPlayed_ = played;
        lastMove_ = now;
    }
    qsizetype room = sink_->bytesFree();
    // PulseAudio after a starved moment (the GUI thread held up as playback starts) can wait
    // for its buffer to fill while the client's stale view says it has no room: the sink then
    // neither plays nor asks. A sink still after kKick gets a buffer's worth regardless, which
    // starts it again; one still after kStall has failed.
    if (!moved && !fedAll_ && now - lastMove_ > kKick && now - lastKick_ > kKick) {
        room = qsizetype(kBufferSeconds * 0.5 * frameBytes_ * feed_->sampleRate()) / frameBytes_ * frameBytes_;
        lastKick_ = now;
        ++kicks_;
    }
    if (!moved && !fedAll_ && now - lastMove_ > kStall) {
        fail(tr("%1 stopped playing").arg(QMediaDevices::defaultAudioOutput().description()));
        return;
    }
    const int frameBytes = frameBytes_;
    while (room > 0) {
        if (pending_.empty()) {
            const size_t frames = size_t(std::min<qsizetype>(room / frameBytes, 4800));
            if (frames == 0 || fedAll_) break;
            mix_.resize(2 * frames);
            const size_t n = feed_->produce(mix_.data(), frames);
            (void)feed_->takeWarnings();   // the meters' own source reports the same stream's faults
            if (n == 0) {
                fedAll_ = true;
                break;
            }
            if (floatSamples_) {
                pending_.assign(reinterpret_cast<const char*>(mix_.data()), reinterpret_cast<const char*>(mix_.data() + 2 * n));
            } else {
                pending_.resize(2 * n * sizeof(int16_t));
                auto* out = reinterpret_cast<int16_t*>(pending_.data());
                for (size_t i = 0; i < 2 * n; ++i) out[i] = int16_t(std::lrint(mix_[i] * 32767.0f));
            }
        }
        const qint64 wrote = io_->write(pending_.data(), std::min<qsizetype>(qsizetype(pending_.size()), room));
        if (wrote <= 0) break;
        pending_.erase(pending_.begin(), pending_.begin() + std::ptrdiff_t(wrote));
        room -= wrote;
    }
}

void AudioOutput::onState() {
    if (!sink_) return;
    switch (sink_->error()) {
    case QAudio::NoError: return;
    case QAudio::UnderrunError:
        // Idle at the end of the sound is not an underrun; running dry before it is.
        if (fedAll_) return;
        if (++underruns_ == 1 || underruns_ % 50 == 0)
            emit message(tr("Audio output underrun at %1 s (%2 so far): the sound was fed late")
                             .arg(heard().value_or(startPts_), 0, 'f', 3)
                             .arg(underruns_));
        return;
    case QAudio::OpenError: fail(tr("the output device could not be opened")); return;
    case QAudio::IOError: fail(tr("the output device could not be written")); return;
    case QAudio::FatalError: fail(tr("the sound server failed")); return;
    }
}

void AudioOutput::fail(const QString& why) {
    stop();
    failed_ = true;
    emit message(tr("Audio output: %1; the picture keeps its own clock").arg(why));
}

}  // namespace cs
