#include "AudioMeters.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace cs {
namespace {
constexpr double kFloorDb = -60.0;                     // the bars' scale: -60 to 0 dBFS
constexpr double kHistoryMin = -50.0, kHistoryMax = -5.0;   // LUFS
constexpr size_t kHistoryPoints = 600;                 // 60 s at one value per 100 ms
constexpr auto kHoldTime = std::chrono::seconds(2);    // a peak is held this long, then falls

const QColor kBackground(24, 24, 26), kGrid(70, 70, 76), kText(220, 220, 220), kDim(140, 140, 148);
const QColor kGreen(70, 200, 90), kAmber(235, 180, 40), kRed(230, 60, 50);

QString lufsText(double v) { return std::isfinite(v) ? QString::number(v, 'f', 1) : QStringLiteral("-inf"); }
}  // namespace

AudioMeters::AudioMeters(QWidget* parent) : QWidget(parent) {
    setMinimumSize(300, 160);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void AudioMeters::setTarget(const audio::LoudnessTarget& t) {
    target_ = t;
    update();
}

void AudioMeters::setMessage(const QString& text) {
    message_ = text;
    levels_ = {};
    resetHolds();
}

void AudioMeters::resetHolds() {
    hold_.assign(levels_.labels.size(), -HUGE_VAL);
    holdSince_.assign(levels_.labels.size(), {});
    over_.assign(levels_.labels.size(), false);
    history_.clear();
    update();
}

void AudioMeters::setLevels(const AudioLevels& levels) {
    const bool relabelled = levels.labels != levels_.labels;
    levels_ = levels;
    message_.clear();
    if (relabelled) resetHolds();
    const auto now = std::chrono::steady_clock::now();
    for (size_t c = 0; c < levels_.peakDb.size() && c < hold_.size(); ++c) {
        const double v = levels_.peakDb[c];
        if (v >= hold_[c] || now - holdSince_[c] > kHoldTime) {
            hold_[c] = v;
            holdSince_[c] = now;
        }
        if (levels_.truePeakDb[c] > target_.maxTruePeak) over_[c] = true;
    }
    if (now - lastHistory_ >= std::chrono::milliseconds(100)) {
        lastHistory_ = now;
        history_.push_back(levels_.shortTerm);
        while (history_.size() > kHistoryPoints) history_.pop_front();
    }
    update();
}

QColor AudioMeters::stateColour(double lufs) const {
    if (!std::isfinite(lufs)) return kDim;
    const double off = std::fabs(lufs - target_.integrated);
    if (off <= target_.tolerance) return kGreen;
    if (off <= 2 * target_.tolerance + 1) return kAmber;
    return kRed;
}

void AudioMeters::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), kBackground);
    p.setPen(kText);
    if (!message_.isEmpty() || levels_.labels.empty()) {
        p.drawText(rect(), Qt::AlignCenter, message_.isEmpty() ? tr("No audio") : message_);
        return;
    }
    const int h = height(), w = width();
    // Bars | loudness | history | goniometer over the correlation; narrow, the history goes
    // under the loudness panel.
    const int barsW = std::min(w / 3, 34 + int(levels_.labels.size()) * 22);
    const int loudW = 150, gonioW = std::clamp(std::min(h - 24, w - barsW - loudW - 20), 60, 200);
    const int histW = w - barsW - loudW - gonioW - 24;
    paintBars(p, QRect(4, 4, barsW, h - 8));
    if (histW >= 120) {
        paintLoudness(p, QRect(barsW + 10, 4, loudW, h - 8));
        paintHistory(p, QRect(barsW + loudW + 14, 4, histW, h - 8));
    } else {
        const int loudH = std::min(h - 8, 150);
        paintLoudness(p, QRect(barsW + 10, 4, loudW, loudH));
        if (h - loudH - 12 >= 40) paintHistory(p, QRect(barsW + 10, loudH + 8, loudW, h - loudH - 12));
    }
    const QRect g(w - gonioW - 4, 4, gonioW, gonioW);
    paintGoniometer(p, g);
    paintCorrelation(p, QRect(g.left(), g.bottom() + 4, gonioW, std::max(12, h - g.height() - 12)));
}

void AudioMeters::paintBars(QPainter& p, const QRect& r) {
    const int n = int(levels_.labels.size());
    const QRect scale(r.left(), r.top() + 14, 28, r.height() - 30);
    const auto yOf = [&](double db) {
        const double t = std::clamp((db - kFloorDb) / -kFloorDb, 0.0, 1.0);
        return scale.bottom() - int(std::lround(t * scale.height()));
    };
    QFont f = p.font();
    f.setPixelSize(10);
    p.setFont(f);
    for (int db = 0; db >= int(kFloorDb); db -= 6) {
        p.setPen(kGrid);
        p.drawLine(scale.right(), yOf(db), r.right(), yOf(db));
        p.setPen(kDim);
        p.drawText(QRect(scale.left(), yOf(db) - 6, 24, 12), Qt::AlignRight | Qt::AlignVCenter, QString::number(db));
    }
    const int colW = n > 0 ? std::max(6, (r.right() - scale.right() - 4) / n) : 0;
    for (int c = 0; c < n; ++c) {
        const size_t i = size_t(c);
        const QRect col(scale.right() + 4 + c * colW, scale.top(), colW - 4, scale.height());
        const bool over = i < over_.size() && over_[i];
        // Over indicator: lit once a true peak passed the target's limit, until Reset.
        p.fillRect(QRect(col.left(), r.top(), col.width(), 10), over ? kRed : QColor(50, 50, 54));
        const double peak = i < levels_.peakDb.size() ? levels_.peakDb[i] : -HUGE_VAL;
        if (std::isfinite(peak) && peak > kFloorDb) {
            const int top = yOf(peak);
            // Green to -18, amber to the true-peak limit, red above.
            const int yAmber = yOf(-18), yRed = yOf(target_.maxTruePeak);
            p.fillRect(QRect(col.left(), std::max(top, yAmber), col.width(), col.bottom() - std::max(top, yAmber) + 1), kGreen);
            if (top < yAmber) p.fillRect(QRect(col.left(), std::max(top, yRed), col.width(), yAmber - std::max(top, yRed)), kAmber);
            if (top < yRed) p.fillRect(QRect(col.left(), top, col.width(), yRed - top), kRed);
        }
        const double tp = i < levels_.truePeakDb.size() ? levels_.truePeakDb[i] : -HUGE_VAL;
        if (std::isfinite(tp) && tp > kFloorDb) {   // the true peak: a white tick
            p.setPen(QPen(Qt::white, 2));
            p.drawLine(col.left(), yOf(tp), col.right(), yOf(tp));
        }
        if (i < hold_.size() && std::isfinite(hold_[i]) && hold_[i] > kFloorDb) {   // peak hold
            p.setPen(QPen(kAmber, 2));
            p.drawLine(col.left(), yOf(hold_[i]), col.right(), yOf(hold_[i]));
        }
        p.setPen(kText);
        p.drawText(QRect(col.left() - 4, scale.bottom() + 2, col.width() + 8, 12), Qt::AlignCenter,
                   QString::fromStdString(levels_.labels[i]));
    }
}

void AudioMeters::paintLoudness(QPainter& p, const QRect& r) {
    p.setPen(kGrid);
    p.drawRect(r.adjusted(0, 0, -1, -1));
    QFont f = p.font();
    f.setPixelSize(12);
    p.setFont(f);
    int y = r.top() + 6;
    const auto row = [&](const QString& name, const QString& value, const QString& unit, const QColor& colour, int size = 15) {
        QFont v = p.font();
        p.setPen(kDim);
        p.drawText(QRect(r.left() + 4, y, 40, size + 4), Qt::AlignLeft | Qt::AlignVCenter, name);
        v.setPixelSize(size);
        v.setBold(true);
        p.setFont(v);
        p.setPen(colour);
        p.drawText(QRect(r.left() + 40, y, 62, size + 4), Qt::AlignRight | Qt::AlignVCenter, value);
        v.setBold(false);
        v.setPixelSize(11);
        p.setFont(v);
        p.setPen(kDim);
        p.drawText(QRect(r.left() + 106, y, 42, size + 4), Qt::AlignLeft | Qt::AlignVCenter, unit);
        y += size + 8;
    };
    row(tr("M"), lufsText(levels_.momentary), QStringLiteral("LUFS"), kText);
    row(tr("S"), lufsText(levels_.shortTerm), QStringLiteral("LUFS"), stateColour(levels_.shortTerm));
    row(tr("I"), lufsText(levels_.integrated), QStringLiteral("LUFS"), stateColour(levels_.integrated), 20);
    row(tr("LRA"), QString::number(levels_.range, 'f', 1), QStringLiteral("LU"), kText);
    const bool tpOver = std::isfinite(levels_.maxTruePeakDb) && levels_.maxTruePeakDb > target_.maxTruePeak;
    row(tr("TP max"), lufsText(levels_.maxTruePeakDb), QStringLiteral("dBTP"), tpOver ? kRed : kGreen);
    p.setPen(kDim);
    QFont t = p.font();
    t.setPixelSize(11);
    p.setFont(t);
    p.drawText(QRect(r.left() + 6, y, r.width() - 12, 30), Qt::AlignLeft | Qt::TextWordWrap,
               tr("target %1 LUFS \u00b1%2 LU, %3 dBTP")
                   .arg(target_.integrated, 0, 'f', 1)
                   .arg(target_.tolerance, 0, 'f', 1)
                   .arg(target_.maxTruePeak, 0, 'f', 1));
}

void AudioMeters::paintHistory(QPainter& p, const QRect& r) {
    p.setPen(kGrid);
    p.drawRect(r.adjusted(0, 0, -1, -1));
    const auto yOf = [&](double lufs) {
        const double t = std::clamp((lufs - kHistoryMin) / (kHistoryMax - kHistoryMin), 0.0, 1.0);
        return r.bottom() - 1 - int(std::lround(t * (r.height() - 2)));
    };
    // The target's tolerance band and line.
    p.fillRect(QRect(r.left() + 1, yOf(target_.integrated + target_.tolerance), r.width() - 2,
                     std::max(1, yOf(target_.integrated - target_.tolerance) - yOf(target_.integrated + target_.tolerance))),
               QColor(70, 200, 90, 40));
    p.setPen(QPen(kGreen, 1, Qt::DashLine));
    p.drawLine(r.left(), yOf(target_.integrated), r.right(), yOf(target_.integrated));
    QFont f = p.font();
    f.setPixelSize(10);
    p.setFont(f);
    p.setPen(kDim);
    for (int l = -10; l >= -50; l -= 10) p.drawText(QRect(r.left() + 3, yOf(l) - 6, 30, 12), Qt::AlignLeft | Qt::AlignVCenter, QString::number(l));
    p.drawText(r.adjusted(0, 2, -4, 0), Qt::AlignRight | Qt::AlignTop, tr("short-term, 60 s"));
    QPainterPath path;
    bool pen = false;
    const double dx = double(r.width() - 2) / double(kHistoryPoints - 1);
    const size_t first = kHistoryPoints - history_.size();
    for (size_t i = 0; i < history_.size(); ++i) {
        const double v = history_[i];
        const QPointF pt(r.left() + 1 + double(first + i) * dx, yOf(v));
        if (!std::isfinite(v)) {
            pen = false;
            continue;
        }
        if (pen) path.lineTo(pt);
        else path.moveTo(pt);
        pen = true;
    }
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QPen(kText, 1.5));
    p.drawPath(path);
    p.setRenderHint(QPainter::Antialiasing, false);
}

void AudioMeters::paintCorrelation(QPainter& p, const QRect& r) {
    const QRect bar(r.left(), r.top(), r.width(), std::min(14, r.height()));
    p.fillRect(bar, QColor(40, 40, 44));
    p.setPen(kGrid);
    p.drawLine(bar.center().x(), bar.top(), bar.center().x(), bar.bottom());
    const double c = levels_.correlation;
    if (std::isfinite(c)) {
        const int x = bar.left() + int(std::lround((c + 1) / 2 * (bar.width() - 1)));
        const int from = bar.center().x();
        p.fillRect(QRect(std::min(x, from), bar.top() + 2, std::abs(x - from) + 2, bar.height() - 4), c < 0 ? kRed : kGreen);
    }
    QFont f = p.font();
    f.setPixelSize(10);
    p.setFont(f);
    p.setPen(kDim);
    p.drawText(bar, Qt::AlignLeft | Qt::AlignVCenter, QStringLiteral(" -1"));
    p.drawText(bar, Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("+1 "));
}

void AudioMeters::paintGoniometer(QPainter& p, const QRect& r) {
    p.fillRect(r, Qt::black);
    p.setPen(kGrid);
    p.drawRect(r.adjusted(0, 0, -1, -1));
    const QPointF c = QRectF(r).center();
    const double half = r.width() / 2.0 - 2;
    // Axes: M vertical, S horizontal; L and R on the diagonals.
    p.drawLine(QPointF(c.x(), r.top()), QPointF(c.x(), r.bottom()));
    p.drawLine(QPointF(r.left(), c.y()), QPointF(r.right(), c.y()));
    p.setPen(QPen(kGrid, 1, Qt::DotLine));
    p.drawLine(r.topLeft(), r.bottomRight());
    p.drawLine(r.topRight(), r.bottomLeft());
    QFont f = p.font();
    f.setPixelSize(10);
    p.setFont(f);
    p.setPen(kDim);
    p.drawText(r.adjusted(4, 2, 0, 0), Qt::AlignLeft | Qt::AlignTop, QStringLiteral("L"));
    p.drawText(r.adjusted(0, 2, -4, 0), Qt::AlignRight | Qt::AlignTop, QStringLiteral("R"));
    p.drawText(r.adjusted(0, 2, 0, 0), Qt::AlignHCenter | Qt::AlignTop, QStringLiteral("M"));
    // Samples as dots: M = (L + R) / sqrt 2 up, S = (L - R) / sqrt 2 sideways (R to the right).
    p.setPen(QColor(120, 230, 140, 150));
    std::vector<QPointF> pts;
    pts.reserve(levels_.pair.size());
    for (const auto& [l, rr] : levels_.pair) {
        const double m = (double(l) + rr) / std::sqrt(2.0), s = (double(rr) - l) / std::sqrt(2.0);
        pts.emplace_back(c.x() + std::clamp(s, -1.0, 1.0) * half, c.y() - std::clamp(m, -1.0, 1.0) * half);
    }
    p.drawPoints(pts.data(), int(pts.size()));
}

}  // namespace cs
