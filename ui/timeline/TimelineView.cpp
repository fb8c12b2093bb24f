// The timeline panel's view.
#include "TimelineView.h"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <vector>

namespace cs::timeline {

namespace {

constexpr int kLaneHeight = 11, kAxisHeight = 16, kLabelWidth = 116, kBands = 6;

struct Band {
    const char* title;
    std::initializer_list<Series> series;
};
// The graphs, top to bottom.
const Band kBandList[kBands] = {
    {"Y", {Series::YMax, Series::YMin, Series::YAvg}},
    {"chroma", {Series::UAvg, Series::VAvg, Series::SatAvg}},
    {"YDIF", {Series::Ydif}},
    {"out of range", {Series::OutOfLegal, Series::OutsideTarget}},
    {"nits", {Series::MaxNits, Series::AvgNits}},
    {"LUFS, dBTP", {Series::TruePeak, Series::Momentary, Series::ShortTerm}},
};
constexpr int kLoudnessBand = 5;

QRgb colourOf(Series s) {
    switch (s) {
    case Series::YMin: return qRgb(90, 140, 255);
    case Series::YAvg: return qRgb(235, 235, 235);
    case Series::YMax: return qRgb(255, 190, 80);
    case Series::UAvg: return qRgb(80, 150, 255);
    case Series::VAvg: return qRgb(255, 90, 90);
    case Series::SatAvg: return qRgb(200, 120, 255);
    case Series::Ydif: return qRgb(120, 230, 140);
    case Series::OutOfLegal: return qRgb(255, 120, 60);
    case Series::OutsideTarget: return qRgb(240, 80, 200);
    case Series::MaxNits: return qRgb(255, 230, 90);
    case Series::AvgNits: return qRgb(170, 170, 120);
    case Series::Momentary: return qRgb(80, 160, 255);
    case Series::ShortTerm: return qRgb(235, 235, 235);
    case Series::TruePeak: return qRgb(255, 110, 90);
    case Series::Count: break;
    }
    return qRgb(255, 255, 255);
}

QColor eventColour(const std::string& type) {
    if (type == "black") return QColor(150, 150, 150);
    if (type == "freeze") return QColor(80, 170, 255);
    if (type == "decode_error") return QColor(255, 60, 60);
    if (type == "timecode_break") return QColor(255, 220, 0);
    return QColor(255, 130, 60);   // out of legal / gamut / target
}

// The scale's foot for a band: 0, but -60 for loudness (LUFS and dBTP), where the quiet
// stays below and draws at the foot.
float bandFoot(int band) { return band == kLoudnessBand ? -60.0f : 0.0f; }

// The scale's top for a band: code values to the next 8/10/12-bit maximum, shares and nits
// to the band's greatest value, loudness to +3 (a true peak over full scale still shows).
float bandTop(const TimelineData& d, int band) {
    if (band == kLoudnessBand) return 3.0f;
    float peak = 0.0f;
    for (Series s : kBandList[band].series)
        if (d.has(s)) peak = std::max(peak, d.peak(s));
    if (band <= 1) return peak <= 255.0f ? 255.0f : peak <= 1023.0f ? 1023.0f : peak <= 4095.0f ? 4095.0f : 65535.0f;
    return std::max(peak, band == 3 ? 0.01f : band == 4 ? 100.0f : 1.0f);
}

bool bandShown(const TimelineData& d, int band) {
    for (Series s : kBandList[band].series)
        if (d.has(s)) return true;
    return false;
}

}  // namespace

void drawGraphs(QImage& image, const TimelineData& data, int64_t first, int64_t last) {
    image.fill(qRgb(18, 18, 20));
    const int w = image.width(), h = image.height();
    if (data.frames() == 0 || w <= 0 || h <= 0 || last < first) return;
    int shown[kBands], n = 0;
    for (int b = 0; b < kBands; ++b)
        if (bandShown(data, b)) shown[n++] = b;
    if (n == 0) return;
    const double perColumn = double(last - first + 1) / w;
    const int64_t known = data.frames() - 1;
    // Each column's frames, once for every series: [f0, f1], up to the frames known.
    std::vector<std::pair<int64_t, int64_t>> columns;
    columns.reserve(size_t(w));
    for (int x = 0; x < w; ++x) {
        const int64_t f0 = first + int64_t(std::floor(x * perColumn));
        if (f0 > known) break;
        columns.push_back({f0, std::clamp<int64_t>(first + int64_t(std::floor((x + 1) * perColumn)) - 1, f0, known)});
    }
    auto* px = reinterpret_cast<QRgb*>(image.bits());
    const qsizetype stride = image.bytesPerLine() / 4;
    for (int i = 0; i < n; ++i) {
        const int band = shown[i];
        const int top = h * i / n + 2, bottom = h * (i + 1) / n - 2;
        const float foot = bandFoot(band), scale = float(bottom - top) / (bandTop(data, band) - foot);
        for (int x = 0; x < w; x += 1) {   // grid line at the band's foot
            px[qsizetype(bottom + 1) * stride + x] = qRgb(48, 48, 52);
        }
        for (Series s : kBandList[band].series) {
            if (!data.has(s)) continue;
            const QRgb c = colourOf(s);
            for (size_t x = 0; x < columns.size(); ++x) {
                const auto [lo, hi] = data.range(s, columns[x].first, columns[x].second);
                const int y0 = std::clamp(bottom - int(std::lround((hi - foot) * scale)), top, bottom);
                const int y1 = std::clamp(bottom - int(std::lround((lo - foot) * scale)), top, bottom);
                for (int y = y0; y <= y1; ++y) px[qsizetype(y) * stride + qsizetype(x)] = c;
            }
        }
    }
}

TimelineView::TimelineView(const TimelineData& source, QWidget* parent) : QWidget(parent), data_(source) {
    setObjectName(QStringLiteral("timelineView"));
    setMouseTracking(true);
    setMinimumHeight(160);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void TimelineView::dataChanged() {
    graphsKey_.fill(-1);   // replaced data may keep the same length
    update();
}

void TimelineView::setStatusText(const QString& text) {
    status_ = text;
    update();
}

int64_t TimelineView::span() const { return std::max<int64_t>(1, data_.expectedFrames()); }

void TimelineView::showFrames(int64_t first, int64_t last) {
    const int64_t total = span();
    const int64_t minSpan = std::min<int64_t>(total, std::max(8, graphRect().width() / 12));   // frames a few pixels wide
    if (last - first + 1 < minSpan) last = first + minSpan - 1;
    if (last >= total) {
        first -= last - (total - 1);
        last = total - 1;
    }
    first_ = std::max<int64_t>(0, first);
    last_ = std::max(first_, last);
    update();
}

void TimelineView::showWhole() {
    first_ = 0;
    last_ = -1;
    update();
}

void TimelineView::setPlayhead(double seconds) {
    const int64_t f = data_.frames() > 0 ? data_.frameAt(seconds) : int64_t(std::llround(seconds * data_.frameRate()));
    if (f == playhead_) return;
    playhead_ = f;
    // Zoomed in: the view follows the playhead, a page at a time.
    if (last_ >= first_ && (f < first_ || f > last_)) {
        const int64_t width = last_ - first_;
        showFrames(f - width / 10, f - width / 10 + width);
    }
    update();
}

QRect TimelineView::graphRect() const {
    int lanes = 0;
    std::map<std::string, int> seen;
    for (const TimelineEvent& e : data_.events()) seen.emplace(e.type, 0);
    lanes = int(seen.size());
    return QRect(kLabelWidth, 14, std::max(1, width() - kLabelWidth - 4),
                 std::max(10, height() - 14 - kAxisHeight - lanes * kLaneHeight));
}

int64_t TimelineView::frameAtX(int x) const {
    const QRect g = graphRect();
    const int64_t first = last_ >= first_ ? first_ : 0, last = last_ >= first_ ? last_ : span() - 1;
    const double t = double(std::clamp(x - g.left(), 0, g.width() - 1)) / g.width();
    return std::clamp<int64_t>(first + int64_t(t * double(last - first + 1)), 0, span() - 1);
}

QString TimelineView::describeFrame(int64_t i) const {
    if (i < 0 || i >= data_.frames()) return tr("frame %1 (not analysed yet)").arg(i);
    QString text = tr("%1  frame %2  %3 s").arg(QString::fromStdString(data_.timecode(i))).arg(i).arg(data_.pts(i), 0, 'f', 3);
    for (int s = 0; s < kSeriesCount; ++s) {
        if (!data_.has(Series(s))) continue;
        const float v = data_.value(Series(s), i);
        text += QStringLiteral("\n%1: ").arg(QString::fromLatin1(seriesLabel(Series(s)))) +
                (isLoudness(Series(s)) && v <= kLoudnessFloor ? tr("below %1").arg(double(kLoudnessFloor))
                                                              : QString::number(double(v), 'g', 5));
    }
    for (const TimelineEvent& e : data_.events())
        if (i >= e.first && i <= e.last)
            text += QStringLiteral("\n%1 %2 - %3").arg(QString::fromStdString(e.type), QString::fromStdString(e.firstTimecode),
                                                      QString::fromStdString(e.lastTimecode));
    return text;
}

void TimelineView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), QColor(12, 12, 14));
    const QRect g = graphRect();
    const int64_t first = last_ >= first_ ? first_ : 0, last = last_ >= first_ ? last_ : span() - 1;
    // The graphs change with the data and the frames shown, not with the hover or playhead.
    const std::array<int64_t, 5> key{first, last, data_.frames(), g.width(), g.height()};
    if (graphs_.size() != g.size() || key != graphsKey_) {
        if (graphs_.size() != g.size()) graphs_ = QImage(g.size(), QImage::Format_RGB32);
        drawGraphs(graphs_, data_, first, last);
        graphsKey_ = key;
    }
    p.drawImage(g.topLeft(), graphs_);

    QFont small = font();
    small.setPointSizeF(font().pointSizeF() * 0.85);
    p.setFont(small);
    p.setPen(QColor(170, 170, 175));
    int shown = 0;
    for (int b = 0; b < kBands; ++b) shown += bandShown(data_, b) ? 1 : 0;
    for (int b = 0, i = 0; b < kBands; ++b) {
        if (!bandShown(data_, b)) continue;
        const int top = g.top() + g.height() * i / shown, bottom = g.top() + g.height() * (i + 1) / shown;
        p.drawText(QRect(4, top, kLabelWidth - 8, bottom - top), Qt::AlignLeft | Qt::AlignVCenter, tr(kBandList[b].title));
        ++i;
    }
    // Event lanes, one per type, under the graphs.
    const auto xOf = [&](double frame) { return g.left() + int((frame - double(first)) * g.width() / double(last - first + 1)); };
    std::map<std::string, int> lanes;
    for (const TimelineEvent& e : data_.events()) lanes.emplace(e.type, 0);
    int lane = 0;
    for (auto& [type, row] : lanes) row = lane++;
    for (const auto& [type, row] : lanes) {
        const int y = g.bottom() + 2 + row * kLaneHeight;
        p.setPen(QColor(150, 150, 155));
        p.drawText(QRect(4, y - 2, kLabelWidth - 8, kLaneHeight + 2), Qt::AlignLeft | Qt::AlignVCenter, QString::fromStdString(type));
    }
    for (const TimelineEvent& e : data_.events()) {
        const int y = g.bottom() + 2 + lanes[e.type] * kLaneHeight;
        const int x0 = std::max(g.left(), xOf(double(e.first))), x1 = std::min(g.right(), std::max(x0 + 2, xOf(double(e.last + 1))));
        if (x1 < g.left() || x0 > g.right()) continue;
        p.fillRect(QRect(x0, y + 1, x1 - x0, kLaneHeight - 2), eventColour(e.type));
    }
    // The axis: timecodes of frames under evenly spaced ticks.
    const int axisY = height() - kAxisHeight;
    p.setPen(QColor(150, 150, 155));
    const int ticks = std::max(2, g.width() / 140);
    for (int t = 0; t <= ticks; ++t) {
        const int x = g.left() + g.width() * t / ticks;
        const int64_t f = frameAtX(std::min(x, g.right()));
        p.drawLine(x, axisY, x, axisY + 3);
        const QString label = f < data_.frames() ? QString::fromStdString(data_.timecode(f)) : tr("frame %1").arg(f);
        const int align = t == 0 ? Qt::AlignLeft : t == ticks ? Qt::AlignRight : Qt::AlignHCenter;
        p.drawText(QRect(x - 70, axisY + 2, 140, kAxisHeight - 2), align | Qt::AlignTop, label);
    }
    // Progress and where the data came from.
    p.setPen(QColor(200, 200, 205));
    p.drawText(QRect(g.left(), 0, g.width(), 14), Qt::AlignLeft | Qt::AlignVCenter, status_);
    if (data_.frames() < span() && data_.frames() > 0) {
        const int x = xOf(double(data_.frames()));
        if (x < g.right()) p.fillRect(QRect(x, g.top(), g.right() - x, g.height()), QColor(255, 255, 255, 12));
    }
    // The playhead, and the hovered frame.
    if (playhead_ >= first && playhead_ <= last) {
        p.setPen(QPen(QColor(255, 60, 60), 1));
        const int x = xOf(double(playhead_) + 0.5);
        p.drawLine(x, g.top(), x, axisY);
    }
    if (selecting_) {
        const int x0 = std::clamp(std::min(selectFromX_, selectToX_), g.left(), g.right());
        const int x1 = std::clamp(std::max(selectFromX_, selectToX_), g.left(), g.right());
        p.fillRect(QRect(x0, g.top(), x1 - x0 + 1, axisY - g.top()), QColor(90, 160, 255, 60));
    }
    if (hoverX_ >= g.left() && hoverX_ <= g.right()) {
        p.setPen(QPen(QColor(255, 255, 255, 90), 1));
        p.drawLine(hoverX_, g.top(), hoverX_, axisY);
    }
}

void TimelineView::seekToX(int x) {
    const int64_t f = frameAtX(x);
    const double seconds = f < data_.frames() ? data_.pts(f) : double(f) / data_.frameRate();
    emit seekRequested(seconds);
}

void TimelineView::mousePressEvent(QMouseEvent* e) {
    const bool select = e->button() == Qt::RightButton || (e->button() == Qt::LeftButton && (e->modifiers() & Qt::ShiftModifier));
    if (select) {   // a range to zoom to, chosen on release
        selecting_ = true;
        selectFromX_ = selectToX_ = int(e->position().x());
        update();
        return;
    }
    if (e->button() != Qt::LeftButton) return;
    dragging_ = true;
    seekToX(int(e->position().x()));
}

void TimelineView::mouseMoveEvent(QMouseEvent* e) {
    hoverX_ = int(e->position().x());
    if (selecting_) selectToX_ = hoverX_;
    else if (dragging_) seekToX(hoverX_);
    QToolTip::showText(e->globalPosition().toPoint(), describeFrame(frameAtX(hoverX_)), this);
    update();
}

void TimelineView::mouseReleaseEvent(QMouseEvent* e) {
    if (selecting_ && (e->button() == Qt::LeftButton || e->button() == Qt::RightButton)) {
        selecting_ = false;
        selectToX_ = int(e->position().x());
        // A few pixels at least: a click with Shift or the right button selects nothing.
        if (std::abs(selectToX_ - selectFromX_) >= 3)
            showFrames(frameAtX(std::min(selectFromX_, selectToX_)), frameAtX(std::max(selectFromX_, selectToX_)));
        update();
        return;
    }
    if (e->button() == Qt::LeftButton) dragging_ = false;
}

void TimelineView::leaveEvent(QEvent*) {
    hoverX_ = -1;
    update();
}

void TimelineView::wheelEvent(QWheelEvent* e) {
    const int64_t first = last_ >= first_ ? first_ : 0, last = last_ >= first_ ? last_ : span() - 1;
    const int64_t at = frameAtX(int(e->position().x()));
    const double factor = e->angleDelta().y() > 0 ? 0.8 : 1.25;
    const double left = double(at - first) * factor, right = double(last - at) * factor;
    showFrames(at - int64_t(std::llround(left)), at + int64_t(std::llround(right)));
    e->accept();
}

}  // namespace cs::timeline
