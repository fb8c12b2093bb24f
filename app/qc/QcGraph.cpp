#include "QcGraph.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

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
    if (type == "black") return rgba(90, 90, 255);
    if (type == "freeze") return rgba(0, 200, 255);
    if (type == "out_of_legal") return rgba(255, 160, 0);
    if (type == "out_of_gamut") return rgba(255, 0, 200);
    return rgba(255, 40, 40);   // decode_error
}

}  // namespace

void QcGraph::add(const std::array<double, kSeries>& values) {
    if (buckets_.empty() || inLast_ == framesPerBucket_) {
        if (buckets_.size() == 2 * kColumns) {   // full: merge neighbours, twice the frames each
            for (size_t i = 0; i < kColumns; ++i) {
                Bucket b = buckets_[2 * i];
                for (int s = 0; s < kSeries; ++s) {
                    b.min[size_t(s)] = std::min(b.min[size_t(s)], buckets_[2 * i + 1].min[size_t(s)]);
                    b.max[size_t(s)] = std::max(b.max[size_t(s)], buckets_[2 * i + 1].max[size_t(s)]);
                }
                buckets_[i] = b;
            }
            buckets_.resize(kColumns);
            framesPerBucket_ *= 2;
            inLast_ = framesPerBucket_;   // the last merged bucket is whole
        }
        if (inLast_ == framesPerBucket_ || buckets_.empty()) {
            Bucket b;
            for (int s = 0; s < kSeries; ++s) b.min[size_t(s)] = b.max[size_t(s)] = float(values[size_t(s)]);
            buckets_.push_back(b);
            inLast_ = 1;
            ++frames_;
            return;
        }
    }
    Bucket& b = buckets_.back();
    for (int s = 0; s < kSeries; ++s) {
        b.min[size_t(s)] = std::min(b.min[size_t(s)], float(values[size_t(s)]));
        b.max[size_t(s)] = std::max(b.max[size_t(s)], float(values[size_t(s)]));
    }
    ++inLast_;
    ++frames_;
}

RgbaImage QcGraph::render(const std::vector<QcEvent>& events, int levels, const std::string& title) const {
    constexpr int kWidth = 1200, kLeft = 70, kRight = 20, kTop = 28, kPanelHeight = 150, kGap = 26;
    struct Panel {
        const char* name;
        std::vector<std::pair<Series, uint32_t>> lines;
        double lo, hi;
        bool percent;
    };
    double maxDif = 1;
    for (const auto& b : buckets_) maxDif = std::max(maxDif, double(b.max[YDif]));
    double maxLegal = 0.01;
    for (const auto& b : buckets_) maxLegal = std::max(maxLegal, double(b.max[Legal]));
    const std::vector<Panel> panels{
        {"Y min / avg / max", {{YMin, rgba(120, 120, 120)}, {YMax, rgba(240, 240, 240)}, {YAvg, rgba(255, 230, 0)}}, 0, double(levels - 1), false},
        {"Cb / Cr average", {{UAvg, rgba(60, 140, 255)}, {VAvg, rgba(255, 70, 70)}}, 0, double(levels - 1), false},
        {"YDIF", {{YDif, rgba(80, 230, 120)}}, 0, std::ceil(maxDif), false},
        {"out of legal (BRNG)", {{Legal, rgba(255, 160, 0)}}, 0, std::min(1.0, maxLegal * 1.1), true}};
    const int height = kTop + int(panels.size()) * (kPanelHeight + kGap) + 16;
    RgbaImage img;
    img.resize(kWidth, height);
    fillRect(img, 0, 0, kWidth, height, kBackground);
    drawText(img, kLeft, 8, title.c_str(), kText, 1);
    const int plotW = kWidth - kLeft - kRight;
    const double total = double(std::max<int64_t>(frames_, 1));
    const auto xOfFrame = [&](double frame) { return kLeft + int(std::floor(frame / total * plotW)); };
    for (size_t p = 0; p < panels.size(); ++p) {
        const Panel& panel = panels[p];
        const int top = kTop + int(p) * (kPanelHeight + kGap) + 12, bottom = top + kPanelHeight;
        fillRect(img, kLeft, top, kLeft + plotW, bottom, kPanel);
        for (const QcEvent& e : events)   // events shaded across the panel
            fillRect(img, xOfFrame(double(e.firstFrame)), top, std::max(xOfFrame(double(e.lastFrame + 1)), xOfFrame(double(e.firstFrame)) + 1),
                     bottom, eventColour(e.type), 0.35f);
        for (int i = 0; i <= 4; ++i) {   // grid and scale
            const int y = bottom - i * kPanelHeight / 4;
            drawLine(img, kLeft, y, kLeft + plotW - 1, y, kGrid);
            const double v = panel.lo + (panel.hi - panel.lo) * i / 4;
            char label[32];
            if (panel.percent) std::snprintf(label, sizeof label, "%.2g%%", v * 100);
            else std::snprintf(label, sizeof label, "%.0f", v);
            drawText(img, 4, y - 3, label, kText, 1);
        }
        drawText(img, kLeft, top - 10, panel.name, kText, 1);
        const auto yOf = [&](double v) {
            const double t = panel.hi > panel.lo ? (v - panel.lo) / (panel.hi - panel.lo) : 0;
            return bottom - 1 - int(std::lround(std::clamp(t, 0.0, 1.0) * (kPanelHeight - 1)));
        };
        for (const auto& [series, colour] : panel.lines)
            for (size_t i = 0; i < buckets_.size(); ++i) {
                const double first = double(i) * double(framesPerBucket_);
                const int x0 = xOfFrame(first), x1 = std::max(x0 + 1, xOfFrame(first + double(framesPerBucket_)));
                for (int x = x0; x < std::min(x1, kLeft + plotW); ++x)   // the bucket's min..max as a bar
                    drawLine(img, x, yOf(buckets_[i].min[size_t(series)]), x, yOf(buckets_[i].max[size_t(series)]), colour);
            }
    }
    char footer[64];   // the frame count, then a swatch per event type
    std::snprintf(footer, sizeof footer, "%lld frames   events:", static_cast<long long>(frames_));
    drawText(img, kLeft, height - 12, footer, kText, 1);
    int x = kLeft + font::textWidth(footer) + 8;
    for (const char* type : {"black", "freeze", "out_of_legal", "out_of_gamut", "decode_error"}) {
        fillRect(img, x, height - 13, x + 10, height - 5, eventColour(type));
        drawText(img, x + 14, height - 12, type, kText, 1);
        x += 14 + font::textWidth(type) + 12;
    }
    return img;
}

}  // namespace cs
