// --peaking-width through the binary (export and record): a bad value is a usage error naming
// the option and the value (exit 2); a good one reaches report.json and the pictures: on the
// bars (vertical step edges, two columns each at width 1) width 3 paints a superset of width
// 1's pixels, about three times as many, and leaves every other pixel the picture's.
#include <gtest/gtest.h>

#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>

#include "CliRunner.h"

using namespace cs::testing;

namespace {

// A PNG or a video's first frame as R, G, B bytes, decoded by the ffmpeg CLI.
std::string decodeRgb(const QString& path, int width, int height) {
    const RunResult r = ffmpeg({"-i", path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"});
    return r.exitCode == 0 && r.out.size() == size_t(width) * size_t(height) * 3 ? r.out : std::string();
}

RunResult exportPeaking(const QString& out, const QString& width) {
    return cudascope({"export", "pattern:bars:320x180", "--out", out, "--max-frames", "1", "--engine", "cpu", "--scopes",
                      "picture", "--preview", "peaking", "--peaking-colour", "green", "--peaking-width", width});
}

bool green(const std::string& rgb, size_t pixel) {
    return uint8_t(rgb[3 * pixel]) == 0x20 && uint8_t(rgb[3 * pixel + 1]) == 0xff && uint8_t(rgb[3 * pixel + 2]) == 0x20;
}

}  // namespace

TEST(PeakingWidthOption, BadValuesAreUsageErrors) {
    QTemporaryDir dir;
    for (const char* bad : {"0", "4", "two", "2px", ""}) {
        const auto e = exportPeaking(dir.path() + "/x", QString::fromLatin1(bad));
        EXPECT_EQ(e.exitCode, 2) << e.err;
        EXPECT_EQ(firstLine(e.err), std::string("cudascope export: --peaking-width must be 1, 2 or 3 (pixels), not '") + bad + "'") << e.err;
        const auto r = cudascope({"record", "pattern:bars", "--out", dir.filePath("x.mp4"), "--layout", "preview", "--peaking-width", bad});
        EXPECT_EQ(r.exitCode, 2) << r.err;
        EXPECT_EQ(firstLine(r.err), std::string("cudascope record: --peaking-width must be 1, 2 or 3 (pixels), not '") + bad + "'") << r.err;
    }
    EXPECT_FALSE(QFile::exists(dir.path() + "/x"));
    EXPECT_FALSE(QFile::exists(dir.filePath("x.mp4")));
}

TEST(PeakingWidthOption, ExportWritesTheWidthAndWidensThePeaks) {
    QTemporaryDir dir;
    const std::string base = dir.path().toStdString();
    for (const char* w : {"1", "3"}) {
        const auto r = exportPeaking(dir.path() + "/w" + w, QString::fromLatin1(w));
        ASSERT_EQ(r.exitCode, 0) << r.err;
        const QJsonObject scopes = readJson(base + "/w" + w + "/report.json")["scopes"].toObject();
        EXPECT_EQ(scopes["peaking_width"].toInt(), std::atoi(w));
        EXPECT_EQ(scopes["peaking_colour"].toString(), "green");
    }
    const std::string picture = decodeRgb(dir.path() + "/w1/000000-picture.png", 320, 180);
    const std::string narrow = decodeRgb(dir.path() + "/w1/000000-preview-peaking.png", 320, 180);
    const std::string wide = decodeRgb(dir.path() + "/w3/000000-preview-peaking.png", 320, 180);
    ASSERT_FALSE(picture.empty());
    ASSERT_FALSE(narrow.empty());
    ASSERT_FALSE(wide.empty());
    size_t narrowPainted = 0, widePainted = 0;
    for (size_t p = 0; p < 320 * 180; ++p) {
        const bool n = green(narrow, p), w = green(wide, p);
        narrowPainted += n;
        widePainted += w;
        ASSERT_TRUE(!n || w) << "pixel " << p << " painted at width 1, not at 3";
        if (!w) {
            ASSERT_EQ(wide.substr(3 * p, 3), picture.substr(3 * p, 3)) << "pixel " << p;
        }
    }
    EXPECT_GT(narrowPainted, 1000u);
    EXPECT_GT(widePainted, 2 * narrowPainted);
    EXPECT_LT(narrowPainted, 320u * 180u / 4);
}

// Without --preview peaking the report carries no peaking settings.
TEST(PeakingWidthOption, OnlyAPeakingExportReportsIt) {
    QTemporaryDir dir;
    const auto r = cudascope({"export", "pattern:bars:64x48", "--out", dir.path() + "/z", "--max-frames", "1", "--engine", "cpu",
                              "--scopes", "stats", "--preview", "zebra", "--peaking-width", "2"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const QJsonObject scopes = readJson(dir.path().toStdString() + "/z/report.json")["scopes"].toObject();
    EXPECT_FALSE(scopes.contains("peaking_width"));
    EXPECT_FALSE(scopes.contains("peaking_colour"));
}

// record --layout preview: the width reaches the recording (quality 0, so the paint survives
// the encoder): on the bars, about three times as much peaking red at width 3 as at width 1.
TEST(PeakingWidthOption, RecordWidensThePeaks) {
    QTemporaryDir dir;
    size_t red[2] = {0, 0};
    for (int i = 0; i < 2; ++i) {
        const QString out = dir.filePath(i == 0 ? "w1.mp4" : "w3.mp4");
        const auto r = cudascope({"record", "pattern:bars:320x240", "--out", out, "--frames", "1", "--engine", "cpu", "--layout",
                                  "preview", "--quality", "0", "--peaking-width", i == 0 ? "1" : "3"});
        ASSERT_EQ(r.exitCode, 0) << r.err;
        const std::string rgb = decodeRgb(out, 320, 240);
        ASSERT_FALSE(rgb.empty());
        for (size_t p = 0; p < 320 * 240; ++p)
            red[i] += uint8_t(rgb[3 * p]) > 220 && uint8_t(rgb[3 * p + 1]) < 80 && uint8_t(rgb[3 * p + 2]) < 80;
    }
    EXPECT_GT(red[0], 500u);
    EXPECT_GT(red[1], 2 * red[0]) << red[0];
}
