// scope/CieDiagram: the counts drawn over the graticule. Each lit bin is a 5 x 5 dot (per
// display pixel it covers), brighter with more pixels; bins far apart draw the same dots
// together as alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "scope/CieDiagram.h"
#include "core/Gamut.h"

namespace cs {
namespace {

struct DifferingPixels {
    int x0 = 1 << 30, y0 = 1 << 30, x1 = -1, y1 = -1, pixels = 0;
};

// The pixels where `b` differs from `a`, and their bounding box.
DifferingPixels differingPixels(const RgbaImage& a, const RgbaImage& b) {
    DifferingPixels box;
    for (int y = 0; y < a.height; ++y)
        for (int x = 0; x < a.width; ++x) {
            const size_t i = (size_t(y) * size_t(a.width) + size_t(x)) * 4;
            if (std::equal(&a.pixels[i], &a.pixels[i] + 4, &b.pixels[i])) continue;
            box.x0 = std::min(box.x0, x); box.x1 = std::max(box.x1, x);
            box.y0 = std::min(box.y0, y); box.y1 = std::max(box.y1, y);
            ++box.pixels;
        }
    return box;
}

ScopeResults emptyCounts(CieMode mode) {
    ScopeResults r;
    r.width = 1920;
    r.height = 1080;
    r.gamut.measured = true;
    r.gamut.mode = mode;
    r.gamut.source = r.gamut.target = Primaries::Bt709;
    r.gamut.counts.assign(size_t(kCieBins) * kCieBins, 0);
    return r;
}

TEST(CieDiagram, EachBinIsOneDotAndDistantBinsDrawTogetherAsAlone) {
    for (CieMode mode : {CieMode::Xy, CieMode::Uv})
        for (int size : {540, 1200}) {
            ScopeSpec spec;
            spec.cieSize = size;
            ScopeResults r = emptyCounts(mode);
            RgbaImage empty, all;
            renderCieDiagram(r, spec, empty);
            // Bins 56 apart on a grid (their dots cannot touch), inside the plot.
            std::vector<std::pair<int, RgbaImage>> alone;
            for (int vb = 120; vb < 400; vb += 56)
                for (int ub = 120; ub < 400; ub += 56) {
                    const int bin = vb * kCieBins + ub;
                    ScopeResults one = emptyCounts(mode);
                    one.gamut.counts[size_t(bin)] = uint32_t(1 + vb * ub);
                    RgbaImage img;
                    renderCieDiagram(one, spec, img);
                    const DifferingPixels d = differingPixels(empty, img);
                    ASSERT_GT(d.pixels, 15) << "bin " << ub << "," << vb;
                    // A 5 x 5 dot per display pixel the bin covers: one at 540, up to three at 1200.
                    const int most = size <= 540 ? 4 : 6;
                    ASSERT_LE(d.x1 - d.x0, most) << "bin " << ub << "," << vb << " size " << size;
                    ASSERT_LE(d.y1 - d.y0, most) << "bin " << ub << "," << vb << " size " << size;
                    r.gamut.counts[size_t(bin)] = uint32_t(1 + vb * ub);
                    alone.emplace_back(bin, std::move(img));
                }
            renderCieDiagram(r, spec, all);
            // Together: each dot as drawn alone, nothing else changed.
            RgbaImage expected = empty;
            for (const auto& [bin, img] : alone)
                for (size_t i = 0; i < img.pixels.size(); i += 4)
                    if (!std::equal(&img.pixels[i], &img.pixels[i] + 4, &empty.pixels[i]))
                        std::copy(&img.pixels[i], &img.pixels[i] + 4, &expected.pixels[i]);
            EXPECT_TRUE(all.pixels == expected.pixels) << "mode " << int(mode) << " size " << size;
        }
}

TEST(CieDiagram, MorePixelsInABinDrawABrighterDot) {
    ScopeSpec spec;
    ScopeResults r = emptyCounts(CieMode::Xy);
    RgbaImage empty;
    renderCieDiagram(r, spec, empty);
    const size_t bin = size_t(200) * kCieBins + 200;   // x 0.31, y 0.35: near white
    int previous = -1;
    for (uint32_t count : {1u, 100u, 10000u, 1000000u}) {
        r.gamut.counts[bin] = count;
        RgbaImage img;
        renderCieDiagram(r, spec, img);
        const DifferingPixels d = differingPixels(empty, img);
        ASSERT_GT(d.pixels, 0) << count;
        const size_t centre = (size_t((d.y0 + d.y1) / 2) * size_t(img.width) + size_t((d.x0 + d.x1) / 2)) * 4;
        const int brightness = img.pixels[centre] + img.pixels[centre + 1] + img.pixels[centre + 2];
        EXPECT_GT(brightness, previous) << count;
        previous = brightness;
    }
}

}  // namespace
}  // namespace cs
