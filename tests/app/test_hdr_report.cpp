// HDR light levels in report.json, end to end: a 10-bit PQ clip (BT.2020 NCL, limited range)
// made here with the ffmpeg CLI from code values written by the test, exported by
// cudascope, and each frame's max/avg nits and bright-pixel shares checked against an
// independent computation in double precision from those code values (ST 2084's formula
// written out here, not core's); MaxCLL and MaxFALL in the summary; the --transfer override
// (HLG checked the same way, with BT.2100's HLG written out here).
#include <gtest/gtest.h>

#include <QJsonArray>

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>

#include "CliRunner.h"

using namespace cs::testing;

namespace {

constexpr int kW = 32, kH = 16;

struct Plane10 { std::vector<uint16_t> y, u, v; };

// Frame 0: greys on the PQ ladder and colours; frame 1: brighter, with a peak-white block.
Plane10 makeFrame(int n) {
    Plane10 p;
    p.y.resize(kW * kH); p.u.resize(kW * kH / 4); p.v.resize(kW * kH / 4);
    const int greys[] = {64, 200, 400, 509, 577, 650, 721, 769, 800, 870};
    for (int y = 0; y < kH; ++y)
        for (int x = 0; x < kW; ++x) p.y[size_t(y * kW + x)] = uint16_t(n == 0 ? greys[(x / 4 + y) % 10] : greys[(x / 4 + y) % 10] + 60);
    for (int cy = 0; cy < kH / 2; ++cy)
        for (int cx = 0; cx < kW / 2; ++cx) {
            const bool colour = (cx + cy) % 4 == 0;
            p.u[size_t(cy * kW / 2 + cx)] = uint16_t(colour ? 300 + 20 * cx : 512);
            p.v[size_t(cy * kW / 2 + cx)] = uint16_t(colour ? 700 - 12 * cy : 512);
        }
    if (n == 1)
        for (int y = 0; y < 2; ++y)
            for (int x = 0; x < 2; ++x) p.y[size_t(y * kW + x)] = 940;
    return p;
}

double pqEotf(double e) {
    const double m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128, c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32,
                 c3 = 2392.0 / 4096 * 32;
    const double p = std::pow(std::clamp(e, 0.0, 1.0), 1 / m2);
    return 10000 * std::pow(std::max(p - c1, 0.0) / (c2 - c3 * p), 1 / m1);
}

// BT.2100 HLG on its 1000 cd/m2 reference display (system gamma 1.2), for a grey of signal e.
double hlgDisplay(double e) {
    const double a = 0.17883277, b = 1 - 4 * a, c = 0.5 - a * std::log(4 * a);
    e = std::clamp(e, 0.0, 1.0);
    const double scene = e <= 0.5 ? e * e / 3 : (std::exp((e - c) / a) + b) / 12;
    return 1000 * std::pow(scene, 1.2);
}

// BT.2020 NCL, limited range, 10 bits: the largest of R', G', B' (0..1).
double maxSignal(int y, int cb, int cr) {
    const double kr = 0.2627, kb = 0.0593, kg = 1 - kr - kb;
    const double yy = (y - 64) / 876.0, u = (cb - 512) / 896.0, v = (cr - 512) / 896.0;
    const double r = yy + 2 * (1 - kr) * v, b = yy + 2 * (1 - kb) * u, g = (yy - kr * r - kb * b) / kg;
    return std::clamp(std::max({r, g, b}), 0.0, 1.0);
}

struct Levels { double max = 0, avg = 0, tol = 0; std::array<double, 3> above{}; };

Levels expected(const Plane10& p, double (*eotf)(double) = pqEotf) {
    Levels l;
    const double step = 0.6 / 1023;   // R'G'B' kept on the native 10-bit code grid
    double sum = 0;
    for (int y = 0; y < kH; ++y)
        for (int x = 0; x < kW; ++x) {
            const size_t c = size_t((y / 2) * (kW / 2) + x / 2);
            const double e = maxSignal(p.y[size_t(y * kW + x)], p.u[c], p.v[c]);
            const double nits = eotf(e);
            l.max = std::max(l.max, nits);
            l.tol = std::max(l.tol, eotf(e + step) - eotf(e - step));
            sum += nits;
            const double thresholds[] = {203, 1000, 4000};
            for (size_t i = 0; i < 3; ++i) l.above[i] += nits > thresholds[i] ? 1.0 / (kW * kH) : 0.0;
        }
    l.avg = sum / (kW * kH);
    return l;
}

void append(std::string& raw, const std::vector<uint16_t>& v) {
    for (uint16_t s : v) { raw.push_back(char(s & 0xff)); raw.push_back(char(s >> 8)); }
}

class HdrReport : public ::testing::Test {
protected:
    QTemporaryDir dir;
    QString clip;
    std::array<Plane10, 2> frames{makeFrame(0), makeFrame(1)};

    void SetUp() override {
        std::string raw;
        for (const Plane10& f : frames) { append(raw, f.y); append(raw, f.u); append(raw, f.v); }
        const QString rawPath = dir.path() + "/pq.yuv";
        std::ofstream(rawPath.toStdString(), std::ios::binary).write(raw.data(), std::streamsize(raw.size()));
        clip = dir.path() + "/pq.mkv";
        // FFV1 is lossless: the decoded code values are the ones written.
        ASSERT_EQ(ffmpeg({"-f", "rawvideo", "-pix_fmt", "yuv420p10le", "-s", QString("%1x%2").arg(kW).arg(kH), "-i", rawPath,
                          "-color_range", "tv", "-colorspace", "bt2020nc", "-color_primaries", "bt2020", "-color_trc",
                          "smpte2084", "-c:v", "ffv1", clip})
                      .exitCode,
                  0);
    }
    QJsonObject exportReport(const QStringList& extra, const QString& name) {
        const QString out = dir.path() + "/" + name;
        const RunResult r = cudascope(QStringList{"export", clip, "--out", out, "--engine", "cpu", "--scopes", "stats"} + extra);
        EXPECT_EQ(r.exitCode, 0) << r.err;
        return readJson(out.toStdString() + "/report.json");
    }
};

TEST_F(HdrReport, PqFramesAgainstIndependentComputation) {
    const QJsonObject report = exportReport({}, "out");
    EXPECT_EQ(report["source"].toObject()["transfer"].toString(), "smpte2084");
    EXPECT_EQ(report["scopes"].toObject()["transfer"].toString(), "smpte2084");
    const QJsonArray list = report["frames"].toArray();
    ASSERT_EQ(list.size(), 2);
    double maxCll = 0, maxFall = 0;
    for (int n = 0; n < 2; ++n) {
        SCOPED_TRACE(n);
        const QJsonObject hdr = list[n].toObject()["hdr"].toObject();
        ASSERT_FALSE(hdr.isEmpty());
        const Levels e = expected(frames[size_t(n)]);
        EXPECT_EQ(hdr["transfer"].toString(), "smpte2084");
        EXPECT_NEAR(hdr["max_nits"].toDouble(), e.max, e.tol);
        EXPECT_NEAR(hdr["avg_nits"].toDouble(), e.avg, e.tol);
        EXPECT_NEAR(hdr["above_203_nits"].toDouble(), e.above[0], 1e-9);
        EXPECT_NEAR(hdr["above_1000_nits"].toDouble(), e.above[1], 1e-9);
        EXPECT_NEAR(hdr["above_4000_nits"].toDouble(), e.above[2], 1e-9);
        maxCll = std::max(maxCll, hdr["max_nits"].toDouble());
        maxFall = std::max(maxFall, hdr["avg_nits"].toDouble());
    }
    // Frame 1 holds peak white: 10000 cd/m2 exactly, and it is the file's MaxCLL.
    EXPECT_DOUBLE_EQ(list[1].toObject()["hdr"].toObject()["max_nits"].toDouble(), 10000.0);
    const QJsonObject summary = report["summary"].toObject();
    EXPECT_EQ(summary["hdr_frames"].toInt(), 2);
    EXPECT_DOUBLE_EQ(summary["max_cll"].toDouble(), maxCll);
    EXPECT_DOUBLE_EQ(summary["max_fall"].toDouble(), maxFall);
}

TEST_F(HdrReport, TransferOverride) {
    const QJsonObject sdr = exportReport({"--transfer", "sdr"}, "sdr");
    EXPECT_EQ(sdr["scopes"].toObject()["transfer"].toString(), "bt709");
    EXPECT_FALSE(sdr["frames"].toArray()[0].toObject().contains("hdr"));
    EXPECT_FALSE(sdr["summary"].toObject().contains("max_cll"));
    const QJsonObject hlg = exportReport({"--transfer", "hlg"}, "hlg");
    const QJsonObject hdr = hlg["frames"].toArray()[1].toObject()["hdr"].toObject();
    EXPECT_EQ(hdr["transfer"].toString(), "arib-std-b67");
    EXPECT_NEAR(hdr["max_nits"].toDouble(), 1000.0, 1e-3);   // peak white on the 1000 cd/m2 reference display
    for (int n = 0; n < 2; ++n) {
        SCOPED_TRACE(n);
        const QJsonObject h = hlg["frames"].toArray()[n].toObject()["hdr"].toObject();
        const Levels e = expected(frames[size_t(n)], hlgDisplay);
        EXPECT_NEAR(h["max_nits"].toDouble(), e.max, e.tol);
        EXPECT_NEAR(h["avg_nits"].toDouble(), e.avg, e.tol);
        // (No share check here: code 721 is HLG's 75%, 203.2 cd/m2, within a code of the threshold.)
    }
    const RunResult bad = cudascope({"export", clip, "--out", dir.path() + "/bad", "--transfer", "gamma"});
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_NE(bad.err.find("--transfer must be sdr, pq or hlg, not 'gamma'"), std::string::npos) << bad.err;
}

}  // namespace
