#include "AudioDock.h"

#include <QComboBox>
#include <QDockWidget>
#include <QHBoxLayout>
#include <QLabel>
#include <QMainWindow>
#include <QPushButton>
#include <QVBoxLayout>

#include <cmath>

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
}

void AudioDock::onOpened() {
    lastPts_ = -1;
    const std::string input = player_->input();
    const SourceInfo& info = player_->info();
    if (input.rfind("pattern:", 0) == 0 || info.live) {
        monitor_.close();
        meters_->setMessage(info.live ? tr("Live sources are not metered") : tr("A test pattern has no audio"));
        return;
    }
    std::string why;
    if (!monitor_.open(input, why)) {
        meters_->setMessage(QString::fromStdString(why));
        return;
    }
    meters_->setMessage({});
}

void AudioDock::onFrame() {
    if (!monitor_.isOpen() || !player_->hasFrame()) return;
    const double pts = player_->currentPts();
    if (pts == lastPts_) return;   // the same picture again (a still source): nothing new to hear
    lastPts_ = pts;
    meters_->setLevels(monitor_.frame(player_->currentFrameNumber(), pts, player_->frameDuration()));
    for (const auto& w : monitor_.takeWarnings()) emit warning(QString::fromStdString(w));
}

}  // namespace cs
