#include "AudioDock.h"

#include <QComboBox>
#include <QDockWidget>
#include <QHBoxLayout>
#include <QLabel>
#include <QMainWindow>
#include <QAudioDevice>
#include <QMediaDevices>
#include <QPushButton>
#include <QSlider>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>

#include "ui/ElidedLabel.h"
#include "ui/Settings.h"
#include "ui/main/Player.h"

namespace cs {

bool AudioMonitor::open(const std::string& input, std::string& why) {
    timeline_.reset();
    any_ = false;
    auto t = audio::AudioTimeline::open(input, {});
    if (!t) {
        why = t.message();
        return false;
    }
    input_ = input;
    timeline_ = std::move(*t);
    return true;
}

AudioLevels AudioMonitor::frame(int64_t index, double pts, double duration) {
    AudioLevels out;
    if (!timeline_) return out;
    // A jump of the picture (seek, loop, a step back): the audio is read from there.
    if (any_ && (pts < next_ - duration * 0.5 || pts > next_ + 1.0)) {
        if (Status s = timeline_->seek(pts); !s) {
            timeline_.reset();
            return out;
        }
    }
    any_ = true;
    const audio::IntervalLevels l = timeline_->measure(index, pts, pts + duration);
    next_ = pts + duration;
    const audio::AudioMeter& m = timeline_->meter();
    const audio::LoudnessSummary sum = m.summary();
    out.labels = timeline_->info().layout.labels;
    out.present = l.samples > 0;
    for (size_t c = 0; c < out.labels.size(); ++c) {
        out.peakDb.push_back(out.present ? audio::amplitudeToDb(l.samplePeak[c]) : -HUGE_VAL);
        out.truePeakDb.push_back(out.present ? audio::amplitudeToDb(l.truePeak[c]) : -HUGE_VAL);
    }
    out.momentary = l.momentary;
    out.shortTerm = l.shortTerm;
    out.integrated = sum.integrated;
    out.range = sum.range;
    out.maxTruePeakDb = audio::amplitudeToDb(sum.maxTruePeak);
    out.correlation = l.correlation;
    out.pair = timeline_->pairSamples();
    return out;
}

void AudioMonitor::reset() {
    if (!timeline_) return;
    // A fresh meter from the picture's place: the integrated loudness starts again there.
    std::string why;
    const double at = next_;
    if (open(input_, why) && at > 0) {
        (void)timeline_->seek(at);
        any_ = true;
        next_ = at;
    }
}

std::vector<std::string> AudioMonitor::takeWarnings() { return timeline_ ? timeline_->takeWarnings() : std::vector<std::string>{}; }

AudioDock::AudioDock(QMainWindow* window, Player* player, QDockWidget* tabWith) : QObject(window), player_(player) {
    dock_ = new QDockWidget(tr("Audio"), window);
    dock_->setObjectName(QStringLiteral("audioDock"));
    dock_->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    auto* body = new QWidget(dock_);
    auto* column = new QVBoxLayout(body);
    column->setContentsMargins(4, 2, 4, 4);
    column->setSpacing(2);
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Target"), body));
    target_ = new QComboBox(body);
    target_->addItem(tr("EBU R128"), QStringLiteral("r128"));
    target_->addItem(tr("ATSC A/85"), QStringLiteral("a85"));
    target_->setToolTip(tr("The loudness target the panel's colours and the over indicators use"));
    row->addWidget(target_);
    auto* reset = new QPushButton(tr("Reset"), body);
    reset->setToolTip(tr("Start the integrated loudness, range, maximum true peak, holds and overs again from here"));
    row->addWidget(reset);
    row->addStretch(1);
    column->addLayout(row);

    // Listening: the channels heard, mute, volume; the output's one line.
    output_ = new AudioOutput(this);
    const settings::Listening saved = settings::listening();
    auto* listen = new QHBoxLayout;
    listen->addWidget(new QLabel(tr("Listen"), body));
    channels_ = new QComboBox(body);
    channels_->setObjectName(QStringLiteral("listenChannels"));
    channels_->setToolTip(tr("The channels heard: a downmix of all (ITU-R BS.775, the LFE left out), a pair, or one channel solo"));
    channels_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    channels_->setMinimumContentsLength(10);   // a 16-channel downmix's words do not widen the dock
    listen->addWidget(channels_);
    mute_ = new QToolButton(body);
    mute_->setObjectName(QStringLiteral("listenMute"));
    mute_->setText(tr("Mute"));
    mute_->setCheckable(true);
    mute_->setChecked(saved.muted);
    mute_->setToolTip(tr("Silence the output (the picture stays locked to the sound's clock)"));
    listen->addWidget(mute_);
    volume_ = new QSlider(Qt::Horizontal, body);
    volume_->setObjectName(QStringLiteral("listenVolume"));
    volume_->setRange(0, 100);
    volume_->setValue(saved.volume);
    volume_->setToolTip(tr("Volume"));
    volume_->setMaximumWidth(140);
    listen->addWidget(volume_);
    outputLine_ = new ElidedLabel(body);   // never widens the dock; the whole line in its tooltip
    outputLine_->setObjectName(QStringLiteral("listenOutput"));
    listen->addWidget(outputLine_, 1);
    column->addLayout(listen);
    output_->setVolume(saved.volume / 100.0);
    output_->setMuted(saved.muted);
    if (auto c = audio::parseListenChoice(saved.channels.toStdString())) output_->setChoice(*c);
    outputLine_->setText(output_->available() ? tr("Output: %1").arg(QMediaDevices::defaultAudioOutput().description())
                                              : tr("No audio output: the meters run, the picture keeps its own clock"));
    outputLine_->setToolTip(outputLine_->text());
    fillChannels();

    meters_ = new AudioMeters(body);
    column->addWidget(meters_, 1);
    dock_->setWidget(body);
    window->addDockWidget(Qt::BottomDockWidgetArea, dock_);
    if (tabWith) window->tabifyDockWidget(tabWith, dock_);

    connect(target_, &QComboBox::currentIndexChanged, this, [this] {
        if (auto t = audio::loudnessPreset(target_->currentData().toString().toStdString())) meters_->setTarget(*t);
    });
    connect(reset, &QPushButton::clicked, this, [this] {
        monitor_.reset();
        meters_->resetHolds();
    });
    connect(player_, &Player::opened, this, &AudioDock::onOpened);
    connect(player_, &Player::frameChanged, this, &AudioDock::onFrame);

    connect(channels_, &QComboBox::activated, this, [this] {
        if (auto c = audio::parseListenChoice(channels_->currentData().toString().toStdString())) output_->setChoice(*c);
        saveListening();
    });
    connect(mute_, &QToolButton::toggled, this, [this](bool on) {
        output_->setMuted(on);
        saveListening();
    });
    connect(volume_, &QSlider::valueChanged, this, [this](int v) {
        output_->setVolume(v / 100.0);
        saveListening();
    });
    connect(output_, &AudioOutput::message, this, [this](const QString& m) {
        outputLine_->setText(m);
        outputLine_->setToolTip(m);
        emit warning(m);
    });
    player_->setHeardClock([this] { return output_->heard(); });
    connect(player_, &Player::clockStarted, this, [this] { updateListening(true); });
    connect(player_, &Player::clockInterrupted, output_, &AudioOutput::stop);
    // Play starts the sound through clockStarted, at the frame the clock starts from; here only
    // what silences it (pause, reverse).
    connect(player_, &Player::playingChanged, this, [this] {
        if (!player_->atListeningSpeed()) output_->stop();
    });
    connect(player_, &Player::speedChanged, this, [this] { updateListening(false); });
}

void AudioDock::fillChannels() {
    channels_->clear();
    const audio::ChannelLayoutInfo* layout = output_->layout();
    if (!layout) {
        channels_->addItem(tr("Downmix"), QStringLiteral("downmix"));
        channels_->setEnabled(false);
        return;
    }
    channels_->setEnabled(true);
    const audio::ListenChoice chosen = audio::fitListenChoice(output_->choice(), layout->channels());
    for (const auto& o : audio::listenOptions(*layout)) {
        channels_->addItem(QString::fromStdString(o.text), QString::fromStdString(audio::listenChoiceName(o.choice)));
        if (o.choice == chosen) channels_->setCurrentIndex(channels_->count() - 1);
    }
}

void AudioDock::saveListening() {
    settings::Listening l;
    l.volume = volume_->value();
    l.muted = mute_->isChecked();
    l.channels = QString::fromStdString(audio::listenChoiceName(output_->choice()));
    settings::setListening(l);
}

void AudioDock::setScrubbing(bool scrubbing) {
    scrubbing_ = scrubbing;
    updateListening(false);
}

void AudioDock::updateListening(bool restart) {
    // Sound only at 1x forward with the seek bar let go; anything else is silence.
    if (!player_->atListeningSpeed() || scrubbing_ || !output_->isOpen() || !player_->hasFrame()) {
        output_->stop();
        return;
    }
    if (restart || !output_->running()) output_->start(player_->currentPts());
}

void AudioDock::onOpened() {
    lastPts_ = -1;
    const std::string input = player_->input();
    const SourceInfo& info = player_->info();
    if (input.rfind("pattern:", 0) == 0 || info.live) {
        monitor_.close();
        output_->close();
        fillChannels();
        meters_->setMessage(info.live ? tr("Live sources are not metered") : tr("A test pattern has no audio"));
        return;
    }
    std::string why;
    if (!monitor_.open(input, why)) {
        output_->close();
        fillChannels();
        meters_->setMessage(QString::fromStdString(why));
        return;
    }
    meters_->setMessage({});
    if (output_->open(input, why)) updateListening(true);
    fillChannels();
}

void AudioDock::onFrame() {
    if (!monitor_.isOpen() || !player_->hasFrame()) return;
    if (output_->running() && !player_->atListeningSpeed()) output_->stop();   // e.g. a recording started
    if (player_->followsSound()) {
        if (const auto heard = output_->heard()) {
            const double lead = *heard - player_->currentPts();
            sync_.minLead = sync_.frames ? std::min(sync_.minLead, lead) : lead;
            sync_.maxLead = sync_.frames ? std::max(sync_.maxLead, lead) : lead;
            ++sync_.frames;
            if (lead < -0.002 || lead >= player_->frameDuration()) ++sync_.outside;
        }
    }
    const double pts = player_->currentPts();
    if (pts == lastPts_) return;   // the same picture again (a still source): nothing new to hear
    lastPts_ = pts;
    meters_->setLevels(monitor_.frame(player_->currentFrameNumber(), pts, player_->frameDuration()));
    for (const auto& w : monitor_.takeWarnings()) emit warning(QString::fromStdString(w));
}

}  // namespace cs
