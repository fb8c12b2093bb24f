// Samples above the 10-bit range end to end: raw .y4m files written here, whose 16-bit
// words hold more than 10 bits (every word 0xFFFF, as in a raw file of all ones, or 14376,
// as FFmpeg's H.264 10-bit decoder leaves in damaged frames), through `cudascope qc` and
// `cudascope export`: no crash, the codes read with the bits above the depth ignored (0xFFFF
// is 1023, 14376 is 40), and one warning per run of frames with such samples, naming its
// first and last frame and the count.
#include <gtest/gtest.h>

#include <QFile>
#include <QJsonArray>

#include <cmath>
#include <string>
#include <vector>

#include "CliRunner.h"

using namespace cs::testing;

namespace {

// A .y4m of 10-bit frames (4:2:0 or 4:2:2) whose every word is words[frame].
QString writeY4m(const QTemporaryDir& dir, const QString& name, const char* chroma, int w, int h,
                 const std::vector<uint16_t>& words) {
    const bool c422 = std::string(chroma) == "422p10";
    const size_t samples = size_t(w) * size_t(h) + 2 * size_t(w / 2) * size_t(c422 ? h : h / 2);
    std::string bytes = "YUV4MPEG2 W" + std::to_string(w) + " H" + std::to_string(h) + " F25:1 Ip A1:1 C" + chroma + "\n";
    for (const uint16_t word : words) {
        bytes += "FRAME\n";
        for (size_t i = 0; i < samples; ++i) {
            bytes += char(word & 0xff);
            bytes += char(word >> 8);
        }
    }
    const QString path = dir.path() + "/" + name;
    QFile f(path);
    EXPECT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(bytes.data(), qint64(bytes.size()));
    return path;
}

QStringList aboveRangeWarnings(const QJsonObject& report) {
    QStringList out;
    for (const auto& w : report["warnings"].toArray())
        if (w.toString().contains("above the 10-bit range")) out << w.toString();
    return out;
}

int yStat(const QJsonValue& frame, const char* what) {
    return frame.toObject()["stats"].toObject()["y"].toObject()[what].toInt();
}
int member(const QJsonValue& frame, const char* name) { return frame.toObject()[name].toInt(); }

constexpr uint16_t kMid = 512, kOnes = 0xffff, kDamaged = 14376;

}  // namespace

TEST(QcOutOfRange, AllOnesFileIsCheckedAndWarnedOnce) {
    QTemporaryDir dir;
    const QString clip = writeY4m(dir, "ones.y4m", "420p10", 64, 48, {kOnes, kOnes, kOnes, kOnes, kOnes});
    const RunResult r = cudascope({"qc", clip, "--out", dir.path() + "/qc", "--engine", "cpu"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const QJsonObject report = readJson((dir.path() + "/qc/ones.y4m.qc.json").toStdString());
    const QJsonArray frames = report["frames"].toArray();
    ASSERT_EQ(frames.size(), 5);
    for (const auto& f : frames) {
        EXPECT_EQ(yStat(f, "max"), 1023);
        EXPECT_EQ(yStat(f, "min"), 1023);
        EXPECT_EQ(member(f, "ylow"), 1023);
        EXPECT_EQ(member(f, "yhigh"), 1023);
    }
    const QStringList warnings = aboveRangeWarnings(report);
    ASSERT_EQ(warnings.size(), 1) << r.err;
    EXPECT_EQ(warnings[0].toStdString(), clip.toStdString() + ": frames 0 to 4: " + std::to_string(5 * 64 * 48 * 3 / 2) +
                                             " samples above the 10-bit range (codes over 1023; read with the bits above "
                                             "the depth ignored)");
    EXPECT_NE(r.err.find("frames 0 to 4: "), std::string::npos) << "the warning goes to stderr too";
    EXPECT_TRUE(QFile::exists(dir.path() + "/qc/ones.y4m.qctools.xml.gz"));
}

TEST(QcOutOfRange, Damaged422RunsWarnedEachOnce) {
    QTemporaryDir dir;
    // Frames 1-3 and 5 hold out-of-range words: two runs, two warnings.
    const QString clip = writeY4m(dir, "damaged.y4m", "422p10", 32, 16, {kMid, kDamaged, kOnes, kDamaged, kMid, kDamaged, kMid});
    const RunResult r = cudascope({"qc", clip, "--out", dir.path() + "/qc", "--engine", "cpu"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const QJsonObject report = readJson((dir.path() + "/qc/damaged.y4m.qc.json").toStdString());
    const QJsonArray frames = report["frames"].toArray();
    ASSERT_EQ(frames.size(), 7);
    EXPECT_EQ(yStat(frames[0], "max"), 512);
    EXPECT_EQ(yStat(frames[1], "max"), 40);   // 14376 & 1023
    EXPECT_EQ(yStat(frames[2], "max"), 1023);
    EXPECT_EQ(member(frames[1], "satmax"), int(std::hypot(472.f, 472.f)));   // Cb = Cr = 40, mid 512
    const QStringList warnings = aboveRangeWarnings(report);
    const int perFrame = 32 * 16 * 2;
    ASSERT_EQ(warnings.size(), 2) << r.err;
    EXPECT_TRUE(warnings[0].endsWith(": frames 1 to 3: " + QString::number(3 * perFrame) +
                                     " samples above the 10-bit range (codes over 1023; read with the bits above the depth ignored)"))
        << warnings[0].toStdString();
    EXPECT_TRUE(warnings[1].contains(": frame 5: " + QString::number(perFrame) + " samples")) << warnings[1].toStdString();
}

TEST(QcOutOfRange, ExportReadsTheSameCodesAndWarnsOnce) {
    QTemporaryDir dir;
    const QString clip = writeY4m(dir, "ones.y4m", "420p10", 64, 48, {kOnes, kOnes, kOnes, kDamaged, kMid});
    const RunResult r = cudascope({"export", clip, "--out", dir.path() + "/out", "--engine", "cpu", "--scopes", "stats"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const QJsonObject report = readJson((dir.path() + "/out/report.json").toStdString());
    const QJsonArray frames = report["frames"].toArray();
    ASSERT_EQ(frames.size(), 5);
    EXPECT_EQ(yStat(frames[0], "max"), 1023);
    EXPECT_EQ(yStat(frames[3], "max"), 40);
    EXPECT_EQ(yStat(frames[4], "max"), 512);
    const QStringList warnings = aboveRangeWarnings(report);
    ASSERT_EQ(warnings.size(), 1) << r.err;
    EXPECT_TRUE(warnings[0].startsWith(clip + ": frames 0 to 3: " + QString::number(4 * 64 * 48 * 3 / 2) + " samples"))
        << warnings[0].toStdString();
    EXPECT_NE(r.err.find("warning: " + clip.toStdString() + ": frames 0 to 3"), std::string::npos) << r.err;
}
