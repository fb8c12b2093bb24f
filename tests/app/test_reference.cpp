// Scopes against an independent computation on frames the ffmpeg CLI decodes: clips are
// made here with ffmpeg, exported by cudascope, and decoded again by ffmpeg to raw
// frames, from which every count is recomputed with plain loops (tests/common). The
// statistics are also compared with FFmpeg's own signalstats.
#include <gtest/gtest.h>

#include <QJsonArray>

#include <map>

#include "core/PixelFormat.h"
#include "CliRunner.h"
#include "tests/common/ReferenceScopes.h"

using namespace cs;
using namespace cs::testing;

namespace {

int sample(const std::string& raw, size_t offset, int bytesPerSample, int shift) {
    if (bytesPerSample == 1) return uint8_t(raw[offset]);
    return (int(uint8_t(raw[offset])) | int(uint8_t(raw[offset + 1])) << 8) >> shift;
}

// Unpacks the first frame of an ffmpeg -f rawvideo file (planes tightly packed) into components.
Components unpackRaw(PixelFormat f, int w, int h, const std::string& raw) {
    const auto& info = formatInfo(f);
    Components c{w, h, chromaWidth(f, w), chromaHeight(f, h), info.log2ChromaW, info.log2ChromaH, {}, {}, {}, {}, {}, {}};
    const int bps = info.bytesPerSample;
    const size_t lumaBytes = size_t(w) * size_t(h) * size_t(bps);
    const size_t chromaSamples = size_t(c.cw) * size_t(c.ch);
    const std::string name(info.name);
    if (info.isRgb) {
        for (int i = 0; i < w * h; ++i) {
            const size_t p = size_t(i) * size_t(info.bytesPerPixel);
            int r = 0, g = 0, b = 0;
            if (name == "rgb24" || name == "rgba") { r = uint8_t(raw[p]); g = uint8_t(raw[p + 1]); b = uint8_t(raw[p + 2]); }
            if (name == "bgr24" || name == "bgra") { b = uint8_t(raw[p]); g = uint8_t(raw[p + 1]); r = uint8_t(raw[p + 2]); }
            if (name == "argb") { r = uint8_t(raw[p + 1]); g = uint8_t(raw[p + 2]); b = uint8_t(raw[p + 3]); }
            c.r.push_back(r); c.g.push_back(g); c.b.push_back(b);
        }
        return c;
    }
    if (name == "uyvy422" || name == "yuyv422") {
        const bool uyvy = name == "uyvy422";
        c.cb.assign(chromaSamples, 0); c.cr.assign(chromaSamples, 0); c.y.assign(size_t(w * h), 0);
        for (int y = 0; y < h; ++y)
            for (int pair = 0; pair < c.cw; ++pair) {
                const size_t p = (size_t(y) * size_t(w) + size_t(pair) * 2) * 2;
                const int y0 = uint8_t(raw[p + (uyvy ? 1 : 0)]), u = uint8_t(raw[p + (uyvy ? 0 : 1)]);
                const int y1 = uint8_t(raw[p + (uyvy ? 3 : 2)]), v = uint8_t(raw[p + (uyvy ? 2 : 3)]);
                c.y[size_t(y * w + pair * 2)] = y0;
                if (pair * 2 + 1 < w) c.y[size_t(y * w + pair * 2 + 1)] = y1;
                c.cb[size_t(y * c.cw + pair)] = u; c.cr[size_t(y * c.cw + pair)] = v;
            }
        return c;
    }
    const int shift = name == "p010le" ? 6 : 0;
    for (int i = 0; i < w * h; ++i) c.y.push_back(sample(raw, size_t(i) * size_t(bps), bps, shift));
    if (info.layout == PixelLayout::Gray) {
        c.cb.assign(chromaSamples, 1 << (info.bitDepth - 1));
        c.cr = c.cb;
        return c;
    }
    for (size_t i = 0; i < chromaSamples; ++i) {
        if (info.layout == PixelLayout::SemiPlanar) {
            c.cb.push_back(sample(raw, lumaBytes + 2 * i * size_t(bps), bps, shift));
            c.cr.push_back(sample(raw, lumaBytes + (2 * i + 1) * size_t(bps), bps, shift));
        } else {
            c.cb.push_back(sample(raw, lumaBytes + i * size_t(bps), bps, shift));
            c.cr.push_back(sample(raw, lumaBytes + (chromaSamples + i) * size_t(bps), bps, shift));
        }
    }
    return c;
}

// FFmpeg's signalstats for the first frame: key (YMIN, UAVG, ...) -> value.
std::map<std::string, double> signalstats(const QString& clip) {
    QTemporaryDir dir;
    const QString out = dir.path() + "/stats.txt";
    ffmpeg({"-i", clip, "-frames:v", "1", "-vf", "signalstats,metadata=print:file=" + out, "-f", "null", "-"});
    std::map<std::string, double> m;
    std::istringstream in(readFile(out.toStdString()));
    for (std::string line; std::getline(in, line);) {
        const auto eq = line.find('=');
        const std::string prefix = "lavfi.signalstats.";
        if (eq == std::string::npos || line.rfind(prefix, 0) != 0) continue;
        m[line.substr(prefix.size(), eq - prefix.size())] = std::stod(line.substr(eq + 1));
    }
    return m;
}

struct Case { const char* pixFmt; int w, h; const char* tags; };

void checkAgainstFfmpeg(const Case& c) {
    SCOPED_TRACE(std::string(c.pixFmt) + " " + std::to_string(c.w) + "x" + std::to_string(c.h));
    const auto format = pixelFormatFromName(c.pixFmt);
    ASSERT_TRUE(format);
    QTemporaryDir dir;
    // Tagged clips go in Matroska with FFV1 (lossless), which keeps colour tags; NUT with
    // rawvideo carries every pixel format but no tags.
    const bool tagged = std::string(c.tags).size() > 0;
    const QString clip = dir.path() + (tagged ? "/clip.mkv" : "/clip.nut"), raw = dir.path() + "/frame.raw",
                  out = dir.path() + "/out";
    // Noisy, colourful content: every code value region is exercised, not just flat fields.
    // testsrc2 only makes even sizes: make the next even size and crop to the odd one.
    QStringList make{"-f", "lavfi", "-i", QString("testsrc2=size=%1x%2:rate=5").arg((c.w + 1) & ~1).arg((c.h + 1) & ~1),
                     "-frames:v", "2", "-vf",
                     QString("format=yuv444p,crop=%1:%2:0:0,noise=alls=40:allf=t+u,format=%3").arg(c.w).arg(c.h).arg(c.pixFmt)};
    make += QString(c.tags).split(' ', Qt::SkipEmptyParts);
    make += QStringList{"-c:v", tagged ? "ffv1" : "rawvideo", clip};
    auto made = ffmpeg(make);
    ASSERT_EQ(made.exitCode, 0) << made.err;
    auto decoded = ffmpeg({"-i", clip, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", c.pixFmt, raw});
    ASSERT_EQ(decoded.exitCode, 0) << decoded.err;
    auto exported = cudascope({"export", clip, "--out", out, "--max-frames", "1", "--engine", "cpu", "--scopes",
                               "histogram,waveform,parade,vectorscope,stats"});
    ASSERT_EQ(exported.exitCode, 0) << exported.err;

    const QJsonObject report = readJson(out.toStdString() + "/report.json");
    const QJsonObject source = report["source"].toObject();
    ASSERT_EQ(source["pix_fmt"].toString().toStdString(), c.pixFmt);
    if (tagged) {
        EXPECT_TRUE(source["range_tagged"].toBool());
    }
    ColorInfo color;
    color.matrix = *matrixFromName(source["matrix"].toString().toStdString());
    color.range = *rangeFromName(source["range"].toString().toStdString());
    const Components comps = unpackRaw(*format, c.w, c.h, readFile(raw.toStdString()));
    const Reference ref = reference(*format, comps, color);

    const QJsonObject frame = report["frames"].toArray().at(0).toObject();
    const QJsonObject hist = frame["histogram"].toObject();
    EXPECT_EQ(toCounts(hist["y"]), ref.histY);
    EXPECT_EQ(toCounts(hist["r"]), ref.histR);
    EXPECT_EQ(toCounts(hist["g"]), ref.histG);
    EXPECT_EQ(toCounts(hist["b"]), ref.histB);
    std::vector<size_t> shape;
    EXPECT_EQ(readNpyUint32(out.toStdString() + "/000000-waveform.npy", shape), ref.waveform);
    EXPECT_EQ(shape, (std::vector<size_t>{ref.histY.size(), size_t(c.w)}));
    EXPECT_EQ(readNpyUint32(out.toStdString() + "/000000-parade.npy", shape), ref.paradeRgb);
    EXPECT_EQ(readNpyUint32(out.toStdString() + "/000000-vectorscope.npy", shape), ref.vectorscope);
    const QJsonObject stats = frame["stats"].toObject();
    const auto channel = [&](const char* k) { return stats[k].toObject(); };
    EXPECT_EQ(channel("y")["min"].toInt(), ref.y.min); EXPECT_EQ(channel("y")["max"].toInt(), ref.y.max);
    EXPECT_EQ(channel("u")["min"].toInt(), ref.u.min); EXPECT_EQ(channel("u")["max"].toInt(), ref.u.max);
    EXPECT_EQ(channel("v")["min"].toInt(), ref.v.min); EXPECT_EQ(channel("v")["max"].toInt(), ref.v.max);
    EXPECT_NEAR(channel("y")["avg"].toDouble(), ref.y.avg, 1e-9);
    EXPECT_NEAR(channel("u")["avg"].toDouble(), ref.u.avg, 1e-9);
    EXPECT_NEAR(channel("v")["avg"].toDouble(), ref.v.avg, 1e-9);

    // FFmpeg's own signalstats (Y'CbCr sources; it reads each plane at its own resolution).
    const auto& info = formatInfo(*format);
    if (!info.isRgb && info.layout != PixelLayout::Gray) {
        const auto ss = signalstats(clip);
        ASSERT_FALSE(ss.empty());
        EXPECT_EQ(channel("y")["min"].toInt(), int(ss.at("YMIN")));
        EXPECT_EQ(channel("y")["max"].toInt(), int(ss.at("YMAX")));
        EXPECT_EQ(channel("u")["min"].toInt(), int(ss.at("UMIN")));
        EXPECT_EQ(channel("v")["max"].toInt(), int(ss.at("VMAX")));
        EXPECT_NEAR(channel("y")["avg"].toDouble(), ss.at("YAVG"), 0.01);
        EXPECT_NEAR(channel("u")["avg"].toDouble(), ss.at("UAVG"), 0.01);
        EXPECT_NEAR(channel("v")["avg"].toDouble(), ss.at("VAVG"), 0.01);
    }
}

}  // namespace

TEST(FfmpegReference, Planar8Bit) {
    checkAgainstFfmpeg({"yuv420p", 1921, 1081, ""});
    checkAgainstFfmpeg({"yuv422p", 161, 91, ""});
    checkAgainstFfmpeg({"yuv444p", 161, 91, "-color_range pc -colorspace bt2020nc"});
}

TEST(FfmpegReference, Planar10Bit) {
    checkAgainstFfmpeg({"yuv420p10le", 1921, 1081, "-colorspace bt709"});
    checkAgainstFfmpeg({"yuv422p10le", 161, 91, ""});
    checkAgainstFfmpeg({"yuv444p10le", 161, 91, "-color_range pc"});
}

TEST(FfmpegReference, SemiPlanar) {
    // P010 has no container FFmpeg 5.1 writes raw: it is covered by tests/core (built
    // frames) and by the NVDEC HEVC Main10 test against software decoding.
    checkAgainstFfmpeg({"nv12", 161, 91, ""});
}

TEST(FfmpegReference, PackedYuv422) {
    // Even widths: FFmpeg's raw packed 4:2:2 has no defined layout for an odd last pixel.
    checkAgainstFfmpeg({"uyvy422", 162, 91, ""});
    checkAgainstFfmpeg({"yuyv422", 162, 91, ""});
}

TEST(FfmpegReference, Rgb) {
    for (const char* f : {"rgb24", "bgr24", "rgba", "bgra", "argb"}) checkAgainstFfmpeg({f, 161, 91, ""});
}

TEST(FfmpegReference, Gray) {
    checkAgainstFfmpeg({"gray", 161, 91, ""});
    checkAgainstFfmpeg({"gray10le", 161, 91, ""});
}

TEST(FfmpegReference, ColourTagsAreRead) {
    QTemporaryDir dir;
    // Matroska carries the colour tags (NUT with rawvideo does not).
    const QString clip = dir.path() + "/tagged.mkv", out = dir.path() + "/out";
    ASSERT_EQ(ffmpeg({"-f", "lavfi", "-i", "testsrc2=size=64x48", "-frames:v", "1", "-pix_fmt", "yuv444p10le",
                      "-color_range", "pc", "-colorspace", "bt2020nc", "-color_trc", "smpte2084", "-c:v", "ffv1", clip})
                  .exitCode,
              0);
    ASSERT_EQ(cudascope({"export", clip, "--out", out, "--engine", "cpu"}).exitCode, 0);
    const auto source = readJson(out.toStdString() + "/report.json")["source"].toObject();
    EXPECT_EQ(source["matrix"].toString(), "bt2020nc");
    EXPECT_EQ(source["range"].toString(), "full");
    EXPECT_EQ(source["transfer"].toString(), "smpte2084");
    EXPECT_EQ(source["bit_depth"].toInt(), 10);
}
