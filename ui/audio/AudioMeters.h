// The audio meters panel: per channel sample peak bars with the true peak marked, peak hold
// and over indicators on a dBFS scale; a loudness panel (momentary, short-term, integrated,
// loudness range, maximum true peak) against the target, coloured by state; a short-term
// loudness history; a phase correlation meter and a goniometer (L/R as mid/side dots, the
// audio vectorscope). Drawn with QPainter from the levels it is handed (AudioMonitor.h); it
// measures nothing itself. GUI thread only.
#pragma once
#include <QWidget>

#include <chrono>
#include <cmath>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "audio/LoudnessTarget.h"

namespace cs {

struct AudioLevels {
    std::vector<std::string> labels;
    bool present = false;                  // the frame had audio
    std::vector<double> peakDb, truePeakDb;   // per channel (-inf: silence)
    double momentary = -HUGE_VAL, shortTerm = -HUGE_VAL, integrated = -HUGE_VAL, range = 0, maxTruePeakDb = -HUGE_VAL;
    double correlation = 0;                // NaN: silent or no pair
    std::vector<std::pair<float, float>> pair;   // the goniometer's L/R samples
};

class AudioMeters : public QWidget {
    Q_OBJECT
public:
    explicit AudioMeters(QWidget* parent = nullptr);
    void setTarget(const audio::LoudnessTarget& t);
    const audio::LoudnessTarget& target() const { return target_; }
    // A frame's levels; holds, overs and the history move on.
    void setLevels(const AudioLevels& levels);
    // No audio to meter (none in the source, or a live source): the panel says why.
    void setMessage(const QString& text);
    // Forgets holds, overs and the history (the loudness panel's Reset).
    void resetHolds();
    const AudioLevels& levels() const { return levels_; }
    // Per channel: the held peak (dBFS) and whether an over was seen since the reset.
    const std::vector<double>& holds() const { return hold_; }
    const std::vector<bool>& overs() const { return over_; }
    QSize sizeHint() const override { return {720, 260}; }

protected:
    void paintEvent(QPaintEvent*) override;

private:
    void paintBars(QPainter& p, const QRect& r);
    void paintLoudness(QPainter& p, const QRect& r);
    void paintHistory(QPainter& p, const QRect& r);
    void paintCorrelation(QPainter& p, const QRect& r);
    void paintGoniometer(QPainter& p, const QRect& r);
    QColor stateColour(double lufs) const;
    audio::LoudnessTarget target_ = audio::ebuR128Target();
    AudioLevels levels_;
    QString message_;
    std::vector<double> hold_;
    std::vector<std::chrono::steady_clock::time_point> holdSince_;
    std::vector<bool> over_;
    std::deque<double> history_;           // short-term loudness, one value per 100 ms of levels
    std::chrono::steady_clock::time_point lastHistory_{};
};

}  // namespace cs
