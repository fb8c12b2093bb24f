// Preview legends (see PreviewLegend.h).
#include "PreviewLegend.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "BitmapFont.h"
#include "core/Filters.h"
#include "core/Hdr.h"
#include "core/HdrFalseColour.h"
#include "ScopeRender.h"

namespace cs {
namespace {

std::string ireText(float v) {
    char buf[16];
    if (std::abs(v - std::round(v)) < 1e-3f) std::snprintf(buf, sizeof buf, "%d", int(std::lround(v)));
    else std::snprintf(buf, sizeof buf, "%.1f", double(v));
    return buf;
}

// Source-over of `rgba` (alpha in its top byte) onto one pixel: into a transparent image this
// leaves the premultiplied colour, as ScopeRender's primitives do.
void blend(RgbaImage& img, int x, int y, uint32_t rgba) {
    if (x < 0 || y < 0 || x >= img.width || y >= img.height) return;
    const float a = float(rgba >> 24) / 255.0f;
    uint8_t* p = img.at(x, y);
    for (int c = 0; c < 3; ++c) {
        const float src = float((rgba >> (8 * c)) & 0xffu);
        p[c] = uint8_t(std::lround(float(p[c]) + (src - float(p[c])) * a));
    }
    p[3] = uint8_t(std::lround(float(p[3]) + (255.0f - float(p[3])) * a));
}

void fill(RgbaImage& img, int x0, int y0, int w, int h, uint32_t rgba) {
    for (int y = y0; y < y0 + h; ++y)
        for (int x = x0; x < x0 + w; ++x) blend(img, x, y, rgba);
}

std::string nitsText(double nits) {
    char buf[16];
    if (nits >= 1000.0) std::snprintf(buf, sizeof buf, "%gK", nits / 1000.0);
    else std::snprintf(buf, sizeof buf, "%g", nits);
    return buf;
}

}  // namespace

bool previewHasLegend(PreviewFilter filter) { return filter == PreviewFilter::Zebra || filter == PreviewFilter::FalseColour; }

std::vector<LegendEntry> previewLegendEntries(PreviewFilter filter, const FilterParams& params, Transfer transfer) {
    std::vector<LegendEntry> out;
    if (filter == PreviewFilter::FalseColour && isHdr(transfer)) {
        for (const HdrFalseColourBand& b : hdrFalseColourBands(transfer)) {
            char label[40];
            if (!(b.loNits > 0.0)) std::snprintf(label, sizeof label, "<%s", nitsText(b.hiNits).c_str());
            else if (!std::isfinite(b.hiNits)) std::snprintf(label, sizeof label, ">%s", nitsText(b.loNits).c_str());
            else std::snprintf(label, sizeof label, "%s-%s", nitsText(b.loNits).c_str(), nitsText(b.hiNits).c_str());
            // The grey band shows the luma itself: a mid grey swatch.
            out.push_back({label, b.rgba != 0 ? b.rgba : 0xff808080u, false, false});
        }
        if (!out.empty()) out.back().label += " nits";
    } else if (filter == PreviewFilter::FalseColour) {
        for (const FalseColourBand& b : falseColourBands()) {
            char buf[32];
            if (!std::isfinite(b.loIre)) std::snprintf(buf, sizeof buf, "<%s", ireText(b.hiIre).c_str());
            else if (!std::isfinite(b.hiIre)) std::snprintf(buf, sizeof buf, ">%s", ireText(b.loIre).c_str());
            else std::snprintf(buf, sizeof buf, "%s-%s", ireText(b.loIre).c_str(), ireText(b.hiIre).c_str());
            const std::string label = buf;
            // Grey bands show the luma itself: their swatch is the grey of the band's middle.
            uint32_t rgba = b.rgba;
            if (rgba == 0) {
                const uint32_t g = uint32_t(std::clamp(std::lround((b.loIre + b.hiIre) / 2.0 * 2.55), 0L, 255L));
                rgba = g | (g << 8) | (g << 16) | 0xff000000u;
            }
            out.push_back({label, rgba, false, false});
        }
        out.back().label += " IRE";
    } else if (filter == PreviewFilter::Zebra) {
        char buf[48];
        std::snprintf(buf, sizeof buf, "zebra >=%s IRE", ireText(params.zebraIre).c_str());
        out.push_back({buf, 0, true, false});
        if (params.zebraLowIre >= 0.0f) {
            std::snprintf(buf, sizeof buf, "%s-%s IRE", ireText(params.zebraLowIre).c_str(), ireText(params.zebraIre).c_str());
            out.push_back({buf, 0, true, true});
        }
    }
    return out;
}

void drawPreviewLegend(RgbaImage& img, PreviewFilter filter, const FilterParams& params, Transfer transfer) {
    if (img.empty() || !previewHasLegend(filter)) return;
    const std::vector<LegendEntry> entries = previewLegendEntries(filter, params, transfer);
    const int s = std::max(1, img.height / 360);
    const int pad = 3 * s, swatch = 8 * s, text = font::kGlyphHeight * s, rowH = std::max(swatch, text) + 2 * pad;
    // Entries left to right, wrapping; rows then placed from the bottom up.
    struct Placed { int x, row; };
    std::vector<Placed> at;
    int x = pad, row = 0;
    const int maxWidth = img.width - 2 * pad;
    for (const LegendEntry& e : entries) {
        const int w = swatch + 2 * s + font::textWidth(e.label, s) + 2 * pad;
        if (x > pad && x + w > maxWidth) {
            x = pad;
            ++row;
        }
        at.push_back({x, row});
        x += w;
    }
    const int rows = row + 1;
    if (rows * rowH + pad > img.height) return;   // too small to hold it legibly
    for (int r = 0; r < rows; ++r) {
        int right = 0;
        for (size_t i = 0; i < entries.size(); ++i)
            if (at[i].row == r) right = at[i].x + swatch + 2 * s + font::textWidth(entries[i].label, s) + pad;
        const int top = img.height - pad - (rows - r) * rowH;
        fill(img, pad - pad / 2, top, right - pad / 2, rowH, 0xb4000000u);   // dark backing, 70%
    }
    for (size_t i = 0; i < entries.size(); ++i) {
        const LegendEntry& e = entries[i];
        const int top = img.height - pad - (rows - at[i].row) * rowH + pad;
        const int sx = at[i].x + pad / 2, sy = top + (std::max(swatch, text) - swatch) / 2;
        if (e.stripes) {
            // The zebra's stripes (Filters.h: period 8, 45 degrees), black over mid grey or white.
            for (int yy = 0; yy < swatch; ++yy)
                for (int xx = 0; xx < swatch; ++xx) {
                    const int k = e.whiteStripes ? (((xx - yy) % 8) + 8) % 8 : (xx + yy) % 8;
                    blend(img, sx + xx, sy + yy, k < 4 ? (e.whiteStripes ? 0xffffffffu : 0xff000000u) : 0xff808080u);
                }
        } else {
            fill(img, sx, sy, swatch, swatch, e.rgba | 0xff000000u);
        }
        drawText(img, sx + swatch + 2 * s, top + (std::max(swatch, text) - text) / 2, e.label.c_str(), 0xffe6e6e6u, s);
    }
}

}  // namespace cs
