// FFmpeg 5.1's signalstats, blackdetect and freezedetect measurements (SignalStats.h).
#include "SignalStats.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <numbers>

#include "core/PixelAccess.h"
#include "core/ThreadPool.h"

namespace cs {
namespace {

void prepare(const FrameView& f, YuvPlanes& p) {
    const auto& info = formatInfo(f.format);
    p.width = f.width;
    p.height = f.height;
    p.bitDepth = info.bitDepth;
    p.log2ch = info.log2ChromaH;
    p.chromaWidth = chromaWidth(f.format, f.width);
    p.chromaHeight = chromaHeight(f.format, f.height);
    p.y.resize(size_t(p.width) * size_t(p.height));
    p.u.resize(size_t(p.chromaWidth) * size_t(p.chromaHeight));
    p.v.resize(p.u.size());
}

// The chroma rows whose first luma row is in [y0, y1): contiguous luma chunks give
// contiguous chroma chunks that cover every chroma row once.
int firstChromaRow(int y, int log2ch) { return (y + (1 << log2ch) - 1) >> log2ch; }

// Luma rows [y0, y1) of `f` and their chroma rows into `p` (prepare()d).
void unpackRows(const FrameView& f, YuvPlanes& p, int y0, int y1) {
    const auto& info = formatInfo(f.format);
    const PixelSource src = makePixelSource(f);
    const int32_t mid = 1 << (info.bitDepth - 1);
    const int c0 = firstChromaRow(y0, info.log2ChromaH), c1 = y1 == p.height ? p.chromaHeight : firstChromaRow(y1, info.log2ChromaH);
    const auto loadRows = [&](int plane, int width, int r0, int r1, std::vector<uint16_t>& out) {
        for (int y = r0; y < r1; ++y) {
            const uint8_t* row = f.data[size_t(plane)] + std::ptrdiff_t(y) * f.pitch[size_t(plane)];
            uint16_t* dst = &out[size_t(y) * size_t(width)];
            for (int x = 0; x < width; ++x) dst[x] = uint16_t(loadSample(row, x, src.bytesPerSample, src.shift, src.valueMask));
        }
    };
    if (info.layout == PixelLayout::Planar) {   // the common case, plane by plane
        loadRows(0, p.width, y0, y1, p.y);
        loadRows(1, p.chromaWidth, c0, c1, p.u);
        loadRows(2, p.chromaWidth, c0, c1, p.v);
        return;
    }
    if (info.layout == PixelLayout::Gray) {
        loadRows(0, p.width, y0, y1, p.y);
        std::fill(p.u.begin() + std::ptrdiff_t(c0) * p.chromaWidth, p.u.begin() + std::ptrdiff_t(c1) * p.chromaWidth, uint16_t(mid));
        std::fill(p.v.begin() + std::ptrdiff_t(c0) * p.chromaWidth, p.v.begin() + std::ptrdiff_t(c1) * p.chromaWidth, uint16_t(mid));
        return;
    }
    for (int y = y0; y < y1; ++y)
        for (int x = 0; x < p.width; ++x) p.y[size_t(y) * size_t(p.width) + size_t(x)] = uint16_t(readYuv(src, x, y, mid).y);
    for (int cy = c0; cy < c1; ++cy)
        for (int cx = 0; cx < p.chromaWidth; ++cx) {
            const YuvSample s = readYuv(src, cx << info.log2ChromaW, cy << info.log2ChromaH, mid);
            p.u[size_t(cy) * size_t(p.chromaWidth) + size_t(cx)] = uint16_t(s.cb);
            p.v[size_t(cy) * size_t(p.chromaWidth) + size_t(cx)] = uint16_t(s.cr);
        }
}

// min, low (10%), avg, high (90%), max of a histogram over `samples`, as signalstats.
struct Percentiles { int min = -1, low = -1, high = -1, max = -1; double avg = 0; };
Percentiles percentiles(const uint32_t* hist, int levels, int64_t samples) {
    Percentiles r;
    const int64_t lowp = std::lrint(double(samples) * 10 / 100.), highp = std::lrint(double(samples) * 90 / 100.);
    int64_t acc = 0, total = 0;
    for (int i = 0; i < levels; ++i) {
        const int level = i;
        if (r.min < 0 && hist[i]) r.min = level;
        if (hist[i]) r.max = level;
        total += int64_t(hist[i]) * level;
        acc += hist[i];
        if (r.low == -1 && acc >= lowp) r.low = level;
        if (r.high == -1 && acc >= highp) r.high = level;
    }
    r.avg = samples ? double(total) / double(samples) : 0.0;
    return r;
}

bool toutOutlier(uint8_t x, uint8_t y, uint8_t z) { return ((std::abs(x - y) + std::abs(z - y)) / 2) - std::abs(z - x) > 4; }

}  // namespace

int signalstatsSat(int u, int v, int mid) { return int(std::hypot(float(u - mid), float(v - mid))); }

int signalstatsHue(int u, int v, int mid) {
    return int(std::fmod(std::floor((180.f / float(std::numbers::pi)) * std::atan2(float(u - mid), float(v - mid)) + 180.f), 360.f));
}

void finishSignalStats(const SignalStatsCounts& n, SignalStats& out) {
    const int64_t fs = n.lumaSamples, cfs = n.chromaSamples;
    const Percentiles py = percentiles(n.histY, n.levels, fs), pu = percentiles(n.histU, n.levels, cfs),
                      pv = percentiles(n.histV, n.levels, cfs), ps = percentiles(n.histSat, n.levels, cfs);
    out.ymin = py.min; out.ylow = py.low; out.yavg = py.avg; out.yhigh = py.high; out.ymax = py.max;
    out.umin = pu.min; out.ulow = pu.low; out.uavg = pu.avg; out.uhigh = pu.high; out.umax = pu.max;
    out.vmin = pv.min; out.vlow = pv.low; out.vavg = pv.avg; out.vhigh = pv.high; out.vmax = pv.max;
    out.satmin = ps.min; out.satlow = ps.low; out.satavg = ps.avg; out.sathigh = ps.high; out.satmax = ps.max;
    int64_t accHue = 0, totHue = 0;
    out.huemed = -1;
    for (int h = 0; h < 360; ++h) {
        totHue += int64_t(n.histHue[h]) * h;
        accHue += n.histHue[h];
        if (out.huemed == -1 && accHue > cfs / 2) out.huemed = h;
    }
    out.hueavg = cfs ? double(totHue) / double(cfs) : 0.0;
    out.ydif = fs ? double(n.difY) / double(fs) : 0.0;
    out.udif = cfs ? double(n.difU) / double(cfs) : 0.0;
    out.vdif = cfs ? double(n.difV) / double(cfs) : 0.0;
    out.blackPixels = int64_t(n.black);
    out.ybitdepth = std::popcount(n.maskY);
    out.ubitdepth = std::popcount(n.maskU);
    out.vbitdepth = std::popcount(n.maskV);
    out.brng = fs ? double(n.brng) / double(fs) : 0.0;
    out.vrep = fs ? double(n.vrepRows * uint64_t(n.width)) / double(fs) : 0.0;
    out.tout = fs ? double(n.tout) / double(fs) : 0.0;
}

int blackThresholdFor(double ratio, int bitDepth, bool fullRange) {
    const int max = (1 << bitDepth) - 1, factor = 1 << (bitDepth - 8);
    return fullRange ? int(unsigned(ratio * max)) : int(unsigned(16 * factor + ratio * (235 - 16) * factor));
}

Status SignalStatsMeter::measure(const FrameView& frame, int blackThreshold, SignalStats& out) {
    if (frame.onDevice) return Status::error("signalstats reads frames in host memory only");
    if (formatInfo(frame.format).isRgb) return Status::error("signalstats needs a Y'CbCr source, not R'G'B'");
    if (!pool_) pool_ = std::make_unique<ThreadPool>();
    std::swap(older_, prev_);
    std::swap(prev_, cur_);
    frames_ = std::min<int64_t>(frames_ + 1, 3);
    lumaDifference_.reset();
    chromaDifference_.reset();
    prepare(frame, cur_);
    const YuvPlanes& c = cur_;
    pool_->parallelFor(c.height, [&](int, int y0, int y1) { unpackRows(frame, cur_, y0, y1); });
    const bool samePrev = frames_ >= 2 && prev_.width == c.width && prev_.height == c.height &&
                          prev_.chromaWidth == c.chromaWidth && prev_.chromaHeight == c.chromaHeight &&
                          prev_.bitDepth == c.bitDepth;
    const YuvPlanes& p = samePrev ? prev_ : c;   // signalstats: the first frame is its own previous

    const int levels = 1 << c.bitDepth, mid = levels / 2;
    if (tableLevels_ != levels) {   // SAT and HUE of every chroma pair: atan2f and hypotf once, not per sample
        satTable_.resize(size_t(levels) * size_t(levels));
        hueTable_.resize(satTable_.size());
        for (int u = 0; u < levels; ++u)
            for (int v = 0; v < levels; ++v) {
                satTable_[size_t(u) * size_t(levels) + size_t(v)] = uint16_t(signalstatsSat(u, v, mid));
                hueTable_[size_t(u) * size_t(levels) + size_t(v)] = uint16_t(signalstatsHue(u, v, mid));
            }
        tableLevels_ = levels;
    }

    // Each chunk of luma rows (and the chroma rows they start) counts into its own partial;
    // the partials are summed afterwards.
    const int chunks = pool_->defaultChunks(c.height);
    partials_.resize(size_t(chunks));
    const int f = 1 << (c.bitDepth - 8);
    const int log2cw = formatInfo(frame.format).log2ChromaW;
    pool_->parallelFor(c.height, [&](int chunk, int y0, int y1) {
        Partial& n = partials_[size_t(chunk)];
        n = Partial{};
        n.hy.assign(size_t(levels), 0);
        n.hu.assign(size_t(levels), 0);
        n.hv.assign(size_t(levels), 0);
        n.hs.assign(size_t(levels), 0);
        for (int y = y0; y < y1; ++y) {
            const size_t row = size_t(y) * size_t(c.width);
            const size_t crow = size_t(y >> c.log2ch) * size_t(c.chromaWidth);
            int64_t vrepDiff = 0;
            for (int x = 0; x < c.width; ++x) {
                const int s = c.y[row + size_t(x)];
                n.maskY |= unsigned(s);
                ++n.hy[size_t(s)];
                n.black += s <= blackThreshold;
                n.difY += uint64_t(std::abs(s - int(p.y[row + size_t(x)])));
                // BRNG: each pixel with the chroma sample that covers it.
                const int cb = c.u[crow + size_t(x >> log2cw)], cr = c.v[crow + size_t(x >> log2cw)];
                n.brng += s < 16 * f || s > 235 * f || cb < 16 * f || cb > 240 * f || cr < 16 * f || cr > 240 * f;
                // VREP: against the row four above.
                if (y >= 4) vrepDiff += std::abs(int(c.y[row - 4 * size_t(c.width) + size_t(x)]) - s);
            }
            n.vrepRows += y >= 4 && vrepDiff < c.width;
            // TOUT on luma cut to 8 bits, as filter_tout_outlier's uint8_t parameters do.
            if (y >= 1 && y + 1 < c.height) {
                const auto at = [&](int xx, int yy) { return uint8_t(c.y[size_t(yy) * size_t(c.width) + size_t(xx)]); };
                const auto filt = [&](int xx, int j) { return toutOutlier(at(xx, y - j), at(xx, y), at(xx, y + j)); };
                const auto filt3 = [&](int xx, int j) { return filt(xx - 1, j) && filt(xx, j) && filt(xx + 1, j); };
                const bool two = y - 2 >= 0 && y + 2 < c.height;
                for (int x = 1; x + 1 < c.width; ++x) n.tout += two ? (filt3(x, 2) && filt3(x, 1)) : filt3(x, 1);
            }
        }
        const int c0 = firstChromaRow(y0, c.log2ch), c1 = y1 == c.height ? c.chromaHeight : firstChromaRow(y1, c.log2ch);
        for (size_t i = size_t(c0) * size_t(c.chromaWidth); i < size_t(c1) * size_t(c.chromaWidth); ++i) {
            const int u = c.u[i], v = c.v[i];
            n.maskU |= unsigned(u);
            n.maskV |= unsigned(v);
            ++n.hu[size_t(u)];
            ++n.hv[size_t(v)];
            const size_t t = size_t(u) * size_t(levels) + size_t(v);
            ++n.hs[size_t(std::min(int(satTable_[t]), levels - 1))];
            ++n.hh[hueTable_[t]];
            n.difU += uint64_t(std::abs(u - int(p.u[i])));
            n.difV += uint64_t(std::abs(v - int(p.v[i])));
        }
    });

    histY_.assign(size_t(levels), 0);
    histU_.assign(size_t(levels), 0);
    histV_.assign(size_t(levels), 0);
    histSat_.assign(size_t(levels), 0);
    uint32_t histHue[360] = {};
    SignalStatsCounts n;
    for (const Partial& part : partials_) {
        for (size_t i = 0; i < size_t(levels); ++i) {
            histY_[i] += part.hy[i];
            histU_[i] += part.hu[i];
            histV_[i] += part.hv[i];
            histSat_[i] += part.hs[i];
        }
        for (size_t i = 0; i < 360; ++i) histHue[i] += part.hh[i];
        n.difY += part.difY;
        n.difU += part.difU;
        n.difV += part.difV;
        n.brng += part.brng;
        n.tout += part.tout;
        n.vrepRows += part.vrepRows;
        n.black += part.black;
        n.maskY |= part.maskY;
        n.maskU |= part.maskU;
        n.maskV |= part.maskV;
    }
    n.histY = histY_.data();
    n.histU = histU_.data();
    n.histV = histV_.data();
    n.histSat = histSat_.data();
    n.histHue = histHue;
    n.levels = levels;
    n.width = c.width;
    n.lumaSamples = int64_t(c.width) * c.height;
    n.chromaSamples = int64_t(c.u.size());
    if (samePrev) {
        lumaDifference_ = n.difY;
        chromaDifference_ = n.difU + n.difV;
    }
    finishSignalStats(n, out);
    return {};
}

double FreezeReference::mafd(const YuvPlanes& p) const { return have_ ? freezeMafdOf(p, ref_) : 1.0; }

double freezeMafdOf(const YuvPlanes& p, const YuvPlanes& ref) {
    if (p.width != ref.width || p.height != ref.height || p.chromaWidth != ref.chromaWidth || p.bitDepth != ref.bitDepth)
        return 1.0;
    uint64_t sad = 0, count = 0;
    for (size_t i = 0; i < p.y.size(); ++i) sad += uint64_t(std::abs(int(p.y[i]) - int(ref.y[i])));
    count += p.y.size();
    // freezedetect's chroma height: h >> log2 chroma height (rounded down).
    const size_t chromaSamples = size_t(p.chromaWidth) * size_t(freezeChromaRows(p.height, p.log2ch, p.chromaHeight));
    for (size_t i = 0; i < chromaSamples; ++i) {
        sad += uint64_t(std::abs(int(p.u[i]) - int(ref.u[i])));
        sad += uint64_t(std::abs(int(p.v[i]) - int(ref.v[i])));
    }
    count += 2 * chromaSamples;
    return freezeMafd(sad, count, p.bitDepth);
}

double FreezeTracker::mafd(const SignalStatsMeter& meter) const {
    const YuvPlanes& p = meter.current();
    if (at_ == At::Copy) return freezeMafdOf(p, ref_);
    const YuvPlanes* previous = meter.previous();
    if (at_ == At::None || !previous) return 1.0;
    // The meter compared the same two frames over every row: its sums are freezedetect's
    // where freezedetect's chroma rows are all of them (every even height).
    if (meter.lumaDifference() && meter.chromaDifference() &&
        freezeChromaRows(p.height, p.log2ch, p.chromaHeight) == p.chromaHeight)
        return freezeMafd(*meter.lumaDifference() + *meter.chromaDifference(), p.y.size() + p.u.size() + p.v.size(),
                          p.bitDepth);
    return freezeMafdOf(p, *previous);
}

void FreezeTracker::hold(const SignalStatsMeter& meter) {
    if (at_ != At::Previous || !meter.previous()) return;
    ref_ = *meter.previous();
    at_ = At::Copy;
}

}  // namespace cs
