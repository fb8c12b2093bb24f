// FFmpeg 5.1's signalstats, blackdetect and freezedetect measurements (SignalStats.h).
#include "SignalStats.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <numbers>

#include "PixelAccess.h"

namespace cs {
namespace {

void unpack(const FrameView& f, YuvPlanes& p) {
    const auto& info = formatInfo(f.format);
    p.width = f.width;
    p.height = f.height;
    p.bitDepth = info.bitDepth;
    p.log2ch = info.log2ChromaH;
    p.chromaWidth = chromaWidth(f.format, f.width);
    p.chromaHeight = chromaHeight(f.format, f.height);
    const PixelSource src = makePixelSource(f);
    const int32_t mid = 1 << (info.bitDepth - 1);
    p.y.resize(size_t(p.width) * size_t(p.height));
    p.u.resize(size_t(p.chromaWidth) * size_t(p.chromaHeight));
    p.v.resize(p.u.size());
    const auto loadRows = [&](int plane, int width, int height, std::vector<uint16_t>& out) {
        for (int y = 0; y < height; ++y) {
            const uint8_t* row = f.data[size_t(plane)] + std::ptrdiff_t(y) * f.pitch[size_t(plane)];
            uint16_t* dst = &out[size_t(y) * size_t(width)];
            for (int x = 0; x < width; ++x) dst[x] = uint16_t(loadSample(row, x, src.bytesPerSample, src.shift));
        }
    };
    if (info.layout == PixelLayout::Planar) {   // the common case, plane by plane
        loadRows(0, p.width, p.height, p.y);
        loadRows(1, p.chromaWidth, p.chromaHeight, p.u);
        loadRows(2, p.chromaWidth, p.chromaHeight, p.v);
        return;
    }
    if (info.layout == PixelLayout::Gray) {
        loadRows(0, p.width, p.height, p.y);
        std::fill(p.u.begin(), p.u.end(), uint16_t(mid));
        std::fill(p.v.begin(), p.v.end(), uint16_t(mid));
        return;
    }
    for (int y = 0; y < p.height; ++y)
        for (int x = 0; x < p.width; ++x) p.y[size_t(y) * size_t(p.width) + size_t(x)] = uint16_t(readYuv(src, x, y, mid).y);
    for (int cy = 0; cy < p.chromaHeight; ++cy)
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
    std::swap(cur_, prev_);
    unpack(frame, cur_);
    const YuvPlanes& c = cur_;
    const bool samePrev = havePrev_ && prev_.width == c.width && prev_.height == c.height &&
                          prev_.chromaWidth == c.chromaWidth && prev_.chromaHeight == c.chromaHeight;
    const YuvPlanes& p = samePrev ? prev_ : c;   // signalstats: the first frame is its own previous
    havePrev_ = true;

    const int levels = 1 << c.bitDepth, mid = levels / 2;
    histY_.assign(size_t(levels), 0);
    histU_.assign(size_t(levels), 0);
    histV_.assign(size_t(levels), 0);
    histSat_.assign(size_t(levels), 0);
    uint32_t histHue[360] = {};
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
    SignalStatsCounts n;
    for (size_t i = 0; i < c.y.size(); ++i) {
        const uint16_t s = c.y[i];
        n.maskY |= s;
        ++histY_[s];
        n.black += s <= blackThreshold;
        n.difY += uint64_t(std::abs(int(s) - int(p.y[i])));
    }
    for (size_t i = 0; i < c.u.size(); ++i) {
        const int u = c.u[i], v = c.v[i];
        n.maskU |= unsigned(u);
        n.maskV |= unsigned(v);
        ++histU_[size_t(u)];
        ++histV_[size_t(v)];
        const size_t t = size_t(u) * size_t(levels) + size_t(v);
        ++histSat_[size_t(std::min(int(satTable_[t]), levels - 1))];
        ++histHue[hueTable_[t]];
        n.difU += uint64_t(std::abs(u - int(p.u[i])));
        n.difV += uint64_t(std::abs(v - int(p.v[i])));
    }

    // BRNG: each pixel with the chroma sample that covers it.
    const int f = 1 << (c.bitDepth - 8);
    const int log2cw = formatInfo(frame.format).log2ChromaW;
    for (int y = 0; y < c.height; ++y) {
        const uint16_t* row = &c.y[size_t(y) * size_t(c.width)];
        const size_t crow = size_t(y >> c.log2ch) * size_t(c.chromaWidth);
        for (int x = 0; x < c.width; ++x) {
            const int l = row[x], cb = c.u[crow + size_t(x >> log2cw)], cr = c.v[crow + size_t(x >> log2cw)];
            n.brng += l < 16 * f || l > 235 * f || cb < 16 * f || cb > 240 * f || cr < 16 * f || cr > 240 * f;
        }
    }
    // VREP: rows (from the fifth) nearly equal to the row four above.
    for (int y = 4; y < c.height; ++y) {
        const uint16_t* a = &c.y[size_t(y - 4) * size_t(c.width)];
        const uint16_t* b = &c.y[size_t(y) * size_t(c.width)];
        int64_t diff = 0;
        for (int x = 0; x < c.width; ++x) diff += std::abs(int(a[x]) - int(b[x]));
        n.vrepRows += diff < c.width;
    }
    // TOUT on luma cut to 8 bits, as filter_tout_outlier's uint8_t parameters do.
    const auto at = [&](int x, int y) { return uint8_t(c.y[size_t(y) * size_t(c.width) + size_t(x)]); };
    const auto filt = [&](int x, int y, int j) { return toutOutlier(at(x, y - j), at(x, y), at(x, y + j)); };
    const auto filt3 = [&](int x, int y, int j) { return filt(x - 1, y, j) && filt(x, y, j) && filt(x + 1, y, j); };
    for (int y = 1; y + 1 < c.height; ++y) {
        const bool two = y - 2 >= 0 && y + 2 < c.height;
        for (int x = 1; x + 1 < c.width; ++x) n.tout += two ? (filt3(x, y, 2) && filt3(x, y, 1)) : filt3(x, y, 1);
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
    finishSignalStats(n, out);
    return {};
}

double FreezeReference::mafd(const YuvPlanes& p) const {
    if (!have_ || p.width != ref_.width || p.height != ref_.height || p.chromaWidth != ref_.chromaWidth ||
        p.bitDepth != ref_.bitDepth)
        return 1.0;
    uint64_t sad = 0, count = 0;
    for (size_t i = 0; i < p.y.size(); ++i) sad += uint64_t(std::abs(int(p.y[i]) - int(ref_.y[i])));
    count += p.y.size();
    // freezedetect's chroma height: h >> log2 chroma height (rounded down).
    const size_t chromaSamples = size_t(p.chromaWidth) * size_t(freezeChromaRows(p.height, p.log2ch, p.chromaHeight));
    for (size_t i = 0; i < chromaSamples; ++i) {
        sad += uint64_t(std::abs(int(p.u[i]) - int(ref_.u[i])));
        sad += uint64_t(std::abs(int(p.v[i]) - int(ref_.v[i])));
    }
    count += 2 * chromaSamples;
    return freezeMafd(sad, count, p.bitDepth);
}

}  // namespace cs
