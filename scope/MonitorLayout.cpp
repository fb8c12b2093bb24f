#include "MonitorLayout.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace cs {

std::string_view monitorLayoutName(MonitorLayout l) {
    switch (l) {
        case MonitorLayout::Picture: return "picture";
        case MonitorLayout::Preview: return "preview";
        case MonitorLayout::Scopes: return "scopes";
        case MonitorLayout::Composite: return "composite";
    }
    return "picture";
}

namespace {
struct Grid { int cols, rows; };
Grid gridOf(MonitorLayout l) { return l == MonitorLayout::Composite ? Grid{3, 2} : Grid{2, 2}; }
}  // namespace

void prepareSpecForLayout(MonitorLayout layout, int width, int height, ScopeSpec& spec) {
    spec.displayImages = true;
    spec.picture = layout != MonitorLayout::Scopes;
    const bool scopes = layout == MonitorLayout::Scopes || layout == MonitorLayout::Composite;
    spec.histogram = spec.waveform = spec.parade = spec.vectorscope = scopes;
    if (scopes) {
        const Grid g = gridOf(layout);
        spec.scopeWidth = std::max(64, width / g.cols);
        spec.scopeHeight = std::max(64, height / g.rows);
        spec.vectorscopeSize = std::min(spec.scopeWidth, spec.scopeHeight);
    }
}

void drawFitted(const RgbaImage& src, RgbaImage& dst, int x, int y, int w, int h) {
    if (src.empty() || w <= 0 || h <= 0) return;
    if (src.width == w && src.height == h) {
        for (int row = 0; row < h; ++row)
            std::memcpy(dst.at(x, y + row), src.at(0, row), size_t(w) * 4);
        return;
    }
    // The largest size of src's aspect inside w x h, centred.
    const double scale = std::min(double(w) / src.width, double(h) / src.height);
    const int fw = std::max(1, int(std::lround(src.width * scale))), fh = std::max(1, int(std::lround(src.height * scale)));
    const int ox = x + (w - fw) / 2, oy = y + (h - fh) / 2;
    const double sx = double(src.width) / fw, sy = double(src.height) / fh;
    for (int j = 0; j < fh; ++j) {
        const double v = std::clamp((j + 0.5) * sy - 0.5, 0.0, double(src.height - 1));
        const int y0 = int(v), y1 = std::min(y0 + 1, src.height - 1);
        const double fy = v - y0;
        uint8_t* out = dst.at(ox, oy + j);
        for (int i = 0; i < fw; ++i) {
            const double u = std::clamp((i + 0.5) * sx - 0.5, 0.0, double(src.width - 1));
            const int x0 = int(u), x1 = std::min(x0 + 1, src.width - 1);
            const double fx = u - x0;
            const uint8_t *a = src.at(x0, y0), *b = src.at(x1, y0), *c = src.at(x0, y1), *d = src.at(x1, y1);
            for (int k = 0; k < 3; ++k) {
                const double top = a[k] + (b[k] - a[k]) * fx, bottom = c[k] + (d[k] - c[k]) * fx;
                out[4 * i + k] = uint8_t(std::lround(top + (bottom - top) * fy));
            }
            out[4 * i + 3] = 255;
        }
    }
}

void drawMonitorLayout(const ScopeResults& r, MonitorLayout layout, int width, int height, RgbaImage& out) {
    if (out.width != width || out.height != height) out.resize(width, height);
    for (size_t i = 0; i < out.pixels.size(); i += 4) {
        out.pixels[i] = out.pixels[i + 1] = out.pixels[i + 2] = 0;
        out.pixels[i + 3] = 255;
    }
    switch (layout) {
        case MonitorLayout::Picture: drawFitted(r.picture, out, 0, 0, width, height); return;
        case MonitorLayout::Preview: drawFitted(r.preview, out, 0, 0, width, height); return;
        case MonitorLayout::Scopes:
        case MonitorLayout::Composite: break;
    }
    const Grid g = gridOf(layout);
    const int cw = width / g.cols, ch = height / g.rows;
    const auto cell = [&](int col, int row, const RgbaImage& img) { drawFitted(img, out, col * cw, row * ch, cw, ch); };
    if (layout == MonitorLayout::Scopes) {
        cell(0, 0, r.histogramImage);
        cell(1, 0, r.waveformImage);
        cell(0, 1, r.paradeImage);
        cell(1, 1, r.vectorscopeImage);
    } else {
        cell(0, 0, r.picture);
        cell(1, 0, r.waveformImage);
        cell(2, 0, r.paradeImage);
        cell(0, 1, r.histogramImage);
        cell(1, 1, r.vectorscopeImage);
        cell(2, 1, r.preview);
    }
}

}  // namespace cs
