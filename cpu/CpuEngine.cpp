// The CPU engine: the reference implementation of every scope (docs/SCOPES.md) and the
// fallback where no CUDA device exists.
//
// Work is cut into column tiles (kTile columns x every row); the pool's threads take
// tiles from a shared counter, each thread ("slot") summing into its own histograms,
// vectorscope and statistics, merged at the end (sums: the split never changes a result).
// Why tiles: the waveform and parade are [level][column] arrays of several megabytes
// (24 MB for a 10-bit 1080p parade), and a pixel's count lands on an unpredictable level,
// so counting straight into them misses the cache on nearly every pixel. A tile counts
// into small 16-bit [level][kTile] counters (a column never holds more than
// kMaxDimension pixels) that stay in L1/L2, then writes them out once, row by row.
// Within a tile each row is unpacked into component arrays first, so every stage
// (conversion, counting, statistics, picture) is a tight loop with its spec flags
// tested once per row of the tile rather than per pixel.
#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>
#include <limits>
#include <memory>
#include <string>

#include "core/Engine.h"
#include "core/Filters.h"
#include "scope/CieDiagram.h"
#include "scope/GamutDisplay.h"
#include "GamutDisplayCount.h"
#include "core/Gamut.h"
#include "core/GamutRow.h"
#include "core/Hdr.h"
#include "core/PixelAccess.h"
#include "scope/ScopeRender.h"
#include "core/ThreadPool.h"
#include "CpuEngine.h"

// The tile loop is compiled twice on x86-64 with GCC, for AVX2 and for the baseline, and
// the loader picks one for the machine (integer code: both give the very same counts; on
// AVX2 the vectorised steps run about 20% faster). Not under ThreadSanitizer: GCC
// instruments the clones' resolver, which the loader runs while it relocates the program,
// before the sanitizer's runtime exists (the program would crash before main).
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__) && \
    !defined(__SANITIZE_THREAD__)
#define CS_TILE_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define CS_TILE_CLONES
#endif

namespace cs {
namespace {

// Copies of each R'G'B' histogram per slot (a power of two).
constexpr int kHistCopies = 4;

// Columns per tile: even (a 4:2:x chroma sample never straddles two tiles); its 16-bit
// counters are 4 x levels x kTile x 2 bytes (128 KB at 8 bits, 512 KB at 10 bits: L2).
// Measured: 16 columns is clearly slower, 128 no faster.
constexpr int kTile = 64;

// What one slot (one thread's share of the tiles) accumulates beyond the waveform/parade.
struct SlotCounts {
    std::vector<uint32_t> histY;
    // R'G'B' histograms, [channel][copy][256]: neighbouring pixels often share a code, and
    // counting them into different copies (by column) keeps the increments independent.
    std::vector<uint32_t> histRgb;
    std::vector<uint32_t> vectorscope;       // unless one slot counts straight into the result
    std::vector<uint8_t> vectorscopeRows;    // Cr rows this slot touched (to merge and clear only those)
    std::vector<uint16_t> columns;           // tile counters: 4 planes (Y, parade 0..2) x levels x kTile
    std::vector<uint32_t> hdrCodes;          // pixels by the code of max(R', G', B') (core/Hdr.h), when measured
    std::vector<uint32_t> cie;               // chromaticity bins (core/Gamut.h), when measured; kept zeroed by the merge
    uint64_t gamutOutside = 0;               // pixels outside the gamut target
    int32_t minU = 0, maxU = 0, minV = 0, maxV = 0;
    uint64_t sumU = 0, sumV = 0, countC = 0;
    uint64_t outOfLegal = 0, outOfGamut = 0, outOfR103 = 0;

    void reset(int levels, bool privateVectorscope, bool hdr) {
        histY.assign(size_t(levels), 0);
        hdrCodes.assign(hdr ? size_t(levels) : 0, 0);
        gamutOutside = 0;
        histRgb.assign(size_t(3) * kHistCopies * 256, 0);
        const size_t vs = privateVectorscope ? size_t(levels) * size_t(levels) : 0;
        if (vectorscope.size() != vs) {   // kept zeroed between frames by the merge
            vectorscope.assign(vs, 0);
            vectorscopeRows.assign(privateVectorscope ? size_t(levels) : 0, 0);
        }
        const size_t cols = size_t(4) * size_t(levels) * kTile;
        if (columns.size() != cols) columns.assign(cols, 0);   // kept zeroed by each tile's flush
        minU = minV = std::numeric_limits<int32_t>::max();
        maxU = maxV = std::numeric_limits<int32_t>::min();
        sumU = sumV = countC = outOfLegal = outOfGamut = outOfR103 = 0;
    }
};

// One row of one tile, unpacked: components per pixel (chroma replicated per pixel).
struct TileRow {
    alignas(64) int32_t y[kTile], cb[kTile], cr[kTile];
    alignas(64) int32_t r8[kTile], g8[kTile], b8[kTile];   // R'G'B' at 8 bits (RGB sources: as stored)
    alignas(64) int32_t rn[kTile], gn[kTile], bn[kTile];   // R'G'B' at native depth (10-bit Y'CbCr only)
};

// Everything a tile needs to know about the frame and the spec, fixed for the frame.
struct FramePlan {
    PixelSource src{};
    PixelLayout layout = PixelLayout::Planar;
    int width = 0, height = 0, levels = 256, depth = 8;
    int bytesPerSample = 1, shift = 0, log2cw = 0, log2ch = 0;
    int32_t valueMask = 255, mid = 128;
    bool rgbSource = false, gray = false;
    YuvToRgb toRgb8{}, toRgbNative{};
    RgbToYuv toYuv{};
    LegalRange legal{};
    // What to compute.
    bool yColumns = false;        // Y tile counters (waveform, luma histogram and its statistics, Y'CbCr parade)
    bool rgb8 = false;            // R'G'B' at 8 bits from Y'CbCr
    bool rgbNative = false;       // R'G'B' at native depth (10-bit RGB parade)
    bool rgbHistDirect = false;   // R'G'B' histograms counted per pixel
    bool rgbHistFromParade = false;   // ... or summed from the 8-bit RGB parade's columns
    bool paradeRgb = false, paradeYcbcr = false;
    bool vectorscope = false, stats = false, gamut = false;
    bool hdr = false;             // HDR light levels: max(R', G', B') at native depth counted (core/Hdr.h)
    uint32_t* waveform = nullptr;   // results, null when not asked for
    uint32_t* parade = nullptr;
    uint32_t* vectorscopeOut = nullptr;
    uint8_t* picture = nullptr;
    uint16_t* luma = nullptr;
    // Gamut (core/Gamut.h): R'G'B' at native depth through these tables, when measured.
    const GamutCoefficients* gamutK = nullptr;
    const float* gamutLinear = nullptr;
    uint8_t* gamutMask = nullptr;   // per pixel, 1 where outside the target (the gamut preview)
    bool cieCounts = false;         // the chromaticity bins (ScopeSpec::cie; the preview alone needs only the mask)
};

class CpuEngine final : public Engine {
public:
    explicit CpuEngine(int threads) : pool_(threads) {}
    std::string_view name() const override { return "cpu"; }
    Status process(const FrameView& frame, const ScopeSpec& spec, ScopeResults& out) override;

private:
    ThreadPool pool_;
    std::vector<SlotCounts> slots_;
    LumaPlane luma_;
    std::vector<uint8_t> gamutMask_;   // the gamut preview's outside flags, one per pixel
    RgbaImage hiddenPicture_;   // the preview's input when the picture itself is not shown
    GamutTableCache gamutTables_;
    GamutDisplayCounter gamutDisplay_;   // ScopeSpec::gamutDisplay's counts, a pass of its own
};

// A 16-bit little-endian word (host byte order independent, as loadSample).
inline int32_t word(const uint8_t* p, int i) {
    if constexpr (std::endian::native == std::endian::little) {
        uint16_t v;
        std::memcpy(&v, p + 2 * size_t(i), 2);
        return v;
    } else {
        return int32_t(uint16_t(p[2 * i] | (p[2 * i + 1] << 8)));
    }
}

// Unpacks n pixels of row y from column x0 (even) into t.y/cb/cr, or t.r8/g8/b8 plus the
// derived Y'CbCr for RGB sources. 16-bit samples keep only the bits of the depth (bits
// above it are ignored rather than indexed: core/PixelAccess.h's sampleCode, as the CUDA
// readers do).
[[gnu::always_inline]] inline void unpackRow(const FramePlan& p, int x0, int y, int n, TileRow& t) {
    const PixelSource& s = p.src;
    const int32_t mask = p.valueMask;
    switch (p.layout) {
        case PixelLayout::Planar: {
            const uint8_t* py = s.p0 + y * s.pitch0;
            const uint8_t* pu = s.p1 + (y >> s.log2ch) * s.pitch1;
            const uint8_t* pv = s.p2 + (y >> s.log2ch) * s.pitch2;
            if (p.bytesPerSample == 1) for (int i = 0; i < n; ++i) t.y[i] = py[x0 + i];
            else for (int i = 0; i < n; ++i) t.y[i] = word(py, x0 + i) & mask;
            // Chroma per chroma sample, stored to the pixels it covers (4:2:x: a pair; for an
            // odd n the copy past the last pixel is unused, kTile being even).
            auto chroma = [&](auto sample) {
                if (s.log2cw == 1) {
                    const int cx0 = x0 >> 1;
                    for (int j = 0; j < (n + 1) >> 1; ++j) {
                        const int32_t cb = sample(pu, cx0 + j), cr = sample(pv, cx0 + j);
                        t.cb[2 * j] = cb; t.cb[2 * j + 1] = cb;
                        t.cr[2 * j] = cr; t.cr[2 * j + 1] = cr;
                    }
                } else {
                    for (int i = 0; i < n; ++i) { t.cb[i] = sample(pu, x0 + i); t.cr[i] = sample(pv, x0 + i); }
                }
            };
            if (p.bytesPerSample == 1) chroma([](const uint8_t* row, int i) { return int32_t(row[i]); });
            else chroma([mask](const uint8_t* row, int i) { return word(row, i) & mask; });
            return;
        }
        case PixelLayout::SemiPlanar: {
            const uint8_t* py = s.p0 + y * s.pitch0;
            const uint8_t* pc = s.p1 + (y >> 1) * s.pitch1;
            if (p.bytesPerSample == 1) {
                for (int i = 0; i < n; ++i) t.y[i] = py[x0 + i];
                for (int i = 0; i < n; ++i) { const int cx = (x0 + i) >> 1; t.cb[i] = pc[2 * cx]; t.cr[i] = pc[2 * cx + 1]; }
            } else {
                const int sh = p.shift;
                for (int i = 0; i < n; ++i) t.y[i] = (word(py, x0 + i) >> sh) & mask;
                for (int i = 0; i < n; ++i) {
                    const int cx = (x0 + i) >> 1;
                    t.cb[i] = (word(pc, 2 * cx) >> sh) & mask;
                    t.cr[i] = (word(pc, 2 * cx + 1) >> sh) & mask;
                }
            }
            return;
        }
        case PixelLayout::PackedYuv422: {
            const uint8_t* row = s.p0 + y * s.pitch0;
            for (int i = 0; i < n; ++i) {
                const int x = x0 + i;
                const uint8_t* pair = row + (x >> 1) * 4;
                t.y[i] = pair[(x & 1) ? s.off2 : s.off0];
                t.cb[i] = pair[s.off1];
                t.cr[i] = pair[s.off3];
            }
            return;
        }
        case PixelLayout::Gray: {
            const uint8_t* py = s.p0 + y * s.pitch0;
            if (p.bytesPerSample == 1) for (int i = 0; i < n; ++i) t.y[i] = py[x0 + i];
            else for (int i = 0; i < n; ++i) t.y[i] = word(py, x0 + i) & mask;
            for (int i = 0; i < n; ++i) t.cb[i] = t.cr[i] = p.mid;
            return;
        }
        case PixelLayout::PackedRgb: {
            const uint8_t* px = s.p0 + y * s.pitch0 + x0 * s.bytesPerPixel;
            const int bpp = s.bytesPerPixel;
            for (int i = 0; i < n; ++i) {
                t.r8[i] = px[i * bpp + s.off0];
                t.g8[i] = px[i * bpp + s.off1];
                t.b8[i] = px[i * bpp + s.off2];
            }
            const RgbToYuv& k = p.toYuv;
            for (int i = 0; i < n; ++i) {
                const int32_t r = t.r8[i], g = t.g8[i], b = t.b8[i];
                t.y[i] = clampCode((k.yr * r + k.yg * g + k.yb * b + k.yOffset) >> kFixedShift, k.yMax);
                t.cb[i] = clampCode((k.ur * r + k.ug * g + k.ub * b + k.cOffset) >> kFixedShift, k.cMax);
                t.cr[i] = clampCode((k.vr * r + k.vg * g + k.vb * b + k.cOffset) >> kFixedShift, k.cMax);
            }
            return;
        }
    }
}

// A tile writes short pieces of rows far apart (the picture, the luma plane, and at the
// flush the [level][x] counts), which the hardware prefetchers do not follow: the lines a
// little ahead are requested for writing early (without it the picture alone takes over
// twice as long at 1080p). Always inlined: GCC deems a separate function that only
// prefetches free of effects and drops its calls.
constexpr int kPrefetchRows = 8;     // picture and luma rows ahead
constexpr int kPrefetchLevels = 16;  // count rows ahead at the flush
[[gnu::always_inline]] inline void prefetchForWrite(void* first, size_t bytes) {
    for (size_t b = 0; b < bytes; b += 64) __builtin_prefetch(static_cast<uint8_t*>(first) + b, 1);
}

// yuvToRgb over a row (the same expressions, so the same codes), optionally counting
// yuvOutOfGamut on the unclamped values of the same conversion.
template <bool kGamut>
[[gnu::always_inline]] inline uint32_t convertRow(const YuvToRgb& k, const int32_t* __restrict Y,
                                                  const int32_t* __restrict Cb, const int32_t* __restrict Cr, int n,
                                                  int32_t* __restrict R, int32_t* __restrict G, int32_t* __restrict B,
                                                  uint32_t* outsideR103 = nullptr) {
    // The constants as locals: the stores below cannot alias them, so the loop vectorises.
    const int32_t yOffset = k.yOffset, cOffset = k.cOffset, yMul = k.yMul, rCr = k.rCr, gCb = k.gCb, gCr = k.gCr,
                  bCb = k.bCb, outMax = k.outMax;
    const GamutBounds gamut = gamutBounds(outMax);
    const int32_t lo = gamut.lo, hi = gamut.hi;
    const GamutBounds luma = r103LumaBounds(outMax);   // EBU R 103 (core/Color.h's yuvOutsideR103)
    const int32_t llo = luma.lo, lhi = luma.hi;
    uint32_t outside = 0, r103 = 0;
    for (int i = 0; i < n; ++i) {
        const int32_t yy = yMul * (Y[i] - yOffset) + (1 << (kFixedShift - 1));
        const int32_t u = Cb[i] - cOffset, v = Cr[i] - cOffset;
        const int32_t r = (yy + rCr * v) >> kFixedShift, g = (yy - gCb * u - gCr * v) >> kFixedShift,
                      b = (yy + bCb * u) >> kFixedShift;
        if constexpr (kGamut) {
            const uint32_t rgbOut = uint32_t((r < lo) | (g < lo) | (b < lo) | (r > hi) | (g > hi) | (b > hi));
            outside += rgbOut;
            r103 += rgbOut | uint32_t((yy < llo) | (yy > lhi));
        }
        R[i] = clampCode(r, outMax);
        G[i] = clampCode(g, outMax);
        B[i] = clampCode(b, outMax);
    }
    if constexpr (kGamut) *outsideR103 += r103;
    return outside;
}

// Chromaticity bins and the pixels outside the target of n pixels' R'G'B' codes: the
// table look-ups, the arithmetic (core/GamutRow.h: passes that vectorise) and the counting,
// each its own loop. The mask (the gamut preview), when asked for, takes the flags as they are.
template <bool kUv>
[[gnu::always_inline]] inline uint32_t countGamut(const FramePlan& p, const int32_t* __restrict R,
                                                  const int32_t* __restrict G, const int32_t* __restrict B, int n,
                                                  uint32_t* __restrict bins, uint8_t* __restrict mask) {
    static_assert(kTile <= kGamutRowMax);
    const float* __restrict lin = p.gamutLinear;
    alignas(64) float lr[kTile], lg[kTile], lb[kTile];
    alignas(64) int32_t bin[kTile];
    alignas(64) uint8_t flags[kTile];
    for (int i = 0; i < n; ++i) {
        lr[i] = lin[R[i]];
        lg[i] = lin[G[i]];
        lb[i] = lin[B[i]];
    }
    const uint32_t outside = gamutRow<kUv>(*p.gamutK, lr, lg, lb, n, bin, mask ? mask : flags);
    if (!p.cieCounts) return outside;
    // Runs of one bin (flat areas, black) are added once each: repeated increments of one
    // count wait on each other. Where runs are short (noise, fine detail) the run loop's
    // branch would be mispredicted, so such rows count pixel by pixel.
    int changes = 0;
    for (int i = 1; i < n; ++i) changes += bin[i] != bin[i - 1];
    if (4 * changes > n) {
        for (int i = 0; i < n; ++i) ++bins[bin[i]];
    } else {
        int32_t current = bin[0];
        uint32_t run = 0;
        for (int i = 0; i < n; ++i) {
            if (bin[i] != current) {
                bins[current] += run;
                current = bin[i];
                run = 0;
            }
            ++run;
        }
        bins[current] += run;
    }
    return outside;
}

inline void countColumns(uint16_t* counters, const int32_t* level, int n) {
    for (int i = 0; i < n; ++i) ++counters[size_t(level[i]) * kTile + size_t(i)];
}

// Writes a tile's counters (levels x kTile) to result columns x0.. of a [level][width]
// array (optional), adds each level's total to `hist` (optional), and zeroes them.
[[gnu::always_inline]] inline void flushColumns(uint16_t* counters, int levels, int n, uint32_t* result, size_t width,
                                                uint32_t* hist) {
    for (int l = 0; l < levels; ++l) {
        uint16_t* c = counters + size_t(l) * kTile;
        if (result && l + kPrefetchLevels < levels)
            prefetchForWrite(result + size_t(l + kPrefetchLevels) * width, size_t(n) * 4);
        if (result) {
            uint32_t* dst = result + size_t(l) * width;
            for (int i = 0; i < n; ++i) dst[i] = c[i];
        }
        if (hist) {
            uint32_t sum = 0;
            for (int i = 0; i < n; ++i) sum += c[i];
            hist[l] += sum;
        }
        std::memset(c, 0, sizeof(uint16_t) * size_t(n));
    }
}

// Counts columns [x0, x1) over every row into `slot`, writes their waveform/parade columns,
// picture and luma pixels. Its helpers are inlined, so each clone vectorises them its way.
CS_TILE_CLONES void processTile(const FramePlan& p, SlotCounts& slot, bool directVectorscope, int x0, int x1) {
    const int n = x1 - x0, W = p.width, H = p.height, L = p.levels;
    const size_t planeSize = size_t(L) * kTile;
    uint16_t* yCols = slot.columns.data();
    uint16_t* pCols[3] = {yCols + planeSize, yCols + 2 * planeSize, yCols + 3 * planeSize};
    uint32_t* vs = directVectorscope ? p.vectorscopeOut : slot.vectorscope.data();
    uint8_t* vsRows = directVectorscope ? nullptr : slot.vectorscopeRows.data();
    const int chromaStep = p.rgbSource ? 1 : 1 << p.log2cw;
    const int chMask = p.rgbSource ? 0 : (1 << p.log2ch) - 1;
    const LegalRange lg = p.legal;
    const uint32_t yRange = uint32_t(lg.yHi - lg.yLo), cRange = uint32_t(lg.cHi - lg.cLo);
    uint32_t* histR = slot.histRgb.data();
    uint32_t* histG = histR + kHistCopies * 256;
    uint32_t* histB = histG + kHistCopies * 256;
    TileRow t;

    for (int y = 0; y < H; ++y) {
        if (y + kPrefetchRows < H) {
            const size_t ahead = size_t(y + kPrefetchRows) * size_t(W) + size_t(x0);
            if (p.picture) prefetchForWrite(p.picture + ahead * 4, size_t(n) * 4);
            if (p.luma) prefetchForWrite(p.luma + ahead, size_t(n) * 2);
        }
        unpackRow(p, x0, y, n, t);
        // R'G'B' at 8 bits (RGB sources: as stored) and at native depth.
        if (p.rgb8) {
            if (p.gamut) {
                uint32_t r103 = 0;
                slot.outOfGamut += convertRow<true>(p.toRgb8, t.y, t.cb, t.cr, n, t.r8, t.g8, t.b8, &r103);
                slot.outOfR103 += r103;
            }
            else convertRow<false>(p.toRgb8, t.y, t.cb, t.cr, n, t.r8, t.g8, t.b8);
        }
        const int32_t *rn = t.r8, *gn = t.g8, *bn = t.b8;
        if (p.rgbNative) {
            convertRow<false>(p.toRgbNative, t.y, t.cb, t.cr, n, t.rn, t.gn, t.bn);
            rn = t.rn; gn = t.gn; bn = t.bn;
        }
        if (p.hdr) {
            uint32_t* codes = slot.hdrCodes.data();
            for (int i = 0; i < n; ++i) ++codes[std::max(std::max(rn[i], gn[i]), bn[i])];
        }
        if (p.gamutK) {
            uint8_t* mask = p.gamutMask ? p.gamutMask + size_t(y) * size_t(W) + size_t(x0) : nullptr;
            slot.gamutOutside += p.gamutK->mode == uint8_t(CieMode::Uv)
                                     ? countGamut<true>(p, rn, gn, bn, n, slot.cie.data(), mask)
                                     : countGamut<false>(p, rn, gn, bn, n, slot.cie.data(), mask);
        }
        // Column counters.
        if (p.yColumns) countColumns(yCols, t.y, n);
        if (p.paradeRgb) {
            countColumns(pCols[0], rn, n);
            countColumns(pCols[1], gn, n);
            countColumns(pCols[2], bn, n);
        } else if (p.paradeYcbcr) {   // plane 0 is the Y counters, copied at the flush
            countColumns(pCols[1], t.cb, n);
            countColumns(pCols[2], t.cr, n);
        }
        if (p.rgbHistDirect)
            for (int i = 0; i < n; ++i) {
                const size_t copy = size_t(i & (kHistCopies - 1)) * 256;
                ++histR[copy + size_t(t.r8[i])];
                ++histG[copy + size_t(t.g8[i])];
                ++histB[copy + size_t(t.b8[i])];
            }
        // Per chroma sample, at the pixel that starts it: the vectorscope counts it once for
        // every pixel it covers, and chroma statistics read it once (signalstats reads the
        // chroma planes at their own resolution).
        if ((y & chMask) == 0 && (p.vectorscope || p.stats)) {
            if (p.vectorscope) {
                const uint32_t rows = uint32_t(std::min(chMask + 1, H - y));
                for (int i = 0; i < n; i += chromaStep) {
                    const uint32_t covered = rows * uint32_t(std::min(chromaStep, W - (x0 + i)));
                    vs[size_t(t.cr[i]) * size_t(L) + size_t(t.cb[i])] += covered;
                    if (vsRows) vsRows[t.cr[i]] = 1;
                }
            }
            if (p.stats) {
                int32_t minU = slot.minU, maxU = slot.maxU, minV = slot.minV, maxV = slot.maxV;
                uint64_t sumU = 0, sumV = 0, count = 0;
                for (int i = 0; i < n; i += chromaStep) {
                    minU = std::min(minU, t.cb[i]); maxU = std::max(maxU, t.cb[i]); sumU += uint64_t(t.cb[i]);
                    minV = std::min(minV, t.cr[i]); maxV = std::max(maxV, t.cr[i]); sumV += uint64_t(t.cr[i]);
                    ++count;
                }
                slot.minU = minU; slot.maxU = maxU; slot.minV = minV; slot.maxV = maxV;
                slot.sumU += sumU; slot.sumV += sumV; slot.countC += count;
            }
        }
        if (p.stats) {
            uint32_t illegal = 0;
            for (int i = 0; i < n; ++i)
                illegal += uint32_t((uint32_t(t.y[i] - lg.yLo) > yRange) | (uint32_t(t.cb[i] - lg.cLo) > cRange) |
                                    (uint32_t(t.cr[i] - lg.cLo) > cRange));
            slot.outOfLegal += illegal;
        }
        if (p.picture) {
            uint8_t* dst = p.picture + (size_t(y) * size_t(W) + size_t(x0)) * 4;
            if constexpr (std::endian::native == std::endian::little) {
                // Bytes R, G, B, A as one little-endian word (codes are 0..255).
                uint32_t px[kTile];
                for (int i = 0; i < n; ++i)
                    px[i] = uint32_t(t.r8[i]) | uint32_t(t.g8[i]) << 8 | uint32_t(t.b8[i]) << 16 | 0xff000000u;
                std::memcpy(dst, px, size_t(n) * 4);
            } else {
                for (int i = 0; i < n; ++i) {
                    dst[4 * i] = uint8_t(t.r8[i]);
                    dst[4 * i + 1] = uint8_t(t.g8[i]);
                    dst[4 * i + 2] = uint8_t(t.b8[i]);
                    dst[4 * i + 3] = 255;
                }
            }
        }
        if (p.luma) {
            uint16_t* dst = p.luma + size_t(y) * size_t(W) + size_t(x0);
            for (int i = 0; i < n; ++i) dst[i] = uint16_t(t.y[i]);
        }
    }

    // Write the tile's columns out; level totals give the luma histogram (and, from the
    // 8-bit RGB parade, the R'G'B' histograms).
    const size_t paradePlane = size_t(L) * size_t(W);
    uint32_t* paradeAt = p.parade ? p.parade + x0 : nullptr;
    if (p.yColumns) {
        if (p.paradeYcbcr && paradeAt)
            for (int l = 0; l < L; ++l) {
                const uint16_t* c = yCols + size_t(l) * kTile;
                uint32_t* dst = paradeAt + size_t(l) * size_t(W);
                for (int i = 0; i < n; ++i) dst[i] = c[i];
            }
        flushColumns(yCols, L, n, p.waveform ? p.waveform + x0 : nullptr, size_t(W), slot.histY.data());
    }
    if (p.paradeRgb) {
        const bool sumHist = p.rgbHistFromParade;
        uint32_t* hists[3] = {histR, histG, histB};
        for (int c = 0; c < 3; ++c)
            flushColumns(pCols[c], L, n, paradeAt ? paradeAt + size_t(c) * paradePlane : nullptr, size_t(W),
                         sumHist ? hists[c] : nullptr);
    } else if (p.paradeYcbcr) {
        for (int c = 1; c < 3; ++c)
            flushColumns(pCols[c], L, n, paradeAt ? paradeAt + size_t(c) * paradePlane : nullptr, size_t(W), nullptr);
    }
}

Status CpuEngine::process(const FrameView& f, const ScopeSpec& spec, ScopeResults& out) {
    if (countsDiffer(spec)) return process(f, countedSpec(spec), out);   // RGB overlay / YRGB: the R'G'B' parade's counts
    if (f.onDevice) return Status::error("the CPU engine cannot read a frame held in GPU memory");
    if (f.format >= PixelFormat::Count) return Status::error("unsupported pixel format");
    if (!f.valid())
        return Status::error("invalid frame " + std::to_string(f.width) + "x" + std::to_string(f.height) + " " +
                             std::string(formatInfo(f.format).name) + " (size out of range or plane missing)");
    const auto& info = formatInfo(f.format);
    const int W = f.width, H = f.height, depth = info.bitDepth, L = 1 << depth;

    out.width = W; out.height = H; out.bitDepth = depth; out.levels = L; out.format = f.format;
    out.color = applyOverride(f.color, spec.colorOverride);
    out.paradeMode = spec.paradeMode;
    const Matrix m = out.color.matrix;
    const Range r = out.color.range;

    const bool showPicture = spec.displayImages && spec.picture;
    const bool wantPicture = showPicture || spec.preview != PreviewFilter::None;
    const bool wantLuma = previewNeedsLuma(spec.preview);

    FramePlan p;
    p.src = makePixelSource(f);
    p.layout = info.layout;
    p.width = W; p.height = H; p.levels = L; p.depth = depth;
    p.bytesPerSample = info.bytesPerSample;
    p.shift = p.src.shift;
    p.log2cw = info.log2ChromaW; p.log2ch = info.log2ChromaH;
    p.valueMask = L - 1;
    p.mid = 1 << (depth - 1);
    p.rgbSource = info.isRgb;
    p.gray = info.layout == PixelLayout::Gray;
    p.toRgb8 = makeYuvToRgb(m, r, depth, 8);
    p.toRgbNative = makeYuvToRgb(m, r, depth, depth);
    p.toYuv = makeRgbToYuv(m, r, 8);
    p.legal = legalRange(depth);
    const bool paradeRgb = spec.parade && spec.paradeMode == ParadeMode::Rgb;
    p.paradeRgb = paradeRgb;
    p.paradeYcbcr = spec.parade && !paradeRgb;
    p.yColumns = spec.waveform || spec.histogram || spec.stats || p.paradeYcbcr;
    p.rgb8 = !info.isRgb && (spec.histogram || wantPicture || spec.stats || (paradeRgb && depth == 8));
    p.rgbNative = !info.isRgb && paradeRgb && depth != 8;   // at 8 bits the native conversion is the 8-bit one
    // At 8 bits the RGB parade's level totals are the R'G'B' histograms.
    p.rgbHistFromParade = spec.histogram && paradeRgb && depth == 8;
    p.rgbHistDirect = spec.histogram && !p.rgbHistFromParade;
    p.vectorscope = spec.vectorscope;
    p.stats = spec.stats;
    p.gamut = spec.stats && !info.isRgb && !p.gray;
    // HDR light levels: R'G'B' at native depth (at 8 bits the 8-bit conversion is it).
    p.hdr = spec.hdr && isHdr(out.color.transfer);
    if (p.hdr && !info.isRgb) (depth == 8 ? p.rgb8 : p.rgbNative) = true;
    // Chromaticity: R'G'B' at native depth (at 8 bits the 8-bit conversion is it).
    // The gamut preview implies the tables: its mask is written by the counting pass.
    const bool cie = spec.cie || spec.preview == PreviewFilter::Gamut;
    if (cie) {
        const GamutTables& gt = gamutTables_.get(effectivePrimaries(out.color, H), out.color.transfer, spec.gamutTarget,
                                                 spec.cieMode, L);
        p.gamutK = &gt.k;
        p.cieCounts = spec.cie;
        p.gamutLinear = gt.linear.data();
        if (!info.isRgb) (depth == 8 ? p.rgb8 : p.rgbNative) = true;
    }

    // Results. Waveform and parade are written whole by the tiles: sized, not cleared.
    if (spec.waveform) out.waveform.resize(size_t(L) * size_t(W)); else out.waveform.clear();
    if (spec.parade) out.parade.resize(size_t(3) * size_t(L) * size_t(W)); else out.parade.clear();
    // Tiles of kTile columns, handed out to the pool's threads as they come free.
    const int tiles = (W + kTile - 1) / kTile;
    const int slots = std::min(pool_.size(), tiles);
    // The vectorscope (4 MB at 10 bits): one slot counts straight into the result; several
    // count into their own and the merge below writes every row of the result, in parallel.
    const bool directVectorscope = slots == 1;
    if (!spec.vectorscope) out.vectorscope.clear();
    else if (directVectorscope) out.vectorscope.assign(size_t(L) * size_t(L), 0);
    else out.vectorscope.resize(size_t(L) * size_t(L));
    p.waveform = spec.waveform ? out.waveform.data() : nullptr;
    p.parade = spec.parade ? out.parade.data() : nullptr;
    p.vectorscopeOut = spec.vectorscope ? out.vectorscope.data() : nullptr;
    // The picture is written whole too; when it is only the preview's input it lives here.
    RgbaImage& picture = showPicture ? out.picture : hiddenPicture_;
    if (wantPicture) {
        if (picture.width != W || picture.height != H || picture.pixels.size() != size_t(W) * size_t(H) * 4)
            picture.resize(W, H);
        p.picture = picture.pixels.data();
    }
    if (!showPicture) out.picture = {};
    if (!wantPicture) hiddenPicture_ = {};
    if (spec.preview == PreviewFilter::Gamut) {
        gamutMask_.resize(size_t(W) * size_t(H));
        p.gamutMask = gamutMask_.data();
    } else {
        gamutMask_ = {};
    }
    if (wantLuma) {
        luma_.width = W; luma_.height = H; luma_.bitDepth = depth; luma_.range = r;
        luma_.transfer = out.color.transfer;
        luma_.values.resize(size_t(W) * size_t(H));
        p.luma = luma_.values.data();
    }

    slots_.resize(size_t(std::max(slots, 1)));
    for (int s = 0; s < slots; ++s) {
        slots_[size_t(s)].reset(L, spec.vectorscope && !directVectorscope, p.hdr);
        std::vector<uint32_t>& bins = slots_[size_t(s)].cie;
        const size_t binCount = spec.cie ? size_t(kCieBins) * kCieBins : 0;
        if (bins.size() != binCount) bins.assign(binCount, 0);
    }
    std::atomic<int> nextTile{0};
    pool_.parallelFor(
        slots,
        [&](int slot, int, int) {
            for (int tile = nextTile.fetch_add(1); tile < tiles; tile = nextTile.fetch_add(1))
                processTile(p, slots_[size_t(slot)], directVectorscope, tile * kTile, std::min(W, (tile + 1) * kTile));
        },
        slots);

    // Merge the slots. The vectorscope: each result row is the sum of the slots' rows, of
    // which only those a slot touched are read (and zeroed, so the slot's buffer is clean
    // for the next frame); rows no slot touched are zero.
    if (spec.vectorscope && !directVectorscope) {
        pool_.parallelFor(L, [&](int, int r0, int r1) {
            for (int cr = r0; cr < r1; ++cr) {
                uint32_t* dst = out.vectorscope.data() + size_t(cr) * size_t(L);
                bool written = false;
                for (int s = 0; s < slots; ++s) {
                    SlotCounts& slot = slots_[size_t(s)];
                    if (!slot.vectorscopeRows[size_t(cr)]) continue;
                    uint32_t* src = slot.vectorscope.data() + size_t(cr) * size_t(L);
                    if (written) for (int cb = 0; cb < L; ++cb) dst[cb] += src[cb];
                    else std::memcpy(dst, src, sizeof(uint32_t) * size_t(L));
                    written = true;
                    std::memset(src, 0, sizeof(uint32_t) * size_t(L));
                    slot.vectorscopeRows[size_t(cr)] = 0;
                }
                if (!written) std::memset(dst, 0, sizeof(uint32_t) * size_t(L));
            }
        });
    }
    auto sumSlots = [&](std::vector<uint32_t>& dst, std::vector<uint32_t> SlotCounts::*member, size_t n) {
        dst.assign(n, 0);
        for (int s = 0; s < slots; ++s) {
            const auto& src = slots_[size_t(s)].*member;
            for (size_t i = 0; i < n; ++i) dst[i] += src[i];
        }
    };
    std::vector<uint32_t> histY;
    if (spec.histogram || spec.stats) sumSlots(spec.histogram ? out.histY : histY, &SlotCounts::histY, size_t(L));
    if (!spec.histogram) out.histY.clear();
    if (spec.histogram) {
        std::vector<uint32_t>* rgb[3] = {&out.histR, &out.histG, &out.histB};
        for (int c = 0; c < 3; ++c) {
            std::vector<uint32_t>& dst = *rgb[c];
            dst.assign(256, 0);
            for (int s = 0; s < slots; ++s)
                for (int k = 0; k < kHistCopies; ++k) {
                    const uint32_t* src = slots_[size_t(s)].histRgb.data() + (size_t(c) * kHistCopies + size_t(k)) * 256;
                    for (size_t v = 0; v < 256; ++v) dst[v] += src[v];
                }
        }
    } else {
        out.histR.clear(); out.histG.clear(); out.histB.clear();
    }

    gamutDisplay_.count(f, out.color, spec, pool_, out.gamutDisplay);

    out.hdr = {};
    if (p.hdr) {
        out.hdr.measured = true;
        out.hdr.transfer = out.color.transfer;
        sumSlots(out.hdr.maxCodes, &SlotCounts::hdrCodes, size_t(L));
        finishHdrStats(out.hdr);
    }

    out.gamut.measured = spec.cie;
    if (spec.cie) {
        GamutResults& g = out.gamut;
        g.source = effectivePrimaries(out.color, H);
        g.target = spec.gamutTarget;
        g.mode = spec.cieMode;
        // Row by row on the pool: the sum of the slots' rows, each slot's row zeroed for the
        // next frame as it is read.
        g.counts.resize(size_t(kCieBins) * kCieBins);
        pool_.parallelFor(kCieBins, [&](int, int r0, int r1) {
            const size_t begin = size_t(r0) * kCieBins, end = size_t(r1) * kCieBins;
            uint32_t* dst = g.counts.data();
            for (int s = 0; s < slots; ++s) {
                uint32_t* src = slots_[size_t(s)].cie.data();
                if (s == 0) std::copy(src + begin, src + end, dst + begin);
                else for (size_t i = begin; i < end; ++i) dst[i] += src[i];
                std::fill(src + begin, src + end, 0u);
            }
        });
        g.outside = 0;
        for (int s = 0; s < slots; ++s) g.outside += slots_[size_t(s)].gamutOutside;
        g.outsideShare = double(g.outside) / (double(W) * double(H));
    } else {
        out.gamut = {};
    }

    out.stats = {};
    if (spec.stats) {
        // Luma statistics from the luma histogram: every pixel's Y, exactly.
        const std::vector<uint32_t>& hy = spec.histogram ? out.histY : histY;
        int32_t minY = std::numeric_limits<int32_t>::max(), maxY = std::numeric_limits<int32_t>::min();
        uint64_t sumY = 0;
        for (int l = 0; l < L; ++l) {
            if (hy[size_t(l)] == 0) continue;
            minY = std::min(minY, l); maxY = std::max(maxY, l);
            sumY += uint64_t(l) * hy[size_t(l)];
        }
        SlotCounts t;
        t.minU = t.minV = std::numeric_limits<int32_t>::max();
        t.maxU = t.maxV = std::numeric_limits<int32_t>::min();
        for (int s = 0; s < slots; ++s) {
            const SlotCounts& c = slots_[size_t(s)];
            t.minU = std::min(t.minU, c.minU); t.maxU = std::max(t.maxU, c.maxU); t.sumU += c.sumU;
            t.minV = std::min(t.minV, c.minV); t.maxV = std::max(t.maxV, c.maxV); t.sumV += c.sumV;
            t.countC += c.countC; t.outOfLegal += c.outOfLegal; t.outOfGamut += c.outOfGamut;
            t.outOfR103 += c.outOfR103;
        }
        const double pixels = double(W) * double(H);
        const uint64_t countY = uint64_t(W) * uint64_t(H);
        out.stats.y = {minY, maxY, double(sumY) / double(countY)};
        out.stats.u = {t.minU, t.maxU, double(t.sumU) / double(t.countC)};
        out.stats.v = {t.minV, t.maxV, double(t.sumV) / double(t.countC)};
        out.stats.outOfLegal = double(t.outOfLegal) / pixels;
        out.stats.outOfGamut = double(t.outOfGamut) / pixels;
        out.stats.outOfR103 = double(t.outOfR103) / pixels;
    }

    // Display images.
    if (spec.preview == PreviewFilter::Gamut) gamutHighlight(picture, gamutMask_.data(), kGamutWarningColour, out.preview, &pool_);
    else if (spec.preview != PreviewFilter::None) applyPreview(picture, luma_, spec, out.preview, &pool_);
    else out.preview = {};
    if (spec.displayImages) {
        // The scope images are independent: draw them side by side on the pool, the
        // costliest first (threads take the next one as they come free).
        pool_.parallelFor(
            6,
            [&](int, int b, int e) {
                for (int i = b; i < e; ++i) {
                    if (i == 0) { if (spec.parade) renderParade(out, spec, out.paradeImage); else out.paradeImage = {}; }
                    if (i == 1) { if (spec.waveform) renderWaveform(out, spec, out.waveformImage); else out.waveformImage = {}; }
                    if (i == 2) { if (spec.histogram) renderHistogram(out, spec, out.histogramImage); else out.histogramImage = {}; }
                    if (i == 3) { if (spec.vectorscope) renderVectorscope(out, spec, out.vectorscopeImage); else out.vectorscopeImage = {}; }
                    if (i == 4) { if (spec.cie && spec.cieCounts) renderCieDiagram(out, spec, out.cieImage); else out.cieImage = {}; }
                    if (i == 5) renderGamutDisplay(out, spec, out.gamutDisplayImage);   // None: empty
                }
            },
            6);
    } else {
        out.histogramImage = out.waveformImage = out.paradeImage = out.vectorscopeImage = {};
        out.cieImage = {};
        out.gamutDisplayImage = {};
    }
    return {};
}

}  // namespace

std::unique_ptr<Engine> makeCpuEngine(int threads) { return std::make_unique<CpuEngine>(threads); }

}  // namespace cs
