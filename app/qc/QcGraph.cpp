#include "QcGraph.h"

#include <QColor>
#include <QFont>
#include <QFontMetrics>
#include <QImage>
#include <QPainter>
#include <QRect>
#include <QString>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "QcFonts.h"
#include "scope/BitmapFont.h"
#include "scope/ScopeRender.h"

namespace cs {
namespace {

constexpr uint32_t rgba(uint8_t r, uint8_t g, uint8_t b, uint8_t a = 255) {
    return uint32_t(r) | uint32_t(g) << 8 | uint32_t(b) << 16 | uint32_t(a) << 24;
}
constexpr uint32_t kBackground = rgba(24, 24, 28), kPanel = rgba(12, 12, 14), kGrid = rgba(60, 60, 66),
                   kText = rgba(210, 210, 210);

void blend(RgbaImage& img, int x, int y, uint32_t c, float alpha) {
    if (x < 0 || y < 0 || x >= img.width || y >= img.height) return;
    uint8_t* p = img.at(x, y);
    for (int i = 0; i < 3; ++i) p[i] = uint8_t(std::lround(p[i] * (1 - alpha) + float((c >> (8 * i)) & 0xff) * alpha));
    p[3] = 255;
}
void fillRect(RgbaImage& img, int x0, int y0, int x1, int y1, uint32_t c, float alpha = 1.f) {
    for (int y = std::max(0, y0); y < std::min(img.height, y1); ++y)
        for (int x = std::max(0, x0); x < std::min(img.width, x1); ++x) blend(img, x, y, c, alpha);
}
uint32_t eventColour(const std::string& type) {
    struct Known {
        const char* type;
        uint32_t colour;
    };
    static const Known known[] = {
        {"black", rgba(90, 90, 255)},          {"freeze", rgba(0, 200, 255)},         {"out_of_legal", rgba(255, 160, 0)},
        {"out_of_gamut", rgba(255, 0, 200)},   {"out_of_target_gamut", rgba(200, 80, 255)}, {"decode_error", rgba(255, 40, 40)},
        {"timecode_break", rgba(255, 255, 255)}, {"scene_cut", rgba(150, 150, 150)}, {"repeated_frame", rgba(120, 255, 255)},
        {"active_area", rgba(160, 220, 80)},   {"loudness", rgba(80, 200, 80)},       {"true_peak", rgba(255, 90, 90)},
        {"phase", rgba(255, 200, 120)},         {"silence", rgba(110, 110, 200)},      {"silent_channel", rgba(140, 140, 230)},
        {"clipping", rgba(255, 110, 40)},       {"flash", rgba(255, 255, 120)},        {"red_flash", rgba(255, 0, 90)},
        {"field_order", rgba(255, 140, 200)},   {"range_tag", rgba(200, 200, 60)}};
    for (const Known& k : known)
        if (type == k.type) return k.colour;
    return rgba(230, 60, 60);   // a type this picture has no colour of its own for
}

struct Panel {
    const char* name;
    std::vector<std::pair<QcSeries::Series, uint32_t>> lines;
    double lo, hi;
    bool percent;
    std::vector<double> references;   // dashed lines (legal limits, R 103's 1%, the loudness target)
};

// Text in the app's anti-aliased type (Qt's, through QPainter: qcHaveFonts), gathered while
// the picture is drawn and painted over it at the end; scope/BitmapFont's where the process
// has no fonts (a QCoreApplication of its own). A label's y is the top of its line.
class Lettering {
public:
    explicit Lettering(RgbaImage& img) : img_(img), qt_(qcHaveFonts()) { font_.setPixelSize(11); }
    int width(const std::string& text) const {
        return qt_ ? QFontMetrics(font_).horizontalAdvance(QString::fromStdString(text)) : font::textWidth(text.c_str());
    }
    void add(int x, int y, const std::string& text, uint32_t colour) { labels_.push_back({x, y, text, colour}); }
    void addRight(int right, int y, const std::string& text, uint32_t colour) { add(right - width(text), y, text, colour); }
    void paint() {
        if (!qt_) {
            for (const Label& l : labels_) drawText(img_, l.x, l.y, l.text.c_str(), l.colour, 1);
            return;
        }
        QImage view(img_.pixels.data(), img_.width, img_.height, img_.width * 4, QImage::Format_RGBA8888);
        QPainter p(&view);
        p.setRenderHint(QPainter::TextAntialiasing);
        p.setFont(font_);
        for (const Label& l : labels_) {
            p.setPen(QColor(int(l.colour & 0xff), int((l.colour >> 8) & 0xff), int((l.colour >> 16) & 0xff)));
            p.drawText(QRect(l.x, l.y - 3, kWide, 14), Qt::AlignLeft | Qt::AlignTop, QString::fromStdString(l.text));
        }
    }

private:
    static constexpr int kWide = 4000;   // no label is cut at the right
    struct Label {
        int x, y;
        std::string text;
        uint32_t colour;
    };
    RgbaImage& img_;
    const bool qt_;
    QFont font_;
    std::vector<Label> labels_;
};

}  // namespace

std::vector<QcGraphTick> qcGraphTicks(const QcSeries& series, int count) {
    std::vector<QcGraphTick> ticks;
    const auto& b = series.buckets();
    if (b.empty() || count < 1) return ticks;
    size_t last = SIZE_MAX;
    for (int i = 0; i <= count; ++i) {
        const size_t at = std::min(b.size() - 1, size_t(std::lround(double(b.size() - 1) * i / double(count))));
        if (at == last) continue;   // fewer buckets than ticks
        last = at;
        ticks.push_back({b[at].firstFrame - b.front().firstFrame, b[at].timecode});
    }
    return ticks;
}

RgbaImage renderQcGraph(const QcSeries& series, const std::vector<QcEvent>& events, int levels, const std::string& title) {
    constexpr int kWidth = 1200, kLeft = 132, kRight = 20, kTop = 28, kPanelHeight = 150, kGap = 26, kAxis = 16;
    constexpr int kLanesGap = 8, kLane = 12, kLaneGap = 3;
    const auto& buckets = series.buckets();
    const auto maxOf = [&](QcSeries::Series s, double floor) {
        double m = floor;
        for (const auto& b : buckets)
            if (!std::isnan(b.max[size_t(s)])) m = std::max(m, double(b.max[size_t(s)]));
        return m;
    };
    const double scale = double(levels) / 256.0;
    std::vector<Panel> panels{
        {"Y min / avg / max",
         {{QcSeries::YMin, rgba(120, 120, 120)}, {QcSeries::YMax, rgba(240, 240, 240)}, {QcSeries::YAvg, rgba(255, 230, 0)}},
         0, double(levels - 1), false, {16 * scale, 235 * scale}},
        {"Cb / Cr average", {{QcSeries::UAvg, rgba(60, 140, 255)}, {QcSeries::VAvg, rgba(255, 70, 70)}}, 0, double(levels - 1), false, {}}};
    if (series.has(QcSeries::YDif))
        panels.push_back({"YDIF", {{QcSeries::YDif, rgba(80, 230, 120)}}, 0, std::ceil(maxOf(QcSeries::YDif, 1)), false, {}});
    const double worstShare = std::max(maxOf(QcSeries::Legal, 0.0), maxOf(QcSeries::R103, 0.0));
    panels.push_back({"out of legal (BRNG, orange) / outside R 103 (red; 1% line)",
                      {{QcSeries::Legal, rgba(255, 160, 0)}, {QcSeries::R103, rgba(255, 60, 60)}},
                      0, std::min(1.0, std::max(0.02, worstShare * 1.1)), true, {0.01}});
    if (series.has(QcSeries::Momentary) || series.has(QcSeries::ShortTerm))
        panels.push_back({"loudness, LUFS (momentary blue, short-term white; -23 line)",
                          {{QcSeries::Momentary, rgba(80, 140, 255)}, {QcSeries::ShortTerm, rgba(230, 230, 230)}}, -60, 0, false, {-23}});


    // The events in lanes under the graphs, one per type in the order the types first occur.
    std::vector<std::string> lanes;
    for (const QcEvent& e : events)
        if (std::find(lanes.begin(), lanes.end(), e.type) == lanes.end()) lanes.push_back(e.type);
    const int lanesHeight = lanes.empty() ? 0 : kLanesGap + int(lanes.size()) * (kLane + kLaneGap);

    const int height = kTop + int(panels.size()) * (kPanelHeight + kGap) + lanesHeight + kAxis + 16;
    RgbaImage img;
    img.resize(kWidth, height);
    fillRect(img, 0, 0, kWidth, height, kBackground);
    Lettering text(img);
    text.add(kLeft, 8, title, kText);
    const int plotW = kWidth - kLeft - kRight;
    const int64_t first = buckets.empty() ? 0 : buckets.front().firstFrame;
    const double total = double(std::max<int64_t>(series.frames(), 1));
    const auto xOfFrame = [&](double frame) { return kLeft + int(std::floor(frame / total * plotW)); };
    const std::vector<QcGraphTick> ticks = qcGraphTicks(series, 6);
    int bottomOfLast = 0;
    for (size_t p = 0; p < panels.size(); ++p) {
        const Panel& panel = panels[p];
        const int top = kTop + int(p) * (kPanelHeight + kGap) + 12, bottom = top + kPanelHeight;
        bottomOfLast = bottom;
        fillRect(img, kLeft, top, kLeft + plotW, bottom, kPanel);
        const auto yOf = [&](double v) {
            const double t = panel.hi > panel.lo ? (v - panel.lo) / (panel.hi - panel.lo) : 0;
            return bottom - 1 - int(std::lround(std::clamp(t, 0.0, 1.0) * (kPanelHeight - 1)));
        };
        for (int i = 0; i <= 4; ++i) {   // grid and scale
            const int y = bottom - i * kPanelHeight / 4;
            drawLine(img, kLeft, y, kLeft + plotW - 1, y, kGrid);
            const double v = panel.lo + (panel.hi - panel.lo) * i / 4;
            char label[32];
            if (panel.percent) std::snprintf(label, sizeof label, "%.2g%%", v * 100);
            else std::snprintf(label, sizeof label, "%.0f", v);
            text.addRight(kLeft - 6, y - 3, label, kText);
        }
        for (const QcGraphTick& t : ticks)   // the time grid
            drawLine(img, xOfFrame(double(t.frame)), top, xOfFrame(double(t.frame)), bottom - 1, kGrid);
        for (double r : panel.references)   // dashed
            for (int x = kLeft; x < kLeft + plotW; x += 6) drawLine(img, x, yOf(r), std::min(x + 2, kLeft + plotW - 1), yOf(r), rgba(140, 140, 150));
        text.add(kLeft, top - 10, panel.name, kText);
        for (const auto& [s, colour] : panel.lines)
            for (size_t i = 0; i < buckets.size(); ++i) {
                const float lo = buckets[i].min[size_t(s)], hi = buckets[i].max[size_t(s)];
                if (std::isnan(lo) || std::isnan(hi)) continue;   // no value: a gap
                const int64_t end = i + 1 < buckets.size() ? buckets[i + 1].firstFrame : first + series.frames();
                const int x0 = xOfFrame(double(buckets[i].firstFrame - first)), x1 = std::max(x0 + 1, xOfFrame(double(end - first)));
                for (int x = x0; x < std::min(x1, kLeft + plotW); ++x)   // the bucket's min..max as a bar
                    drawLine(img, x, yOf(lo), x, yOf(hi), colour);
            }
    }
    // The lanes: each event a bar over its frames (at least a pixel wide), its type named at
    // the left; the time grid runs through them.
    int axisTop = bottomOfLast;
    for (size_t l = 0; l < lanes.size(); ++l) {
        const int top = bottomOfLast + kLanesGap + int(l) * (kLane + kLaneGap), bottom = top + kLane;
        fillRect(img, kLeft, top, kLeft + plotW, bottom, kPanel);
        for (const QcGraphTick& t : ticks) drawLine(img, xOfFrame(double(t.frame)), top, xOfFrame(double(t.frame)), bottom - 1, kGrid);
        const uint32_t colour = eventColour(lanes[l]);
        for (const QcEvent& e : events) {
            if (e.type != lanes[l]) continue;
            const int x0 = xOfFrame(double(e.firstFrame - first));
            fillRect(img, x0, top + 1, std::max(xOfFrame(double(e.lastFrame + 1 - first)), x0 + 1), bottom - 1, colour);
        }
        text.addRight(kLeft - 6, top + 2, lanes[l], colour);
        axisTop = bottom;
    }
    // The timecode axis under the last panel or lane: a tick and the bucket's first timecode,
    // the last label kept inside the picture.
    for (const QcGraphTick& t : ticks) {
        const int x = xOfFrame(double(t.frame));
        drawLine(img, x, axisTop, x, axisTop + 4, kText);
        const int w = text.width(t.timecode);
        text.add(std::clamp(x - w / 2, kLeft, kWidth - 4 - w), axisTop + 7, t.timecode, kText);
    }
    char footer[96];
    std::snprintf(footer, sizeof footer, "%lld frames, %zu event%s", static_cast<long long>(series.frames()), events.size(),
                  events.size() == 1 ? "" : "s");
    text.add(kLeft, height - 12, footer, kText);
    text.paint();
    return img;
}

}  // namespace cs
